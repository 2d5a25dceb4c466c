import CQREncode
import CZBar

/// Writes the QR code of a text as a PNG, with libqrencode and libpng, the way a login page's
/// picture would be saved: black modules on white, a quiet zone of 4 modules.
enum QRCodePNG {
    enum Failure: Error {
        case encode
        case write(String)
    }

    static func write(_ text: String, to path: String, scale: Int = 4, rgba: Bool = false) throws {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { throw Failure.encode }
        defer { QRcode_free(code) }
        let modules = Int(code.pointee.width)
        let side = (modules + 8) * scale
        let channels = rgba ? 4 : 1
        var pixels = [UInt8](repeating: 255, count: side * side * channels)
        for y in 0..<modules {
            for x in 0..<modules where code.pointee.data[y * modules + x] & 1 == 1 {
                for dy in 0..<scale {
                    for dx in 0..<scale {
                        let pixel = ((y + 4) * scale + dy) * side + (x + 4) * scale + dx
                        for c in 0..<min(channels, 3) { pixels[pixel * channels + c] = 0 }
                    }
                }
            }
        }
        try writePNG(pixels: pixels, width: side, height: side, rgba: rgba, to: path)
    }

    static func writePNG(pixels: [UInt8], width: Int, height: Int, rgba: Bool = false, to path: String) throws {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = rgba ? png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA) : png_uint_32(PNG_FORMAT_GRAY)
        let ok = pixels.withUnsafeBytes { buffer in
            png_image_write_to_file(&image, path, 0, buffer.baseAddress, 0, nil)
        }
        guard ok != 0 else { throw Failure.write(path) }
    }
}
