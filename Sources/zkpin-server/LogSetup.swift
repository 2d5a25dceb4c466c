import Logging
import ZKPinServer

/// Sets swift-log's handler once, before any logger is made: `--log-level`, `--log-format`.
enum LogSetup {
    static func bootstrap(level: Logger.Level, format: LogFormat) {
        LoggingSystem.bootstrap { label in
            switch format {
            case .text:
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            case .json:
                return JSONLogHandler(label: label, level: level)
            }
        }
    }
}
