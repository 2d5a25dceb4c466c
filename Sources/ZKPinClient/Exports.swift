// The flows, the identity and the errors live in ZKPinClientCore (no GRDB, NIO or zbar: the
// part an app shares through ZKPinKit); the command sees them through this module as before.
@_exported import ZKPinClientCore
