import Logging
import Synchronization
import ZKPinServer

/// Sets swift-log's handler once, before any logger is made: `--log-level`, `--log-format`.
enum LogSetup {
    /// Set with `--log-format json`: the start-up lines on standard output are JSON too.
    static let json = Atomic<Bool>(false)

    static func bootstrap(level: Logger.Level, format: LogFormat) {
        json.store(format == .json, ordering: .relaxed)
        LoggingSystem.bootstrap { label in
            switch format {
            case .text:
                return TextLogHandler(label: label, level: level)
            case .json:
                return JSONLogHandler(label: label, level: level)
            }
        }
    }
}
