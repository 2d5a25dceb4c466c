/// `--log-format`: swift-log's plain lines, or one JSON object per line for log collectors.
public enum LogFormat: String, Sendable, CaseIterable {
    case text, json
}
