import Foundation
import ZKPinProtocol

/// The result of checking one file.
public struct VectorFileReport: Sendable {
    public var path: String
    public var results: [(name: String, outcome: VectorOutcome)]
    public var passed: Int { results.filter { $0.outcome.passed }.count }
    public var failed: Int { results.count - passed }
}

/// Checks whole files, joining the cross-check file with the BN254_CX vectors it refers to.
public enum VectorSuiteRun {
    /// `# source vector index N of FILE (...), DATE used = D`
    static let crossCheckHeader = try! NSRegularExpression(
        pattern: #"source vector index (\d+) of (\S+?)[ ,(].*DATE used = (\d+)"#)

    /// The files to check for each argument: a file as it is; a folder's `.txt` and `.json`
    /// files, in its subfolders too, sorted (spec section 5: read only those). A missing path
    /// stays in the list, so that checking it reports it.
    public static func files(for paths: [String]) -> [String] {
        paths.flatMap { path -> [String] in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue,
                let names = FileManager.default.enumerator(atPath: path)
            else { return [path] }
            return names.compactMap { $0 as? String }
                .filter { $0.hasSuffix(".txt") || $0.hasSuffix(".json") }
                .sorted()
                .map { (path as NSString).appendingPathComponent($0) }
        }
    }

    public static func check(path: String) throws(VectorFileError) -> VectorFileReport {
        let vectors = try VectorFile.load(path: path)
        var sources: [String: [TestVector]] = [:]
        var results = [(name: String, outcome: VectorOutcome)]()
        for vector in vectors {
            guard let header = vector.header, let match = crossCheckReference(header) else {
                results.append((vector.name, VectorChecker.check(vector)))
                continue
            }
            if sources[match.file] == nil {
                sources[match.file] = try loadSource(named: match.file, besides: path)
            }
            guard let source = sources[match.file], match.index < source.count else {
                results.append((vector.name, .invalid("\(match.file) has no vector \(match.index)")))
                continue
            }
            results.append((vector.name, VectorChecker.check(joined(vector, with: source[match.index], date: match.date))))
        }
        return VectorFileReport(path: path, results: results)
    }

    static func crossCheckReference(_ header: String) -> (index: Int, file: String, date: Int)? {
        let range = NSRange(header.startIndex..., in: header)
        guard let match = crossCheckHeader.firstMatch(in: header, range: range),
            let index = Range(match.range(at: 1), in: header).flatMap({ Int(header[$0]) }),
            let file = Range(match.range(at: 2), in: header).map({ String(header[$0]) }),
            let date = Range(match.range(at: 3), in: header).flatMap({ Int(header[$0]) })
        else { return nil }
        return (index, file, date)
    }

    /// The source file next to the cross-check file, or in its `milagro/` folder.
    static func loadSource(named name: String, besides path: String) throws(VectorFileError) -> [TestVector] {
        let directory = (path as NSString).deletingLastPathComponent
        for candidate in [name, "milagro/" + name] {
            let full = (directory as NSString).appendingPathComponent(candidate)
            if FileManager.default.fileExists(atPath: full) { return try VectorFile.load(path: full) }
        }
        throw .unreadable(path: path, reason: "it refers to \(name), which is neither beside it nor in milagro/")
    }

    /// The cross-check block's fields, with the ID, secrets, PINs, X and Y of its source vector
    /// and the block's DATE (0 = no time permit).
    static func joined(_ block: TestVector, with source: TestVector, date: Int) -> TestVector {
        var fields = [(key: String, value: String)]()
        for key in ["MPIN_ID_HEX", "MS1", "MS2", "PIN1", "PIN2", "X", "Y"] {
            if let value = source[key] { fields.append((key, value)) }
        }
        fields.append(("DATE", String(date)))
        fields += block.fields
        return TestVector(name: block.name, fields: fields, header: block.header)
    }
}
