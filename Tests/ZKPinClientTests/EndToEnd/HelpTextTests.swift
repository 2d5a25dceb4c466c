import Testing

/// What `zkpin` says about itself and about the payload: the overview fits 80 columns and
/// names every command a person uses, and the payload is where the sign-in page shows it (in
/// its command, above the QR code), not "under the QR code".
@Suite struct HelpTextTests {
    @Test func theOverviewFits80ColumnsAndNamesEveryCommand() async throws {
        let help = try await runClient(["--help"], environment: ["COLUMNS": "80"])
        #expect(help.status == 0)
        let long = help.out.split(separator: "\n").filter { $0.count > 80 }
        #expect(long.isEmpty, "lines over 80 columns: \(long)")
        for command in ["register", "confirm", "scan", "login", "approve", "otp", "change-pin", "users", "delete"] {
            #expect(help.out.contains("zkpin \(command)"), "the overview leaves out \(command)")
        }
        // Whole lines, not wrapped mid-line by the help printer.
        #expect(help.out.contains("  zkpin load --server URL ...        load-test a server\n"), "\(help.out)")
    }

    @Test func thePayloadIsWhereThePageShowsIt() async throws {
        for command in ["login", "scan"] {
            let help = try await runClient([command, "--help"])
            #expect(!help.out.contains("under the QR code") && help.out.contains("above its QR code"), "\(command): \(help.out)")
        }
        let noCode = try await runClient(["scan", "http://127.0.0.1:9/login"])
        #expect(noCode.status == 2)
        #expect(noCode.err.contains("above the QR code") && !noCode.err.contains("under the QR code"), "\(noCode.err)")
    }
}
