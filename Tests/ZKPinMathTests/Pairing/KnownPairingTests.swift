import Foundation
import Testing
import ZKPinMath

/// One fixed pairing value per curve, from outside this project: a regression in the loop, the
/// lines, the tower or the final exponentiation that kept bilinearity (another power of the
/// pairing, say) would still change these bytes.
struct KnownPairingTests {
    /// BN254CX: e(HID, Q) = PRECOMPUTE_G2 of the cross-check file, computed by the Milagro C
    /// library (spec section 1: this pairing reproduces Milagro's bytes on BN254CX).
    @Test func bn254cxMatchesMilagro() throws {
        // Tests/ZKPinMathTests/Pairing/ -> the repository's folder -> ../shared/vectors.
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = repository.deletingLastPathComponent()
            .appendingPathComponent("shared/vectors/BN254CX_full_and_pinerror_crosscheck.txt").standardized.path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            print("NOTE: \(path) is not there: Milagro's pairing bytes were NOT checked")
            return
        }
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, fields[parts[0]] == nil { fields[parts[0]] = parts[1] }
        }
        let hid = try PointEncoding<BN254CX>.decodeG1(try #require(fields["HID"].flatMap(hexBytes)))
        let expected = try #require(fields["PRECOMPUTE_G2"])
        #expect(Pairing<BN254CX>.pairing(hid, BN254CX.g2Generator).bytes.hexString == expected)
    }

    /// e(G1 generator, G2 generator) on BLS12-381. Cross-checked by tools/cross-check-pairing
    /// against py_ecc (a second implementation, on PyPI), whose value maps onto this tower with
    /// its w as k (both w^6 = k^6 = 1 + i) and is the inverse of this one: py_ecc's Miller loop
    /// runs over |u| without the conjugation that u < 0 calls for.
    static let bls12_381Generators =
        "11619b45f61edfe3b47a15fac19442526ff489dcda25e59121d9931438907dfd448299a87dde3a649bdba96e84d54558153ce14a76a53e205ba8f275ef1137c56a566f638b52d34ba3bf3bf22f277d70f76316218c0dfd583a394b8448d2be7f0e61c752414ca5dfd258e9606bac08daec29b3e2c57062669556954fb227d3f1260eedf25446a086b0844bcd43646c100fe63f185f56dd29150fc498bbeea78969e7e783043620db33f75a05a0a2ce5c442beaff9da195ff15164c00ab66bdde01ecfcf31c86257ab00b4709c33f1c9c4e007659dd5ffc4a735192167ce197058cfb4c94225e7f1b6c26ad9ba68f63bc08890726743a1f94a8193a166800b7787744a8ad8e2f9365db76863e894b7a11d83f90d873567e9d645ccf725b32d26f09c92cf02f3cd3d2f9d34bc44eee0dd50314ed44ca5d30ce6a9ec0539be7a86b121edc61839ccc908c4bdde256cd6048111061f398efc2a97ff825b04d21089e24fd8b93a47e41e60eae7e9b2a38d54fa4dedced0811c34ce528781ab9e929c7095668fb4a02fe930ed44767834c915b283b1c6ca98c047bd4c272e9ac3f3ba6ff0b05a93e59c71fba77bce995f0469216deedaa683124fe7260085184d88f7d036b86f53bb5b7f1fc5e248814782065413e7d958d17960109ea006b2afdeb5f10900338a92ed0b47af211636f7cfdec717b7ee43900eee9b5fc24f0000c5874d4801372db478987691c566a8c4749781454814f3085f0e6602247671bc408bbce2007201536818c901dbd4d2095dd86c1ec8b888e59611f60a301af7776be3d"

    @Test func bls12_381Generators() {
        #expect(
            Pairing<BLS12_381>.pairing(BLS12_381.g1Generator, BLS12_381.g2Generator).bytes.hexString
                == Self.bls12_381Generators)
    }

    func hexBytes(_ text: String) -> [UInt8]? {
        guard text.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
