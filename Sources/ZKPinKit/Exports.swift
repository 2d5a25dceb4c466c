// An app imports ZKPinKit alone: the types its calls take and return (Payload, Identity,
// Service, PendingApproval, HTTPTransport, IdentityStore) come from these two modules.
@_exported import ZKPinClientCore
@_exported import ZKPinWire
