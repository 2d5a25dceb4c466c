#if ZKPIN_ADX
    import CFieldArithmetic

    // The curves' field and tower arithmetic in the x86-64 assembly and C of CFieldArithmetic
    // (built with ZKPIN_ADX: x86-64 unless ZKPIN_PORTABLE=1, see Package.swift): Montgomery
    // products with mulx and the adcx/adox carry chains, about half the instructions of the Swift
    // product; branchless add/adc/cmov sums (the Swift sums compile to branches on the carries);
    // lazily reduced Fp2 and Fp4 products; the Fp12 products and squares and the product by a
    // Miller-loop line, reduced once per coefficient, the cyclotomic squarings, G2's complete
    // sum and doubling and the live Miller loop's steps, in C on those primitives. tools/gen-curves writes one
    // constant table of these kernels per curve (zk_<curve>_kernels in field_arithmetic.h) and a
    // one-line conformance naming it (Curve/Generated/<Curve>+Kernels.swift); this file binds any
    // such table. Specialised for a curve, the table's loads are constants and the calls direct,
    // so the C code inlines as if named. Without ZKPIN_ADX the protocols' Swift defaults apply.

    /// A field whose arithmetic runs on the C kernels of its curve's table.
    public protocol KernelField: CyclotomicSquaring {
        /// `zk_<curve>_kernels` of field_arithmetic.h.
        static var kernels: zk_field_kernels { get }
    }

    extension KernelField {
        @inlinable @inline(__always)
        public static func montgomeryProduct(_ a: Limbs, _ b: Limbs) -> Limbs {
            applying(kernels.montgomery_product, a, b, into: Limbs())
        }

        @inlinable @inline(__always)
        public static func modularSum(_ a: Limbs, _ b: Limbs) -> Limbs { applying(kernels.modular_sum, a, b, into: Limbs()) }

        @inlinable @inline(__always)
        public static func modularDifference(_ a: Limbs, _ b: Limbs) -> Limbs {
            applying(kernels.modular_difference, a, b, into: Limbs())
        }

        @inlinable @inline(__always)
        public static func sumOfProducts(_ a: Limbs, _ b: Limbs, _ c: Limbs, _ d: Limbs) -> Limbs {
            applying(kernels.sum_of_products, a, b, c, d, into: Limbs())
        }

        @inlinable @inline(__always)
        public static func differenceOfProducts(_ a: Limbs, _ b: Limbs, _ c: Limbs, _ d: Limbs) -> Limbs {
            applying(kernels.difference_of_products, a, b, c, d, into: Limbs())
        }

        @inlinable @inline(__always)
        public static func fp2Product(_ a: Fp2<Self>, _ b: Fp2<Self>) -> Fp2<Self> {
            applying(kernels.fp2_product, a, b, into: .zero)
        }

        @inlinable @inline(__always)
        public static func fp4Product(_ a: Fp4<Self>, _ b: Fp4<Self>) -> Fp4<Self> { applying(kernels.fp4_mul, a, b, into: .zero) }

        @inlinable @inline(__always)
        public static func fp4Squared(_ a: Fp4<Self>) -> Fp4<Self> { applying(kernels.fp4_square, a, into: .zero) }

        @inlinable @inline(__always)
        public static func fp12Product(_ a: Fp12<Self>, _ b: Fp12<Self>) -> Fp12<Self> {
            applying(kernels.fp12_mul, a, b, into: .zero)
        }

        @inlinable @inline(__always)
        public static func fp12Squared(_ a: Fp12<Self>) -> Fp12<Self> { applying(kernels.fp12_square, a, into: .zero) }

        @inlinable @inline(__always)
        public static func fp12Square(_ f: inout Fp12<Self>) { withMutableLimbs(of: &f) { kernels.fp12_square($0, $0) } }

        @inlinable @inline(__always)
        public static func fp12Multiply(_ a: inout Fp12<Self>, by b: Fp12<Self>) { multiplyInPlace(&a, by: b, kernels.fp12_mul) }

        @inlinable @inline(__always)
        public static func fp12CyclotomicSquared(_ a: Fp12<Self>) -> Fp12<Self> {
            applying(kernels.fp12_cyclotomic_square, a, into: .zero)
        }

        @inlinable @inline(__always)
        public static func fp12CyclotomicSquare(_ a: inout Fp12<Self>) {
            withMutableLimbs(of: &a) { kernels.fp12_cyclotomic_square($0, $0) }
        }

        @inlinable @inline(__always)
        public static func compressedCyclotomicSquare(_ x: inout CompressedCyclotomic<Self>, times: Int) {
            withMutableLimbs(of: &x) { kernels.compressed_square($0, Int32(times)) }
        }

        @inlinable @inline(__always)
        public static func fp12MultiplyByLine(_ f: inout Fp12<Self>, a: Fp4<Self>, b: Fp2<Self>, bAtKSquared: Bool) {
            multiply(&f, byLine: (a, b), bAtKSquared: bAtKSquared, kernels.fp12_mul_by_line)
        }

        @inlinable @inline(__always)
        public static func fp12MultiplyByNormalizedLine(_ f: inout Fp12<Self>, a: Fp4<Self>, b: Fp2<Self>, bAtKSquared: Bool) {
            multiply(&f, byLine: (a, b), bAtKSquared: bAtKSquared, kernels.fp12_mul_by_normalized_line)
        }

        /// f times the line (a, b) by `kernel`, in place. The C code is written for the curve's
        /// own line shape (its twist's); the other shape takes the Swift path.
        @inlinable @inline(__always)
        static func multiply(
            _ f: inout Fp12<Self>, byLine line: (a: Fp4<Self>, b: Fp2<Self>), bAtKSquared: Bool,
            _ kernel: @convention(c) (UnsafeMutablePointer<UInt64>, UnsafePointer<UInt64>, UnsafePointer<UInt64>) -> Void
        ) {
            guard bAtKSquared == (kernels.line_b_at_k_squared != 0) else {
                f = f.sparseProduct(a: line.a, b: line.b, bAtKSquared: bAtKSquared)
                return
            }
            multiplyInPlace(&f, by: line, kernel)
        }

        @inlinable @inline(__always)
        public static func twistSum(
            _ p: (Fp2<Self>, Fp2<Self>, Fp2<Self>), _ q: (Fp2<Self>, Fp2<Self>, Fp2<Self>)
        ) -> (Fp2<Self>, Fp2<Self>, Fp2<Self>)? {
            applying(kernels.g2_add, p, q, into: (Fp2<Self>.zero, Fp2<Self>.zero, Fp2<Self>.zero))
        }

        @inlinable @inline(__always)
        public static func twistDoubled(_ p: (Fp2<Self>, Fp2<Self>, Fp2<Self>)) -> (Fp2<Self>, Fp2<Self>, Fp2<Self>)? {
            applying(kernels.g2_double, p, into: (Fp2<Self>.zero, Fp2<Self>.zero, Fp2<Self>.zero))
        }

        @inlinable @inline(__always)
        public static func twistDoublingLine(_ t: inout (Fp2<Self>, Fp2<Self>, Fp2<Self>)) -> (Fp2<Self>, Fp2<Self>, Fp2<Self>)? {
            guard kernels.live_line_steps != 0 else { return nil }
            var line = (Fp2<Self>.zero, Fp2<Self>.zero, Fp2<Self>.zero)
            withMutableLimbs(of: &t) { point in withMutableLimbs(of: &line) { kernels.g2_double_line(point, $0) } }
            return line
        }

        @inlinable @inline(__always)
        public static func twistAdditionLine(
            _ t: inout (Fp2<Self>, Fp2<Self>, Fp2<Self>), _ r: (Fp2<Self>, Fp2<Self>)
        ) -> (Fp2<Self>, Fp2<Self>, Fp2<Self>)? {
            guard kernels.live_line_steps != 0 else { return nil }
            var line = (Fp2<Self>.zero, Fp2<Self>.zero, Fp2<Self>.zero)
            withMutableLimbs(of: &t) { point in
                withLimbs(of: r) { r in withMutableLimbs(of: &line) { kernels.g2_add_line(point, r, $0) } }
            }
            return line
        }
    }

    /// `kernel(result, a, b)` on the limbs of a and b: tower elements are frozen structs of
    /// `Fp`s, each an inline tuple of UInt64, so one contiguous run of words, as the C code takes them.
    @inlinable @inline(__always)
    func applying<A, B, R>(
        _ kernel: @convention(c) (UnsafeMutablePointer<UInt64>, UnsafePointer<UInt64>, UnsafePointer<UInt64>) -> Void,
        _ a: A, _ b: B, into result: R
    ) -> R {
        var result = result
        withLimbs(of: a) { a in withLimbs(of: b) { b in withMutableLimbs(of: &result) { kernel($0, a, b) } } }
        return result
    }

    /// `kernel(result, a, b, c, d)` on the limbs of four values.
    @inlinable @inline(__always)
    func applying<A, R>(
        _ kernel:
            @convention(c) (
                UnsafeMutablePointer<UInt64>, UnsafePointer<UInt64>, UnsafePointer<UInt64>, UnsafePointer<UInt64>,
                UnsafePointer<UInt64>
            ) -> Void,
        _ a: A, _ b: A, _ c: A, _ d: A, into result: R
    ) -> R {
        var result = result
        withLimbs(of: a) { a in
            withLimbs(of: b) { b in
                withLimbs(of: c) { c in withLimbs(of: d) { d in withMutableLimbs(of: &result) { kernel($0, a, b, c, d) } } }
            }
        }
        return result
    }

    /// `kernel(f, f, b)`: f times b in place (kernels whose result may be their first operand).
    @inlinable @inline(__always)
    func multiplyInPlace<A, B>(
        _ f: inout A, by b: B,
        _ kernel: @convention(c) (UnsafeMutablePointer<UInt64>, UnsafePointer<UInt64>, UnsafePointer<UInt64>) -> Void
    ) {
        withLimbs(of: b) { b in withMutableLimbs(of: &f) { kernel($0, $0, b) } }
    }

    /// `kernel(result, a)` on the limbs of a.
    @inlinable @inline(__always)
    func applying<A, R>(
        _ kernel: @convention(c) (UnsafeMutablePointer<UInt64>, UnsafePointer<UInt64>) -> Void, _ a: A, into result: R
    ) -> R {
        var result = result
        withLimbs(of: a) { a in withMutableLimbs(of: &result) { kernel($0, a) } }
        return result
    }

    @inlinable @inline(__always)
    func withLimbs<T, R>(of value: T, _ body: (UnsafePointer<UInt64>) -> R) -> R {
        withUnsafeBytes(of: value) { body($0.baseAddress!.assumingMemoryBound(to: UInt64.self)) }
    }

    @inlinable @inline(__always)
    func withMutableLimbs<T, R>(of value: inout T, _ body: (UnsafeMutablePointer<UInt64>) -> R) -> R {
        withUnsafeMutableBytes(of: &value) { body($0.baseAddress!.assumingMemoryBound(to: UInt64.self)) }
    }
#endif
