import Foundation
import Testing
import ZKPinClient

@Suite struct QRImageDecoderTests {
    @Test func readsThePayloadOfAGrayQRCode() throws {
        let folder = TemporaryFolder(); defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let path = folder.file("code.png")
        try QRCodePNG.write("http://127.0.0.1:8080#1234560", to: path)
        #expect(try QRImageDecoder.decodeSingle(path: path) == "http://127.0.0.1:8080#1234560")
        #expect(try Payload(parsing: QRImageDecoder.decodeSingle(path: path)).accessCode == "1234560")
    }

    @Test func readsAColourPictureWithAlpha() throws {
        let folder = TemporaryFolder(); defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let path = folder.file("code.png")
        try QRCodePNG.write("https://login.example.com#3141594", to: path, scale: 3, rgba: true)
        #expect(try QRImageDecoder.decode(path: path) == ["https://login.example.com#3141594"])
    }

    @Test func aPictureWithoutACodeIsUnreadable() throws {
        let folder = TemporaryFolder(); defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let path = folder.file("blank.png")
        try QRCodePNG.writePNG(pixels: [UInt8](repeating: 255, count: 64 * 64), width: 64, height: 64, to: path)
        expectUnreadable(path, containing: "no QR code")
    }

    @Test func aFileThatIsNotAPNGIsUnreadable() throws {
        let folder = TemporaryFolder(); defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let path = folder.file("text.png")
        FileManager.default.createFile(atPath: path, contents: Data("not a picture".utf8))
        expectUnreadable(path, containing: "")
        expectUnreadable(folder.file("missing.png"), containing: "")
    }

    private func expectUnreadable(_ path: String, containing text: String) {
        do {
            let texts = try QRImageDecoder.decodeSingle(path: path)
            Issue.record("\(path) gave \(texts)")
        } catch {
            guard case let .unreadableImage(errorPath, reason) = error else { Issue.record("\(error)"); return }
            #expect(errorPath == path)
            #expect(text.isEmpty || reason.contains(text), "\(reason)")
            #expect(error.exitCode == 2)
        }
    }
}
