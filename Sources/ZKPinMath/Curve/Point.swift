/// A point in homogeneous projective coordinates (x = X/Z, y = Y/Z; infinity has Z = 0).
///
/// Addition and doubling use the complete formulas of Renes, Costello and Batina (2016) for
/// a = 0: no special case for infinity or for P = Q, so the same sequence of field operations
/// runs whatever the inputs, which the constant-time scalar multiplication relies on.
@frozen
public struct Point<G: CurveGroup>: Sendable, Equatable, CustomStringConvertible {
    public typealias F = G.Coordinate
    public var x: F
    public var y: F
    public var z: F

    @inlinable
    public init(projectiveX x: F, y: F, z: F) { self.x = x; self.y = y; self.z = z }

    /// The affine point (x, y); not checked to be on the curve.
    @inlinable
    public init(x: F, y: F) { self.init(projectiveX: x, y: y, z: .one) }

    @inlinable public static var infinity: Point { Point(projectiveX: .zero, y: .one, z: .zero) }

    @inlinable public var isInfinity: Bool { z.isZero }

    /// Affine coordinates, nil for the point at infinity.
    public var affine: (x: F, y: F)? { toAffine() }

    @_specialize(where G == G1<BN254CX>)
    @_specialize(where G == G1<BLS12_381>)
    @_specialize(where G == G2<BN254CX>)
    @_specialize(where G == G2<BLS12_381>)
    func toAffine() -> (x: F, y: F)? {
        guard !isInfinity else { return nil }
        // Built from affine coordinates (decoded, hashed and normalised, a generator): no
        // inversion. Z is 1 by how a point was made, never by chance from a secret (a computed
        // Z equals 1 with probability 1/p), so this branch tells nothing about one.
        if z == .one { return (x, y) }
        let zInverse = z.inverse
        return (x * zInverse, y * zInverse)
    }

    /// Affine coordinates by `constantTimeInverse` (GMP-free, Fermat), nil for infinity: for a
    /// point computed from a secret on a device without GMP. Slower than `affine`.
    public var constantTimeAffine: (x: F, y: F)? { toAffineInConstantTime() }

    @_specialize(where G == G1<BN254CX>)
    @_specialize(where G == G1<BLS12_381>)
    @_specialize(where G == G2<BN254CX>)
    @_specialize(where G == G2<BLS12_381>)
    @inline(never)  // a function of its own: tools/check-constant-time counts inside it
    func toAffineInConstantTime() -> (x: F, y: F)? {
        guard !isInfinity else { return nil }
        if z == .one { return (x, y) }  // as in toAffine: Z = 1 only by construction
        let zInverse = z.constantTimeInverse
        return (x * zInverse, y * zInverse)
    }

    /// The same point with Z = 1 (or infinity).
    public var normalized: Point {
        guard let (ax, ay) = affine else { return .infinity }
        return Point(x: ax, y: ay)
    }

    /// Y^2·Z = X^3 + b·Z^3 (infinity counts as on the curve).
    public var isOnCurve: Bool { checkOnCurve() }

    @_specialize(where G == G1<BN254CX>)
    @_specialize(where G == G1<BLS12_381>)
    @_specialize(where G == G2<BN254CX>)
    @_specialize(where G == G2<BLS12_381>)
    func checkOnCurve() -> Bool {
        if isInfinity { return x.isZero && !y.isZero }
        let lhs = y.squared * z
        let rhs = x.squared * x + G.b * z.squared * z
        return lhs == rhs
    }

    /// r·P == O. Requires Y != 0 in the result so that a degenerate (0:0:0) never passes.
    public var isInSubgroup: Bool {
        if G.cofactorIsOne { return isOnCurve }
        if let fast = G.endomorphismSubgroupCheck(self) { return fast }
        let product = multiplied(byPublic: G.order)
        return product.isInfinity && !product.y.isZero
    }

    public static func == (a: Point, b: Point) -> Bool {
        // Cross-multiplied comparison: X1·Z2 = X2·Z1 and Y1·Z2 = Y2·Z1.
        if a.isInfinity || b.isInfinity { return a.isInfinity && b.isInfinity }
        return a.x * b.z == b.x * a.z && a.y * b.z == b.y * a.z
    }

    public var description: String {
        guard let (ax, ay) = affine else { return "infinity" }
        return "(\(ax), \(ay))"
    }

    // MARK: Group law

    @inlinable
    public static prefix func - (p: Point) -> Point { Point(projectiveX: p.x, y: -p.y, z: p.z) }

    /// -P when mask is all ones, P when it is zero, without a branch (y alone changes).
    @inlinable
    public func negated(if mask: UInt64) -> Point { Point(projectiveX: x, y: .select(mask, -y, y), z: z) }

    /// Complete addition (RCB16, algorithm 7): 12 multiplications and 2 by 3b (three pairs of
    /// them summed before one reduction in Fp: `FieldElement.sumOfProducts`); in the field's
    /// kernel when the group has one (`CurveGroup.kernelSum`: the same formulas in C).
    @inlinable
    public static func + (p: Point, q: Point) -> Point {
        if let sum = G.kernelSum(p, q) { return sum }
        return completeSum(p, q)
    }

    /// The Swift formulas of `+` (the reference the kernels are tested against).
    @inlinable
    package static func completeSum(_ p: Point, _ q: Point) -> Point {
        var t0 = p.x * q.x
        var t1 = p.y * q.y
        var t2 = p.z * q.z
        var t3 = p.x + p.y
        var t4 = q.x + q.y
        t3 = t3 * t4
        t4 = t0 + t1
        t3 = t3 - t4
        t4 = p.y + p.z
        var x3 = q.y + q.z
        t4 = t4 * x3
        x3 = t1 + t2
        t4 = t4 - x3
        x3 = p.x + p.z
        var y3 = q.x + q.z
        x3 = x3 * y3
        y3 = t0 + t2
        y3 = x3 - y3
        x3 = t0 + t0
        t0 = x3 + t0
        t2 = G.timesB3(t2)
        var z3 = t1 + t2
        t1 = t1 - t2
        y3 = G.timesB3(y3)
        // X3 = t3·t1 - t4·y3, Y3 = y3·t0 + t1·z3, Z3 = z3·t4 + t0·t3: each pair of products
        // reduced once in Fp on the generated fields.
        x3 = F.differenceOfProducts(t3, t1, t4, y3)
        y3 = F.sumOfProducts(y3, t0, t1, z3)
        z3 = F.sumOfProducts(z3, t4, t0, t3)
        return Point(projectiveX: x3, y: y3, z: z3)
    }

    @inlinable
    public static func - (p: Point, q: Point) -> Point { p + (-q) }

    @inlinable
    public static func += (p: inout Point, q: Point) { p = p + q }

    /// Complete doubling (RCB16, algorithm 9), in the field's kernel when the group has one.
    @inlinable
    public var doubled: Point {
        if let twice = G.kernelDoubled(self) { return twice }
        return completeDoubled
    }

    /// The Swift formulas of `doubled`. Y^2 and Z^2 as squares: in Fp2 a square takes two
    /// base-field products where a product takes three or four.
    @inlinable
    package var completeDoubled: Point {
        var t0 = y.squared
        var z3 = t0 + t0
        z3 = z3 + z3
        z3 = z3 + z3
        var t1 = y * z
        let b3z2 = G.timesB3(z.squared)  // the algorithm's t2
        var y3 = t0 + b3z2
        // The algorithm's X3 = t2·z3 and Y3 = X3 + t0·y3 (t0 less 3·t2 by then): one sum of two
        // products, reduced once.
        let eightY2 = z3
        z3 = t1 * z3
        t1 = b3z2 + b3z2
        let t2 = t1 + b3z2
        t0 = t0 - t2
        y3 = F.sumOfProducts(b3z2, eightY2, t0, y3)
        t1 = x * y
        var x3 = t0 * t1
        x3 = x3 + x3
        return Point(projectiveX: x3, y: y3, z: z3)
    }

    @inlinable
    public static func select(_ mask: UInt64, _ a: Point, _ b: Point) -> Point {
        Point(projectiveX: F.select(mask, a.x, b.x), y: F.select(mask, a.y, b.y), z: F.select(mask, a.z, b.z))
    }

    // MARK: Scalar multiplication

    /// k·P for a public, non-negative k (variable time: verification, cofactors, subgroup checks).
    @_specialize(where G == G1<BN254CX>)
    @_specialize(where G == G1<BLS12_381>)
    @_specialize(where G == G2<BN254CX>)
    @_specialize(where G == G2<BLS12_381>)
    public func multiplied(byPublic k: BigInt) -> Point {
        precondition(!k.isNegative, "public scalar must be non-negative")
        // Width-5 NAF: one addition per about six bits instead of one per two; Jacobian
        // doublings (public data, so their branching additions are fine).
        let digits = WindowedNAF.digits(of: k.limbs(count: max(1, (k.bitWidth + 63) / 64)), width: 5)
        guard !digits.isEmpty else { return .infinity }
        let table = oddMultiples()
        var result = JacobianPoint<G>.infinity
        for digit in digits.reversed() {
            result = result.doubled
            Point.add(digit: digit, from: table, to: &result)
        }
        return result.projective
    }

    /// k·P for a public 64-bit k (the curve parameter |u|), Jacobian double-and-add.
    @_specialize(where G == G1<BN254CX>)
    @_specialize(where G == G1<BLS12_381>)
    public func multiplied(byWord k: UInt64) -> Point {
        guard !isInfinity else { return .infinity }
        let base = JacobianPoint(self)
        var result = JacobianPoint<G>.infinity
        var bit = 63 - k.leadingZeroBitCount
        while bit >= 0 {
            result = result.doubled
            if (k >> UInt64(bit)) & 1 == 1 {
                result = base.z == .one ? result.adding(affine: (base.x, base.y)) : result + base
            }
            bit -= 1
        }
        return result.projective
    }

    /// k·P for a secret k, reduced mod r first. Constant time: a fixed 4-bit window over the
    /// full width of r, every table entry read for every window (masked selection).
    public func multiplied(bySecret k: BigInt) -> Point {
        multiplied(bySecret: k.mod(G.order), width: 4, bits: G.order.bitWidth)
    }

    /// k·P for a secret k (mod r, GMP-free): the fixed 4-bit windows over the full width of r.
    public func multiplied<C: PairingCurve>(bySecret k: SecretScalar<C>) -> Point where G == G1<C> {
        multiplied(bySecretLimbs: k.limbs, width: 4, windows: (C.order.bitWidth + 3) / 4)
    }

    /// k·Q for Q in G2 and a secret k (mod r, GMP-free) by the fixed 4-bit windows over the full
    /// width of r: the simple reference of the GLS multiplication (`FrobeniusEndomorphism.swift`).
    package func multipliedFullWidth<C: PairingCurve>(bySecret k: SecretScalar<C>) -> Point where G == G2<C> {
        multiplied(bySecretLimbs: k.limbs, width: 4, windows: (C.order.bitWidth + 3) / 4)
    }

    /// k·P for a secret k below 2^bitBound (a public bound: 14 bits for a PIN), GMP-free: fixed
    /// 2-bit windows, whose table of 4 entries costs a doubling and an addition where the 4-bit
    /// table of 16 took 15 additions (a PIN multiple: 12 doublings and 7 additions in all).
    public func multiplied<C: PairingCurve>(bySecret k: SecretScalar<C>, bitBound: Int) -> Point where G == G1<C> {
        let top = bitBound / 64
        var above: UInt64 = top < k.limbs.count ? k.limbs[top] >> UInt64(bitBound % 64) : 0
        for i in (top + 1)..<max(top + 1, k.limbs.count) { above |= k.limbs[i] }
        precondition(above == 0, "secret scalar above its public bound")
        return multiplied(bySecretLimbs: k.limbs, width: 2, windows: (bitBound + 1) / 2)
    }

    /// k·P for a secret k below 2^bitBound, a public bound (14 bits for a 4-digit PIN): the same
    /// constant-time 2-bit windows over bitBound bits instead of the width of r.
    public func multiplied(bySecret k: BigInt, bitBound: Int) -> Point {
        precondition(!k.isNegative && k.bitWidth <= bitBound, "secret scalar above its public bound")
        return multiplied(bySecret: k, width: 2, bits: bitBound)
    }

    func multiplied(bySecret reduced: BigInt, width: Int, bits: Int) -> Point {
        let windowCount = (bits + width - 1) / width
        var limbs = reduced.limbs(count: (windowCount * width + 63) / 64)
        defer { for i in limbs.indices { limbs[i] = 0 } }
        return multiplied(bySecretLimbs: limbs, width: width, windows: windowCount)
    }

    /// 0·P, P, ..., (count - 1)·P, the tables of the fixed-window multiplications: the even
    /// multiples by doubling (cheaper than an addition), the odd ones by adding P.
    func multiples(count: Int) -> [Point] {
        precondition(count >= 2, "a table of at least 0·P and P")
        var table = [Point](repeating: .infinity, count: count)
        table[1] = self
        for i in 2..<count { table[i] = i % 2 == 0 ? table[i / 2].doubled : table[i - 1] + self }
        return table
    }

    /// Fixed windows of `width` bits (1, 2 or 4: a window never straddles two limbs) over the low
    /// `width·windowCount` bits of the limbs, which must hold them. The table 0·P..(2^width - 1)·P
    /// is read whole for every window; the top window starts the result, so no doubling is
    /// spent on the point at infinity. The same operations whatever the scalar.
    @_specialize(where G == G1<BN254CX>)
    @_specialize(where G == G1<BLS12_381>)
    @_specialize(where G == G2<BN254CX>)
    @_specialize(where G == G2<BLS12_381>)
    func multiplied(bySecretLimbs limbs: [UInt64], width: Int, windows windowCount: Int) -> Point {
        precondition(64 % width == 0 && width <= 4, "a window width of 1, 2 or 4 bits")
        precondition(windowCount >= 1 && limbs.count * 64 >= windowCount * width, "fewer limbs than windows")
        let size = 1 << width, mask = UInt64(size - 1)
        var table = multiples(count: size)
        defer { for i in table.indices { table[i] = .infinity } }
        func digit(_ window: Int) -> UInt64 {
            let bit = window * width
            return (limbs[bit / 64] >> UInt64(bit % 64)) & mask
        }

        var result = Point.constantTimeEntry(table, digit(windowCount - 1))
        for window in stride(from: windowCount - 2, through: 0, by: -1) {
            for _ in 0..<width { result = result.doubled }
            result = result + .constantTimeEntry(table, digit(window))
        }
        return result
    }
}
