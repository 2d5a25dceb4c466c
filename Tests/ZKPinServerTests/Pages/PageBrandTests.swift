import Foundation
import Testing

@testable import ZKPinServer

/// The operator's branding: `--accent-color` becomes /pages/brand.css (linked by every page
/// after the shared stylesheet), `--logo-file` the logo at /pages/logo; a colour white text is
/// unreadable on, and a file that is not an SVG or PNG, are refused at start.
@Suite struct PageBrandTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 40)

    @Test func theAccentAndTheLogoAreServed() async throws {
        let logo = try TempDir.make() + "/logo.png"
        #expect(FileManager.default.createFile(atPath: logo, contents: Data(Self.png)))
        let h = try await Harness.make {
            $0.accentColor = "#0B6E4F"
            $0.logoFile = logo
        }
        try await h.run { t in
            let css = try await t.get("/pages/brand.css")
            #expect(css.status == 200 && css.text == ":root{--accent:#0b6e4f}\n" && css.header("Content-Type")?.hasPrefix("text/css") == true)
            let served = try await t.get("/pages/logo")
            #expect(served.status == 200 && served.header("Content-Type") == "image/png" && served.body == Self.png)
            let page = try await t.get("/", headers: [("Accept", "text/html")]).text
            let shared = try #require(page.range(of: "/pages/pages.css")), brand = try #require(page.range(of: "/pages/brand.css"))
            #expect(shared.lowerBound < brand.lowerBound, "the brand's colour overrides the shared default")
        }
        let plain = try await Harness.make()
        try await plain.run { t in
            let css = try await t.get("/pages/brand.css").text
            let type = try await t.get("/pages/logo").header("Content-Type")
            #expect(css == ":root{--accent:" + PageBrand.defaultAccent + "}\n" && type == "image/svg+xml")
        }
    }

    @Test func unreadableColoursAndOtherFilesAreRefused() throws {
        #expect(PageBrand.isUsableAccent("#1d4ed8") && PageBrand.isUsableAccent("#000000") && PageBrand.isUsableAccent("#B91C1C"))
        // Too light for white text, or not #RRGGBB.
        for bad in ["#ffffff", "#ffeb3b", "#87ceeb", "1d4ed8", "#1d4ed", "#1d4ed8ff", "#gggggg", "blue"] {
            #expect(!PageBrand.isUsableAccent(bad), "\(bad)")
        }
        let dir = try TempDir.make()
        FileManager.default.createFile(atPath: dir + "/logo.gif", contents: Data("GIF89a".utf8))
        FileManager.default.createFile(
            atPath: dir + "/big.svg", contents: Data(("<svg>" + String(repeating: " ", count: PageBrand.maxLogoBytes)).utf8))
        for file in [dir + "/logo.gif", dir + "/big.svg", dir + "/missing.svg"] {
            #expect(throws: SetupError.self) { try PageBrand(logoFile: file) }
        }
        #expect(throws: SetupError.self) { try PageBrand(accent: "#ffffff") }
        FileManager.default.createFile(
            atPath: dir + "/ok.svg", contents: Data(#"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>"#.utf8))
        #expect(try PageBrand(logoFile: dir + "/ok.svg").logo.contentType == "image/svg+xml")
    }
}
