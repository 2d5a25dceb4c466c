import Foundation
import Logging

/// `--log-format json`: one JSON object per line on standard error, with time, level, label,
/// message and metadata, for log collectors.
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    let label: String
    let write: @Sendable (String) -> Void

    public init(
        label: String, level: Logger.Level, metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider,
        write: @escaping @Sendable (String) -> Void = TextLogHandler.writeToStandardError
    ) {
        self.label = label
        self.logLevel = level
        self.metadataProvider = metadataProvider
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var object: [String: Any] = [
            "time": Self.timestamp(), "level": event.level.rawValue, "label": label, "message": event.message.description
        ]
        let merged = LogMetadata.merged(metadata, provider: metadataProvider, event: event)
        for (key, value) in merged where object[key] == nil { object[key] = Self.plain(value) }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        write(String(decoding: data, as: UTF8.self) + "\n")
    }

    static func plain(_ value: Logger.MetadataValue) -> Any {
        switch value {
        case let .string(text): return text
        case let .stringConvertible(convertible): return convertible.description
        case let .array(values): return values.map(plain)
        case let .dictionary(values): return values.mapValues(plain)
        }
    }

    static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }
}
