import Testing
import ZKPinClient
import ZKPinTestSupport

/// The event-stream reader against the WHATWG rules, and against every way a stream can be
/// cut into chunks on the way.
@Suite struct ServerSentEventsTests {
    static func parse(_ chunks: [String]) throws -> (events: [ServerSentEvent], parser: ServerSentEventParser) {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        for chunk in chunks { events += try parser.feed(Array(chunk.utf8)) }
        return (events, parser)
    }

    /// What the server writes (PushLiveStream): retry, a keep-alive comment, ids and kinds.
    static let stream =
        "retry: 2000\n\n: alive\n\nid: 7\nevent: approval\ndata: {\"kind\":\"approval\",\"id\":\"a\"}\n\n"
        + "id: 9\nevent: identity\ndata: {\"kind\":\"identity\",\"device\":\"phone\"}\n\n"

    @Test func readsTheServersStream() throws {
        let (events, parser) = try Self.parse([Self.stream])
        #expect(
            events == [
                ServerSentEvent(id: "7", type: "approval", data: #"{"kind":"approval","id":"a"}"#),
                ServerSentEvent(id: "9", type: "identity", data: #"{"kind":"identity","device":"phone"}"#)
            ])
        #expect(parser.retryMilliseconds == 2000 && parser.lastEventID == "9")
    }

    @Test func followsTheStandardsParsingRules() throws {
        let text =
            "\u{FEFF}data: first\r\n\r\n"  // a leading BOM is dropped; CRLF ends lines
            + "data:no space\rdata:  two spaces\r\r"  // CR alone ends lines; only one space is dropped
            + "event: custom\ndata\n\n"  // a field without a colon has an empty value
            + "id: 5\n: a comment\ndata: a\ndata: b\n\n"  // data lines join with LF
            + "data: keeps the id\n\n"  // the last event ID persists
            + "id: bad\u{0}id\nretry: 12x\nretry: 1234567890\nunknown: x\ndata: c\n\n"  // ignored fields
            + "id\nevent: ignored\n\n"  // an empty id resets; no data, no event
            + "data: not dispatched"  // unfinished at the end
        let (events, parser) = try Self.parse([text])
        #expect(
            events == [
                ServerSentEvent(id: "", type: "message", data: "first"),
                ServerSentEvent(id: "", type: "message", data: "no space\n two spaces"),
                ServerSentEvent(id: "", type: "custom", data: ""),
                ServerSentEvent(id: "5", type: "message", data: "a\nb"),
                ServerSentEvent(id: "5", type: "message", data: "keeps the id"),
                ServerSentEvent(id: "5", type: "message", data: "c")
            ])
        #expect(parser.lastEventID == "" && parser.retryMilliseconds == nil)
    }

    /// Cut anywhere (a CR and its LF in different chunks too), the stream reads the same.
    @Test func chunkBoundariesChangeNothing() throws {
        var random = SeededRandom()
        let text = Self.stream.replacingOccurrences(of: "\n", with: "\r\n") + "data: é and ✓\r\n\r\n"
        let bytes = Array(text.utf8)
        var whole = ServerSentEventParser()
        let expected = try whole.feed(bytes)
        #expect(expected.count == 3)
        for _ in 0..<200 {
            var parser = ServerSentEventParser()
            var events: [ServerSentEvent] = []
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + Int.random(in: 1...8, using: &random))
                events += try parser.feed(bytes[start..<end])
                start = end
            }
            #expect(events == expected, "\(random.replay)")
        }
    }

    @Test func aLineOverTheBoundIsRefused() throws {
        var parser = ServerSentEventParser(maxLineBytes: 16)
        #expect(try parser.feed(Array("data: short\n\n".utf8)).count == 1)
        #expect(throws: ServerSentEventParser.Failure.lineTooLong(16)) { try parser.feed(Array(("data: " + String(repeating: "x", count: 20)).utf8)) }
    }
}
