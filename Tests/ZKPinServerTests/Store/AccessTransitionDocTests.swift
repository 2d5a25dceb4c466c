import Foundation
import Testing

@testable import ZKPinServer

/// docs/login-states.md and the state machine the store performs say the same thing.
@Suite struct AccessTransitionDocTests {
    static let doc: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/login-states.md"), encoding: .utf8)) ?? ""
    }()

    @Test func theDocsTransitionTableIsTheData() {
        #expect(!Self.doc.isEmpty, "docs/login-states.md not found")
        #expect(Self.doc.contains(AccessTransition.markdownTable), "docs/login-states.md lacks this table:\n\(AccessTransition.markdownTable)")
    }

    @Test func everyStatusIsInTheDocsAndReachable() {
        for status in AccessSession.Status.allCases {
            #expect(Self.doc.contains("| `\(status.rawValue)` |") || status == .used, "\(status.rawValue) has no row in the doc's states table")
            if status != .new { #expect(AccessTransition.all.contains { $0.to == status }, "no move enters \(status.rawValue)") }
        }
    }

    @Test func finalStatesHaveNoWayOut() {
        for final in [AccessSession.Status.used, .blocked, .refused] {
            #expect(!AccessTransition.all.contains { $0.from.contains(final) }, "\(final.rawValue) should be final")
        }
    }
}
