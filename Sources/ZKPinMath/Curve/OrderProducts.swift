/// r·y mod the group order for a public y and a public 64-bit r on fixed limbs: the batched
/// verification's random multiple of each login's challenge, by two Montgomery products mod
/// the order instead of a BigInt product and division (which cost more than the rest of the
/// step on the pure-Swift BigInt).
package struct OrderProducts<C: PairingCurve> {
    private let arithmetic: ScalarMontgomery

    package init() { arithmetic = orderArithmetic(C.self) }

    /// r·y mod the order in `SecretGLV.width` limbs, as `G1Endomorphism.decompose(reduced:limbs:)` takes it.
    package func product(_ y: BigInt, _ r: UInt64) -> [UInt64] {
        let n = C.orderLimbs.count
        guard !y.isNegative, y < C.order else {
            return (BigInt(r) * y).mod(C.order).limbs(count: SecretGLV<C>.width)
        }
        // y·R, then (y·R)·r·R^-1 = y·r; r < 2^64 is below the order of both curves.
        let yMontgomery = arithmetic.product(y.limbs(count: n), arithmetic.rSquared)
        var rLimbs = [UInt64](repeating: 0, count: n)
        rLimbs[0] = r
        return arithmetic.product(yMontgomery, rLimbs) + [UInt64](repeating: 0, count: SecretGLV<C>.width - n)
    }
}

/// One `ScalarMontgomery` per curve order (its R^2 takes 512 modular doublings to compute).
private let orderArithmetics = LockedValue<[String: ScalarMontgomery]>([:])

private func orderArithmetic<C: PairingCurve>(_: C.Type) -> ScalarMontgomery {
    orderArithmetics.withLock { known in
        if let arithmetic = known[C.name] { return arithmetic }
        let arithmetic = ScalarMontgomery(modulus: C.orderLimbs)
        known[C.name] = arithmetic
        return arithmetic
    }
}
