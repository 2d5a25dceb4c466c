import ZKPinMath

extension MPin {
    /// One login's verification equation, its points decoded and fully validated (in G1), so
    /// that it may enter a batch: e(V, Q)·e(y·(HTID or HID) + (UT or U), SS) == 1.
    public struct LoginCheck: Sendable {
        public var hid: G1
        public var htid: G1?
        public var u: G1
        public var ut: G1?
        public var v: G1
        public var y: BigInt
        /// The odd multiples of HTID (with a time permit) or HID, when the caller keeps them.
        public var baseMultiples: G1OddMultiples<C>?

        public init(hid: G1, htid: G1? = nil, u: G1, ut: G1? = nil, v: G1, y: BigInt, baseMultiples: G1OddMultiples<C>? = nil) {
            self.hid = hid; self.htid = htid; self.u = u; self.ut = ut; self.v = v; self.y = y
            self.baseMultiples = baseMultiples
        }

        /// The verification of this check alone, with E for the PIN-error search.
        public func verify(serverSecret: G2Prepared<C>) -> Verification {
            if let baseMultiples {
                return MPin.verify(multiplesOf: baseMultiples, y: y, u: u, ut: ut, v: v, serverSecret: serverSecret)
            }
            return MPin.verify(hid: hid, htid: htid, y: y, u: u, ut: ut, v: v, serverSecret: serverSecret)
        }
    }

    /// Whether every check holds, tested together: with fresh random non-zero 64-bit r_i,
    /// e(Σ r_i·V_i, Q)·e(Σ r_i·P_i, SS) == 1 where P_i = y_i·(HTID or HID) + (UT or U). One
    /// product of two pairings for the whole batch and two multi-scalar multiplications.
    /// When every check holds so does this; when one does not, it holds for at most one
    /// choice of r_i in 2^64 (all points are in the prime-order group G1), so a batch that
    /// holds accepts exactly what single verification would, up to probability 2^-64.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func batchHolds(_ checks: ArraySlice<LoginCheck>, serverSecret: G2Prepared<C>) -> Bool {
        var generator = SystemRandomNumberGenerator()
        return batchHolds(checks, serverSecret: serverSecret, using: &generator)
    }

    /// The same with the coefficients from `generator` (tests pass a seeded one; a server
    /// must use a CSPRNG, as the overload above does).
    package static func batchHolds<R: RandomNumberGenerator>(
        _ checks: ArraySlice<LoginCheck>, serverSecret: G2Prepared<C>,
        using generator: inout R
    ) -> Bool {
        guard !checks.isEmpty else { return true }
        typealias Affine = (x: Fp<C.Field>, y: Fp<C.Field>)
        var vPoints: [Affine] = [], vScalars: [[UInt64]] = []
        var pPoints: [Affine] = [], pScalars: [[UInt64]] = []
        vPoints.reserveCapacity(checks.count); vScalars.reserveCapacity(checks.count)
        pPoints.reserveCapacity(3 * checks.count); pScalars.reserveCapacity(3 * checks.count)
        let endomorphism = C.g1Endomorphism
        let scalarLimbs = (C.order.bitWidth + 63) / 64
        for check in checks {
            let r = UInt64.random(in: 1...UInt64.max, using: &generator)
            // Validated points are never infinity; a hashed base is not either (to 2^-128).
            guard let v = check.v.affine, let u = (check.ut ?? check.u).affine,
                let base = (check.htid ?? check.hid).affine
            else { return false }
            vPoints.append(v); vScalars.append([r])
            pPoints.append(u); pScalars.append([r])
            // r·y·base as k1·base + k2·φ(base) with k1, k2 about √r (GLV): half the windows.
            // On fixed limbs (Babai rounding by precomputed constants): no BigInt division.
            let (k1, k1Negative, k2, k2Negative) = endomorphism.decompose(BigInt(r) * check.y, limbs: scalarLimbs)
            let phi = (endomorphism.beta * base.x, base.y)
            pPoints.append(k1Negative ? (base.x, -base.y) : base)
            pScalars.append(k1)
            pPoints.append(k2Negative ? (phi.0, -phi.1) : phi)
            pScalars.append(k2)
        }
        let sumV = MultiScalarMultiplication<ZKPinMath.G1<C>>.sum(points: vPoints, scalars: vScalars).projective
        let sumP = MultiScalarMultiplication<ZKPinMath.G1<C>>.sum(points: pPoints, scalars: pScalars).projective
        let f = MillerLoop<C>.evaluate(sumV, C.g2GeneratorPrepared, sumP, serverSecret)
        return Pairing<C>.finalExponentiationIsOne(f)
    }

    /// Which checks hold, with as few pairings as a batch allows: all of them at once (any
    /// batch of two or more: most batches hold, and a small one is where a server under
    /// moderate load spends its time); a batch that fails is split in halves and each half
    /// tested again, down to halves of fewer than `singleBelow` checks, which are verified one
    /// by one. `holds[i]` equals `checks[i].verify(...).accepted` (up to 2^-64 per batch test).
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func holdingChecks(_ checks: [LoginCheck], serverSecret: G2Prepared<C>, singleBelow: Int = 4) -> [Bool] {
        var holds = [Bool](repeating: false, count: checks.count)
        /// Settles `range`; true when all of it holds. `knownToFail`: its batch test would fail
        /// (its sibling held, their parent did not), so skip straight to the halves.
        @discardableResult
        func settle(_ range: Range<Int>, knownToFail: Bool) -> Bool {
            if range.count == 1 || (range.count < singleBelow && range.count < checks.count) {
                for index in range { holds[index] = checks[index].verify(serverSecret: serverSecret).accepted }
                return range.allSatisfy { holds[$0] }
            }
            if !knownToFail, batchHolds(checks[range], serverSecret: serverSecret) {
                for index in range { holds[index] = true }
                return true
            }
            let middle = range.lowerBound + range.count / 2
            let firstHeld = settle(range.lowerBound..<middle, knownToFail: false)
            settle(middle..<range.upperBound, knownToFail: firstHeld)
            return false
        }
        settle(0..<checks.count, knownToFail: false)
        return holds
    }

    /// The single verification's outcome for every check (E included for the rejected ones,
    /// for the PIN-error search), computed by `holdingChecks`.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func verifyBatch(_ checks: [LoginCheck], serverSecret: G2Prepared<C>) -> [Verification] {
        let holds = holdingChecks(checks, serverSecret: serverSecret)
        return checks.indices.map { index in
            holds[index] ? Verification(accepted: true, e: .one) : checks[index].verify(serverSecret: serverSecret)
        }
    }
}
