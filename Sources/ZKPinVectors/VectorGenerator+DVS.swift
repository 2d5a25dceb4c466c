import ZKPinMath
import ZKPinProtocol

/// The project's DVS vectors: Milagro's DVS keys (`../shared/dvs-vectors`) in the `KEY = value`
/// format, plus time permits (with `--dates`), a changed verification time and undecodable Pa.
extension CurveVectorGenerator {
    static var dvsKinds: [String] { ["good", "wrong_pin", "wrong_message", "wrong_pa", "wrong_time"] }

    /// The inputs of one signature vector; the kind cycles with the index.
    func dvsInputs(index: Int, random: inout SeededGenerator) -> [(key: String, value: String)] {
        let kind = Self.dvsKinds[index % Self.dvsKinds.count]
        let salt = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }.hexString
        let identity = #"{"issued": "2026-11-25T12:00:00Z", "userID": "signer\#(index)@example.com", "mobile": 0, "salt": "\#(salt)"}"#
        let pin = Int(random.next() % 10000)
        let signPIN = kind == "wrong_pin" ? (pin + 1 + Int(random.next() % 9999)) % 10000 : pin
        let time = 1_795_000_000 + index * 3_607
        let document = "Approve payment \(index) of \(random.next() % 100_000).00 EUR to account \(random.next() % 1_000_000)"
        var inputs: [(key: String, value: String)] = [
            ("CURVE", C.name), ("KIND", kind), ("HASH_BYTES", "32"), ("MASTER_SECRET", scalar(&random)),
            ("MPIN_ID_HEX", Array(identity.utf8).hexString), ("Z", scalar(&random))
        ]
        if options.dates { inputs.append(("DATE", String(20_000 + index % 400))) }
        inputs += [
            ("PIN", String(pin)), ("SIGN_PIN", String(signPIN)), ("TIME", String(time)), ("DOCUMENT", document),
            ("X", scalar(&random))
        ]
        switch kind {
        case "wrong_message":
            var message = Digest.sha256(Array(document.utf8))
            message[Int(random.next() % 32)] ^= 1 << UInt8(random.next() % 8)
            inputs.append(("VERIFY_MESSAGE_HEX", message.hexString))
        case "wrong_pa":
            let other = MPin<C>.dvsPublicKey(z: SecretScalar(public: BigInt(bytes: [UInt8](hex: scalar(&random))!)))!
            inputs.append(("VERIFY_PA", Encoding.encode(other).hexString))
        case "wrong_time":
            inputs.append(("VERIFY_TIME", String(time + 1)))
        default: break
        }
        return inputs
    }

    func dvsVector(index: Int, random: inout SeededGenerator) -> String {
        let inputs = dvsInputs(index: index, random: &random)
        return renderDVS(title: "vector \(index): \(inputs[1].value)", inputs: inputs)
    }

    /// A good signature verified against a Pa that does not decode: -14, one case per reason.
    func dvsDecodingCases() -> [String] {
        var random = SeededGenerator(label: "zkpin-vectors|\(C.name)|\(options.seed)|dvs-decoding")
        var inputs = dvsInputs(index: 0, random: &random)
        guard let z = inputs.first(where: { $0.key == "Z" }).flatMap({ [UInt8](hex: $0.value) }),
            let pa = MPin<C>.dvsPublicKey(z: SecretScalar(public: BigInt(bytes: z)))
        else { preconditionFailure("generated Z must be valid") }
        var offCurve = Encoding.encode(pa)
        offCurve[offCurve.count - 1] ^= 1
        let cases: [(String, [UInt8])] = [
            ("Pa not on the twist", offCurve),
            ("Pa on the twist but outside G2", Encoding.encode(twistPointOutsideG2(1))),
            ("Pa one byte short", Array(Encoding.encode(pa).dropLast()))
        ]
        inputs[1].value = "bad_pa"
        return cases.map { title, bytes in
            renderDVS(title: "decoding: \(title)", inputs: inputs + [("VERIFY_PA", bytes.hexString)])
        }
    }

    /// Runs the checker's DVS computation on the inputs and writes inputs and results in the
    /// DVS order, with EXPECT set to the verification result.
    func renderDVS(title: String, inputs: [(key: String, value: String)]) -> String {
        var check = CurveVectorCheck<C>(vector: TestVector(name: title, fields: inputs))
        do { try check.computeDVS() } catch { preconditionFailure("generated DVS inputs must be valid: \(error)") }
        var values = check.computed
        for (key, value) in inputs { values[key] = value }
        if let result = values["SERVER_RESULT"] { values["EXPECT"] = result }
        var lines = ["# \(title)"]
        for key in VectorChecker.dvsOrder {
            if let value = values[key] { lines.append("\(key) = \(value)") }
        }
        return lines.joined(separator: "\n")
    }
}
