/// GLV scalar multiplication on G1 (Gallant–Lambert–Vanstone 2001). Both curves have j = 0, so
/// φ(x, y) = (β·x, y) with β a cube root of unity is an endomorphism acting on G1 as
/// multiplication by λ, a root of λ^2 + λ + 1 mod r. Writing k = k1 + k2·λ mod r with k1, k2 about
/// √r makes k·P = k1·P + k2·φ(P): half the doublings. For public scalars only (variable time).
public struct G1Endomorphism<C: PairingCurve>: Sendable {
    /// φ(x, y) = (β·x, y) equals λ·(x, y) on G1.
    public let beta: Fp<C.Field>
    package let lambda: BigInt
    /// Two short vectors (a, b) of the lattice {a + b·λ ≡ 0 mod r}.
    let a1, b1, a2, b2: BigInt
    /// The same decomposition on fixed-width limbs, for secret scalars.
    let secret: SecretGLV<C>

    /// For the root λ of λ^2 + λ + 1 ≡ 0 mod r; β is found by testing on the generator.
    public init(lambda: BigInt) {
        let r = C.order
        let lambda = lambda.mod(r)
        precondition((lambda * lambda + lambda + BigInt(1)).mod(r).isZero, "λ must be a cube root of unity mod r")
        self.lambda = lambda
        beta = C.findG1EndomorphismBeta(lambda: lambda)
        // Extended Euclid on (r, λ), remainders r_i ≡ t_i·λ (mod r), stopped at the first
        // remainder below √r (Hankerson–Menezes–Vanstone, Guide to ECC, algorithm 3.74).
        var (previous, current) = (r, lambda)
        var (tPrevious, tCurrent) = (BigInt.zero, BigInt.one)
        while current * current >= r {
            let q = previous / current
            (previous, current) = (current, previous - q * current)
            (tPrevious, tCurrent) = (tCurrent, tPrevious - q * tCurrent)
        }
        let q = previous / current
        let (next, tNext) = (previous - q * current, tPrevious - q * tCurrent)
        a1 = current
        b1 = -tCurrent
        if previous * previous + tPrevious * tPrevious <= next * next + tNext * tNext {
            (a2, b2) = (previous, -tPrevious)
        } else {
            (a2, b2) = (next, -tNext)
        }
        secret = SecretGLV(a1: a1, b1: b1, a2: a2, b2: b2)
    }

    /// (k1, k2) with k1 + k2·λ ≡ k (mod r), both about √r in magnitude (Babai rounding).
    public func decompose(_ k: BigInt) -> (BigInt, BigInt) {
        let r = C.order
        // round(x / r) = floor((2x + r) / 2r); BigInt division floors.
        func rounded(_ x: BigInt) -> BigInt { (x + x + r) / (r + r) }
        let c1 = rounded(b2 * k), c2 = rounded(-(b1 * k))
        return (k - c1 * a1 - c2 * a2, -(c1 * b1) - c2 * b2)
    }

    /// φ(P) = (β·X, Y, Z).
    @inlinable
    package func apply(_ p: G1Point<C>) -> G1Point<C> { Point(projectiveX: beta * p.x, y: p.y, z: p.z) }

    /// k·P for P in G1 and a public k: k1·P + k2·φ(P) by interleaved width-5 NAF.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public func multiply(_ p: G1Point<C>, by k: BigInt) -> G1Point<C> {
        let (k1, negative1, k2, negative2) = decompose(k, limbs: C.orderLimbs.count)
        let first = negative1 ? -p : p
        let second = negative2 ? -apply(p) : apply(p)
        return Point.interleavedMultiple(first, BigInt(limbs: k1), second, BigInt(limbs: k2))
    }
}

extension Point {
    /// k·P for P in G1 (the caller's guarantee: decoded and checked, or hashed with the cofactor
    /// cleared) and a public k, by the GLV decomposition.
    public func multipliedInG1<C: PairingCurve>(byPublic k: BigInt) -> Point where G == G1<C> {
        C.g1Endomorphism.multiply(self, by: k)
    }

    /// k1·P + k2·Q for public non-negative k1, k2: one doubling per bit of the longer scalar,
    /// an addition per non-zero width-5 NAF digit of either.
    static func interleavedMultiple(_ p: Point, _ k1: BigInt, _ q: Point, _ k2: BigInt) -> Point {
        let digits1 = WindowedNAF.digits(of: k1.limbs(count: max(1, (k1.bitWidth + 63) / 64)), width: 5)
        let digits2 = WindowedNAF.digits(of: k2.limbs(count: max(1, (k2.bitWidth + 63) / 64)), width: 5)
        let table1 = p.oddMultiples(), table2 = q.oddMultiples()
        var result = JacobianPoint<G>.infinity
        for index in stride(from: max(digits1.count, digits2.count) - 1, through: 0, by: -1) {
            result = result.doubled
            if index < digits1.count { add(digit: digits1[index], from: table1, to: &result) }
            if index < digits2.count { add(digit: digits2[index], from: table2, to: &result) }
        }
        return result.projective
    }

    /// P, 3P, 5P, ..., 15P (Jacobian): the table of a width-5 NAF.
    func oddMultiples() -> [JacobianPoint<G>] {
        let first = JacobianPoint(self)
        let twice = first.doubled
        var table = [first]
        for _ in 1..<8 { table.append(table[table.count - 1] + twice) }
        return table
    }

    /// result += d·P for an odd NAF digit d (or nothing for 0), from the table of odd multiples.
    static func add(digit: Int8, from table: [JacobianPoint<G>], to result: inout JacobianPoint<G>) {
        guard digit != 0 else { return }
        let entry = table[Int(digit.magnitude) / 2]
        result = result + (digit > 0 ? entry : -entry)
    }
}
