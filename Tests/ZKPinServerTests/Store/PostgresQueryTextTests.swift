import PostgresNIO
import Testing

@testable import ZKPinServer

/// The statement text PostgreSQL receives (no server needed): each `?` numbered in order, every
/// other byte (multi-byte characters included) as written, one bind per value.
@Suite struct PostgresQueryTextTests {
    @Test func placeholdersAreNumberedAndTheRestKept() {
        let name = "Zoë ✓", id = 42
        let statement: SQLStatement = "UPDATE t SET name = \(name), note = 'é' WHERE id = \(id) AND k IN (\(true), \(nil as String?))"
        let query = PostgresDriver.query(statement)
        #expect(query.sql == "UPDATE t SET name = $1, note = 'é' WHERE id = $2 AND k IN ($3, $4)")
        #expect(query.binds.count == 4)
        // Ten and more placeholders take two digits.
        let many = SQLStatement(text: (0..<12).map { _ in "?" }.joined(separator: ","), values: Array(repeating: .int(1), count: 12))
        #expect(PostgresDriver.query(many).sql == (1...12).map { "$\($0)" }.joined(separator: ","))
    }
}
