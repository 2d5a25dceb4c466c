import Testing
import ZKPinMath

/// Every rejection of spec section 6, on both curves.
struct PointDecodingTests {
    func checkRejections<C: PairingCurve>(_: C.Type) {
        typealias E = PointEncoding<C>
        let size = C.Field.byteCount
        let point = C.g1Generator.multiplied(byPublic: BigInt(12345))
        let good = E.encode(point)
        #expect((try? E.decodeG1(good)) == point)

        #expect(throws: PointDecodingError.wrongLength(expected: good.count, got: good.count - 1)) { try E.decodeG1(good.dropLast()) }
        var prefixed = good
        prefixed[0] = 0x02
        #expect(throws: PointDecodingError.wrongPrefix(0x02)) { try E.decodeG1(prefixed) }
        let xPlusP = (BigInt(bytes: good[1...size]) + C.Field.modulusBig).bytes(count: size)
        #expect(throws: PointDecodingError.coordinateOutOfRange) { try E.decodeG1([0x04] + xPlusP + good[(1 + size)...]) }
        var offCurve = good
        offCurve[offCurve.count - 1] ^= 1
        #expect(throws: PointDecodingError.notOnCurve) { try E.decodeG1(offCurve) }
        #expect(throws: PointDecodingError.infinity) { try E.decodeG1([0x04] + [UInt8](repeating: 0, count: 2 * size)) }

        let q = C.g2Generator.multiplied(byPublic: BigInt(777))
        let goodQ = E.encode(q)
        #expect((try? E.decodeG2(goodQ)) == q)
        #expect(throws: PointDecodingError.wrongLength(expected: goodQ.count, got: goodQ.count + 1)) { try E.decodeG2(goodQ + [0]) }
        #expect(throws: PointDecodingError.infinity) { try E.decodeG2([UInt8](repeating: 0, count: 4 * size)) }
        var offTwist = goodQ
        offTwist[offTwist.count - 1] ^= 1
        #expect(throws: PointDecodingError.notOnCurve) { try E.decodeG2(offTwist) }
        let qxPlusP = (BigInt(bytes: goodQ[0..<size]) + C.Field.modulusBig).bytes(count: size)
        #expect(throws: PointDecodingError.coordinateOutOfRange) { try E.decodeG2(qxPlusP + goodQ[size...]) }

        // A twist point outside G2 (the twist's cofactor is not 1 on either curve).
        var k = 1
        while true {
            let x = Fp2<C.Field>(Fp(k), Fp(1))
            if let y = (x.squared * x + C.g2B).squareRoot {
                let outside = G2Point<C>(x: x, y: y)
                if !outside.isInSubgroup {
                    #expect(throws: PointDecodingError.notInSubgroup) { try E.decodeG2(E.encode(outside)) }
                    break
                }
            }
            k += 1
        }
    }

    @Test func bn254cx() { checkRejections(BN254CX.self) }
    @Test func bls12381() { checkRejections(BLS12_381.self) }

    @Test func bls12381G1PointOutsideTheSubgroupIsRejected() {
        // y^2 = x^3 + 4 has points outside G1 (cofactor > 1): find one by increment.
        var x = Fp<BLS12_381Field>(5)
        while true {
            if let y = (x.squared * x + BLS12_381.g1B).squareRoot {
                let point = G1Point<BLS12_381>(x: x, y: y)
                #expect(!point.isInSubgroup)
                #expect(throws: PointDecodingError.notInSubgroup) { try PointEncoding<BLS12_381>.decodeG1(PointEncoding<BLS12_381>.encode(point)) }
                return
            }
            x = x + .one
        }
    }
}
