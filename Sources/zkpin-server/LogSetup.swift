import Logging
import ZKPinServer

/// Sets swift-log's handler once, before any logger is made: `--log-level`, `--log-format`.
enum LogSetup {
    static func bootstrap(level: Logger.Level, format: LogFormat) {
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
