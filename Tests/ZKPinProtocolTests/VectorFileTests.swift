import Foundation
import Testing
import ZKPinProtocol
import ZKPinVectors

/// Upstream vectors from ../shared/vectors (never copied into the repository) and the
/// project's own Vectors/. A debug run checks a sample of each upstream file (pairings are slow
/// without optimisation); `ZKPIN_ALL_VECTORS=1` or the release `zkpin vectors check` in
/// tools/test checks every vector.
struct VectorFileTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let shared = repository.deletingLastPathComponent().appendingPathComponent("shared/vectors")
    static let checkAll = ProcessInfo.processInfo.environment["ZKPIN_ALL_VECTORS"] == "1"

    static func upstreamFiles() -> [String] {
        guard let files = FileManager.default.enumerator(atPath: shared.path) else { return [] }
        return files.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".txt") || $0.hasSuffix(".json") }
            .map { shared.appendingPathComponent($0).path }
            .sorted()
    }

    static func projectFiles() -> [String] {
        let folder = repository.appendingPathComponent("Vectors")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".txt") }.sorted().map { folder.appendingPathComponent($0).path }
    }

    @Test func upstreamFolderIsThere() {
        if Self.upstreamFiles().isEmpty {
            print("NOTE: \(Self.shared.path) has no vector files; upstream vectors were not checked")
        }
        #expect(Bool(true))
    }

    @Test(arguments: upstreamFiles())
    func upstreamSample(path: String) throws {
        let vectors = try VectorFile.load(path: path)
        #expect(!vectors.isEmpty)
        if path.hasSuffix("crosscheck.txt") || Self.checkAll {
            let report = try VectorSuiteRun.check(path: path)
            for (name, outcome) in report.results { #expect(outcome == .passed, "\(name)") }
            return
        }
        // One vector from each group of the file (the files are built in groups of 50 or 100).
        for index in stride(from: 0, to: vectors.count, by: 50).prefix(6) {
            let outcome = VectorChecker.check(vectors[index])
            #expect(outcome == .passed, "\(path) \(vectors[index].name): \(outcome)")
        }
    }

    /// Milagro's DVS vectors (spec section 4.1), kept apart from ../shared/vectors.
    static let dvsShared = repository.deletingLastPathComponent().appendingPathComponent("shared/dvs-vectors")

    static func dvsFiles() -> [String] {
        guard FileManager.default.fileExists(atPath: dvsShared.path) else { return [] }
        return VectorSuiteRun.files(for: [dvsShared.path])
    }

    @Test func dvsFolderIsThere() {
        if Self.dvsFiles().isEmpty {
            print("NOTE: \(Self.dvsShared.path) has no vector files; the DVS vectors were not checked")
        }
        #expect(Bool(true))
    }

    /// In a debug run the first vector of each KIND (good, wrong_pin, wrong_message, wrong_pa):
    /// each is a signature, a pairing product and, on failure, a PIN-error search.
    @Test(arguments: dvsFiles())
    func dvsSample(path: String) throws {
        let vectors = try VectorFile.load(path: path)
        #expect(vectors.allSatisfy(VectorChecker.isDVS), "\(path) is read as DVS vectors")
        var kinds = Set<String>()
        for vector in vectors where Self.checkAll || kinds.insert(vector["KIND"] ?? "").inserted {
            let outcome = VectorChecker.check(vector)
            #expect(outcome == .passed, "\(path) \(vector.name) (\(vector["KIND"] ?? "?")): \(outcome)")
        }
        #expect(kinds.isSuperset(of: ["good", "wrong_pin", "wrong_message", "wrong_pa"]) || Self.checkAll)
    }

    /// A DVS vector whose expected verdict or PIN error is changed fails on that field.
    @Test func aChangedDVSVerdictIsAFailure() throws {
        guard let path = Self.projectFiles().first(where: { $0.contains("dvs_bn254cx") }) else {
            Issue.record("no project DVS vector file")
            return
        }
        let vectors = try VectorFile.load(path: path)
        let wrongPIN = try #require(vectors.first { $0["KIND"] == "wrong_pin" })
        #expect(VectorChecker.check(wrongPIN) == .passed)
        for (key, value) in [("PIN_ERROR", "null"), ("SERVER_RESULT", "0")] {
            var changed = wrongPIN
            changed.fields[changed.fields.firstIndex { $0.key == key }!].value = value
            guard case let .mismatch(field, _, _) = VectorChecker.check(changed) else {
                Issue.record("a changed \(key) must be reported")
                continue
            }
            #expect(field == key)
        }
    }

    @Test func aFolderStandsForItsVectorFiles() throws {
        let folder = Self.repository.appendingPathComponent("Vectors").path
        let files = VectorSuiteRun.files(for: [folder, "/nonexistent/file.txt"])
        #expect(files.dropLast() == Self.projectFiles()[...])
        #expect(files.last == "/nonexistent/file.txt")
    }

    @Test func projectVectorsExist() {
        #expect(Self.projectFiles().count >= 4, "Vectors/ holds the project's own vector files")
    }

    /// The first three vectors of each file and every decoding case (EXPECT = -14); tools/test
    /// checks every vector with the release build.
    @Test(arguments: projectFiles())
    func projectVectors(path: String) throws {
        let vectors = try VectorFile.load(path: path)
        #expect(vectors.count > 0)
        for (index, vector) in vectors.enumerated() where Self.checkAll || index < 3 || vector["EXPECT"] == "-14" {
            let outcome = VectorChecker.check(vector)
            #expect(outcome == .passed, "\(vector.name): \(outcome)")
        }
    }

    @Test func aWrongExpectationIsAFailure() throws {
        guard let path = Self.projectFiles().first(where: { $0.hasSuffix("negative.txt") }) else {
            Issue.record("no negative vector file")
            return
        }
        var vector = try VectorFile.load(path: path).first { $0["EXPECT"] == "-14" }!
        let index = vector.fields.firstIndex { $0.key == "EXPECT" }!
        vector.fields[index].value = "0"
        #expect(VectorChecker.check(vector) == .mismatch(field: "EXPECT", expected: "0", computed: "-14"))
    }

    @Test func aChangedByteIsReportedAsThatFieldOfThatVector() throws {
        let path = Self.shared.appendingPathComponent("milagro/BN254_CX.txt").path
        guard FileManager.default.fileExists(atPath: path) else { return }
        var vectors = try VectorFile.load(path: path)
        let index = vectors.firstIndex { $0["V"] != nil }!
        let fieldIndex = vectors[index].fields.firstIndex { $0.key == "V" }!
        var v = Array(vectors[index].fields[fieldIndex].value)
        v[40] = v[40] == "0" ? "1" : "0"
        vectors[index].fields[fieldIndex].value = String(v)
        guard case let .mismatch(field, _, _) = VectorChecker.check(vectors[index]) else {
            Issue.record("a changed V must be reported")
            return
        }
        #expect(field == "V")
    }

    @Test func unreadableAndUnrecognisedFilesAreErrors() throws {
        #expect(throws: VectorFileError.self) { try VectorFile.load(path: "/nonexistent/file.txt") }
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("zkpin-not-vectors-\(getpid()).txt")
        try Data("this is not a vector file\n".utf8).write(to: temporary)
        defer { try? FileManager.default.removeItem(at: temporary) }
        #expect(throws: VectorFileError.self) { try VectorFile.load(path: temporary.path) }
        try Data("[1, 2, 3]".utf8).write(to: temporary)
        #expect(throws: VectorFileError.self) { try VectorFile.load(path: temporary.path) }
    }

    @Test func textAndJSONFormsParseAlike() throws {
        let text = "MS1 = 0a,\nPIN1 = 12,\n\nMS1 = 0b,\nPIN1 = -3,\n"
        let parsed = try VectorFile.parseText(text, path: "inline")
        #expect(parsed.count == 2)
        #expect(parsed[1]["PIN1"] == "-3")
        let json = try VectorFile.parseJSON(Data(#"[{"PIN1": 12, "MS1": "0a", "test_no": 1}]"#.utf8), path: "inline")
        #expect(json[0].fields.map(\.key) == ["MS1", "PIN1", "test_no"])
        #expect(json[0]["PIN1"] == "12")
    }
}
