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
        let merged = LogMetadata.merged(metadata, provider: metadataProvider, event: event)
        write(Self.line(level: event.level, label: label, message: event.message.description, metadata: merged))
    }

    /// One JSON object and a newline, as this handler writes it (also for the start-up lines
    /// `zkpin-server` prints on standard output).
    public static func line(level: Logger.Level, label: String, message: String, metadata: Logger.Metadata = [:]) -> String {
        var object: [String: Any] = ["time": timestamp(), "level": level.rawValue, "label": label, "message": message]
        for (key, value) in metadata where object[key] == nil { object[key] = plain(value) }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return "{}\n"
        }
        return String(decoding: data, as: UTF8.self) + "\n"
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
