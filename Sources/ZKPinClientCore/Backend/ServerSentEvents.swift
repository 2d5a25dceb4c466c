/// One event of a `text/event-stream`.
public struct ServerSentEvent: Sendable, Equatable {
    /// The stream's last event ID when this event was dispatched (it persists across events
    /// that carry no `id:` line; "" before any).
    public var id: String
    /// `event:`, or "message" when the event named none.
    public var type: String
    /// The `data:` lines joined with line feeds.
    public var data: String

    public init(id: String, type: String, data: String) { self.id = id; self.type = type; self.data = data }
}

/// Reads a `text/event-stream` as it arrives, chunk by chunk, by the rules of the WHATWG HTML
/// standard ("Server-sent events", interpreting an event stream): lines end in CRLF, LF or
/// CR (also when a chunk ends between CR and LF), a blank line dispatches, `:` starts a
/// comment, one space after the colon is dropped, `retry:` takes digits only, an `id:` with a
/// NUL is ignored, and an event unfinished at the end of the stream is dropped.
public struct ServerSentEventParser: Sendable {
    public enum Failure: Error, Sendable, Equatable {
        /// A line longer than `maxLineBytes`: not a stream this client should buffer.
        case lineTooLong(Int)
    }

    /// What the stream said so far that outlives one event.
    public private(set) var lastEventID = ""
    /// The reconnection time the server asked for, in milliseconds.
    public private(set) var retryMilliseconds: Int?
    public let maxLineBytes: Int

    private var line: [UInt8] = []
    private var afterCR = false
    private var atStart = true
    private var data = ""
    private var hasData = false
    private var type = ""

    public init(maxLineBytes: Int = 64 * 1024) { self.maxLineBytes = maxLineBytes }

    /// The events completed by `bytes`.
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws(Failure) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == UInt8(ascii: "\n") { continue }
            }
            switch byte {
            case UInt8(ascii: "\r"):
                afterCR = true
                if let event = endLine() { events.append(event) }
            case UInt8(ascii: "\n"):
                if let event = endLine() { events.append(event) }
            default:
                guard line.count < maxLineBytes else { throw .lineTooLong(maxLineBytes) }
                line.append(byte)
            }
        }
        return events
    }

    /// The stream ended: whatever was not dispatched is dropped, the last event ID is kept.
    public mutating func reset() {
        line = []
        afterCR = false
        atStart = true
        data = ""
        hasData = false
        type = ""
    }

    private mutating func endLine() -> ServerSentEvent? {
        var bytes = line[...]
        line = []
        if atStart {
            atStart = false
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        }
        guard !bytes.isEmpty else { return dispatch() }
        if bytes.first == UInt8(ascii: ":") { return nil }
        let field: String
        var value: ArraySlice<UInt8>
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            field = String(decoding: bytes[..<colon], as: UTF8.self)
            value = bytes[bytes.index(after: colon)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            field = String(decoding: bytes, as: UTF8.self)
            value = []
        }
        switch field {
        case "event": type = String(decoding: value, as: UTF8.self)
        case "data":
            if hasData { data += "\n" }
            data += String(decoding: value, as: UTF8.self)
            hasData = true
        case "id" where !value.contains(0): lastEventID = String(decoding: value, as: UTF8.self)
        case "retry" where !value.isEmpty && value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }):
            // More than nine digits (over a week) is no reconnection time: ignored.
            if value.count <= 9 { retryMilliseconds = Int(String(decoding: value, as: UTF8.self)) }
        default: break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data = ""
            hasData = false
            type = ""
        }
        guard hasData else { return nil }
        return ServerSentEvent(id: lastEventID, type: type.isEmpty ? "message" : type, data: data)
    }
}
