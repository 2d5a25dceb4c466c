import CZBar

/// Reads the text of a QR code from a PNG file: libpng's simplified API turns any PNG (gray,
/// palette, RGB, with alpha) into 8-bit gray on a white background, and libzbar finds and
/// decodes the code.
public enum QRImageDecoder {
    /// The texts of all QR codes found in the PNG file at `path`, in zbar's order.
    public static func decode(path: String) throws(ClientError) -> [String] {
        let (pixels, width, height) = try readGray(path: path)
        return try scan(pixels: pixels, width: width, height: height, path: path)
    }

    /// The text of the one QR code in the image; an error when there is none.
    public static func decodeSingle(path: String) throws(ClientError) -> String {
        let texts = try decode(path: path)
        guard let first = texts.first else {
            throw .unreadableImage(path: path, reason: "no QR code was found in the picture")
        }
        return first
    }

    static func readGray(path: String) throws(ClientError) -> ([UInt8], Int, Int) {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&image, path) != 0 else {
            throw .unreadableImage(path: path, reason: message(of: &image, fallback: "not a readable PNG file"))
        }
        defer { png_image_free(&image) }
        let width = Int(image.width), height = Int(image.height)
        // A guard against absurd sizes in a hostile file (the QR of a payload is small).
        guard width > 0, height > 0, width <= 16_384, height <= 16_384 else {
            throw .unreadableImage(path: path, reason: "the picture is \(width)x\(height) pixels, too large or empty")
        }
        image.format = png_uint_32(PNG_FORMAT_GRAY)
        var pixels = [UInt8](repeating: 255, count: width * height)
        var white = png_color(red: 255, green: 255, blue: 255)
        let status = pixels.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&image, &white, buffer.baseAddress, png_int_32(width), nil)
        }
        guard status != 0 else {
            throw .unreadableImage(path: path, reason: message(of: &image, fallback: "the PNG data is damaged"))
        }
        return (pixels, width, height)
    }

    static func scan(pixels: [UInt8], width: Int, height: Int, path: String) throws(ClientError) -> [String] {
        guard let scanner = zbar_image_scanner_create() else {
            throw .unreadableImage(path: path, reason: "the QR decoder could not start")
        }
        defer { zbar_image_scanner_destroy(scanner) }
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1)

        guard let image = zbar_image_create() else {
            throw .unreadableImage(path: path, reason: "the QR decoder could not start")
        }
        defer { zbar_image_destroy(image) }
        // "Y800": 8-bit gray, one byte per pixel.
        let y800 =
            UInt(UInt8(ascii: "Y")) | UInt(UInt8(ascii: "8")) << 8
            | UInt(UInt8(ascii: "0")) << 16 | UInt(UInt8(ascii: "0")) << 24
        zbar_image_set_format(image, y800)
        zbar_image_set_size(image, UInt32(width), UInt32(height))

        return pixels.withUnsafeBytes { buffer -> [String] in
            // zbar only reads the buffer during zbar_scan_image; no cleanup handler.
            zbar_image_set_data(image, buffer.baseAddress, UInt(buffer.count), nil)
            defer { zbar_image_set_data(image, nil, 0, nil) }
            guard zbar_scan_image(scanner, image) > 0 else { return [] }
            var texts: [String] = []
            var symbol = zbar_image_first_symbol(image)
            while let current = symbol {
                if zbar_symbol_get_type(current) == ZBAR_QRCODE, let data = zbar_symbol_get_data(current) {
                    let length = Int(zbar_symbol_get_data_length(current))
                    let bytes = UnsafeRawBufferPointer(start: data, count: length)
                    texts.append(String(decoding: bytes, as: UTF8.self))
                }
                symbol = zbar_symbol_next(current)
            }
            return texts
        }
    }

    private static func message(of image: inout png_image, fallback: String) -> String {
        let text = withUnsafeBytes(of: &image.message) { raw -> String in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
        return text.isEmpty ? fallback : text
    }
}
