import ZKPinClient

/// Where `login` and `scan` get the payload: the argument, `-` for one line of standard input,
/// or `--image FILE` for a PNG of the QR code.
enum PayloadSource {
    static func read(argument: String?, image: String?) throws(ClientError) -> Payload {
        switch (argument, image) {
        case (nil, nil):
            throw .badInput(
                "No payload was given. Pass the 'URL#CODE' of the command the sign-in page shows, - to read it from standard input, or --image FILE for a picture of the QR code."
            )
        case (.some, .some):
            throw .badInput("Give the payload either as text or with --image, not both.")
        case let (nil, path?):
            return try Payload(parsing: try QRImageDecoder.decodeSingle(path: path))
        case ("-"?, nil):
            guard let line = Terminal.readStandardInputLine() else {
                throw .badInput(
                    "Standard input ended before a payload line. Pipe the 'URL#CODE' of the command the sign-in page shows into the command.")
            }
            return try Payload(parsing: line)
        case let (text?, nil):
            return try Payload(parsing: text)
        }
    }
}
