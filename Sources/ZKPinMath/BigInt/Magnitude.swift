/// Unsigned arithmetic on little-endian 64-bit limbs without trailing zero limbs (zero is
/// empty): what `BigInt` is built on. Public values only (constants, parsing, exponents):
/// the loops and the division branch on the values; secrets use `SecretScalar` and `Fp`.
enum Magnitude {
    static func trimmed(_ a: [UInt64]) -> [UInt64] {
        var a = a
        trim(&a)
        return a
    }

    /// Drops the zero limbs at the top in place (no copy of a uniquely held array).
    static func trim(_ a: inout [UInt64]) {
        while let last = a.last, last == 0 { a.removeLast() }
    }

    static func compare(_ a: [UInt64], _ b: [UInt64]) -> Int {
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        var i = a.count - 1
        while i >= 0 {
            if a[i] != b[i] { return a[i] < b[i] ? -1 : 1 }
            i -= 1
        }
        return 0
    }

    static func sum(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        let (long, short) = a.count >= b.count ? (a, b) : (b, a)
        var out = [UInt64]()
        out.reserveCapacity(long.count + 1)
        var carry: UInt64 = 0
        for i in 0..<long.count {
            let (s1, o1) = long[i].addingReportingOverflow(i < short.count ? short[i] : 0)
            let (s2, o2) = s1.addingReportingOverflow(carry)
            out.append(s2)
            carry = (o1 ? 1 : 0) + (o2 ? 1 : 0)
        }
        if carry != 0 { out.append(carry) }
        return out
    }

    /// a - b for a >= b.
    static func difference(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var out = [UInt64]()
        out.reserveCapacity(a.count)
        var borrow: UInt64 = 0
        for i in 0..<a.count {
            let (d1, o1) = a[i].subtractingReportingOverflow(i < b.count ? b[i] : 0)
            let (d2, o2) = d1.subtractingReportingOverflow(borrow)
            out.append(d2)
            borrow = (o1 ? 1 : 0) + (o2 ? 1 : 0)
        }
        precondition(borrow == 0, "difference of a smaller magnitude")
        trim(&out)
        return out
    }

    static func product(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        guard !a.isEmpty, !b.isEmpty else { return [] }
        var out = [UInt64](repeating: 0, count: a.count + b.count)
        for i in 0..<a.count {
            var carry: UInt64 = 0
            for j in 0..<b.count {
                let (high, low) = a[i].multipliedFullWidth(by: b[j])
                let (s1, o1) = low.addingReportingOverflow(out[i + j])
                let (s2, o2) = s1.addingReportingOverflow(carry)
                out[i + j] = s2
                carry = high &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
            }
            out[i + b.count] = carry
        }
        trim(&out)
        return out
    }

    static func shiftedLeft(_ a: [UInt64], by bits: Int) -> [UInt64] {
        guard !a.isEmpty else { return [] }
        let limbShift = bits / 64, bitShift = UInt64(bits % 64)
        var out = [UInt64](repeating: 0, count: a.count + limbShift + 1)
        for i in 0..<a.count {
            out[i + limbShift] |= a[i] << bitShift
            if bitShift != 0 { out[i + limbShift + 1] = a[i] >> (64 - bitShift) }
        }
        trim(&out)
        return out
    }

    static func shiftedRight(_ a: [UInt64], by bits: Int) -> [UInt64] {
        let limbShift = bits / 64, bitShift = UInt64(bits % 64)
        guard limbShift < a.count else { return [] }
        var out = [UInt64](repeating: 0, count: a.count - limbShift)
        for i in 0..<out.count {
            out[i] = a[i + limbShift] >> bitShift
            if bitShift != 0 && i + limbShift + 1 < a.count { out[i] |= a[i + limbShift + 1] << (64 - bitShift) }
        }
        trim(&out)
        return out
    }

    static func bitWidth(_ a: [UInt64]) -> Int {
        guard let last = a.last else { return 0 }
        return 64 * a.count - last.leadingZeroBitCount
    }

    /// (quotient, remainder) of a / b for b != 0: Knuth's algorithm D (TAOCP 4.3.1), with b
    /// shifted so that its top bit is set, one 128-by-64-bit estimate per quotient limb and at
    /// most two corrections.
    static func divided(_ a: [UInt64], by b: [UInt64]) -> (quotient: [UInt64], remainder: [UInt64]) {
        precondition(!b.isEmpty, "division by zero")
        if compare(a, b) < 0 { return ([], a) }
        if b.count == 1 {
            var quotient = [UInt64](repeating: 0, count: a.count)
            var remainder: UInt64 = 0
            for i in stride(from: a.count - 1, through: 0, by: -1) {
                (quotient[i], remainder) = b[0].dividingFullWidth((remainder, a[i]))
            }
            trim(&quotient)
            return (quotient, remainder == 0 ? [] : [remainder])
        }
        let shift = b[b.count - 1].leadingZeroBitCount
        let v = shiftedLeft(b, by: shift)
        var u = shiftedLeft(a, by: shift)
        while u.count < a.count + 1 { u.append(0) }  // one limb longer than a
        let n = v.count, m = u.count - n - 1
        var quotient = [UInt64](repeating: 0, count: m + 1)
        let top = v[n - 1], next = v[n - 2]
        for j in stride(from: m, through: 0, by: -1) {
            // Estimate q from the top two limbs of u's window and v's top limb.
            var qhat: UInt64, rhat: UInt64
            var rhatOverflow = false
            if u[j + n] >= top {
                // u[j+n] == top (the window is below v·2^64): qhat = 2^64 - 1, rhat = u[j+n-1] + top.
                qhat = .max
                (rhat, rhatOverflow) = u[j + n - 1].addingReportingOverflow(top)
            } else {
                (qhat, rhat) = top.dividingFullWidth((u[j + n], u[j + n - 1]))
            }
            while !rhatOverflow {
                let (high, low) = qhat.multipliedFullWidth(by: next)
                guard high > rhat || (high == rhat && low > u[j + n - 2]) else { break }
                qhat -= 1
                (rhat, rhatOverflow) = rhat.addingReportingOverflow(top)
            }
            // u[j...j+n] -= qhat·v
            var borrow: UInt64 = 0, carry: UInt64 = 0
            for i in 0..<n {
                let (high, low) = qhat.multipliedFullWidth(by: v[i])
                let (p, pc) = low.addingReportingOverflow(carry)
                carry = high &+ (pc ? 1 : 0)
                let (d1, b1) = u[i + j].subtractingReportingOverflow(p)
                let (d2, b2) = d1.subtractingReportingOverflow(borrow)
                u[i + j] = d2
                borrow = (b1 ? 1 : 0) + (b2 ? 1 : 0)
            }
            let (d1, b1) = u[j + n].subtractingReportingOverflow(carry)
            let (d2, b2) = d1.subtractingReportingOverflow(borrow)
            u[j + n] = d2
            if b1 || b2 {
                // qhat was one too large: add v back.
                qhat -= 1
                var c: UInt64 = 0
                for i in 0..<n {
                    let (s1, o1) = u[i + j].addingReportingOverflow(v[i])
                    let (s2, o2) = s1.addingReportingOverflow(c)
                    u[i + j] = s2
                    c = (o1 ? 1 : 0) + (o2 ? 1 : 0)
                }
                u[j + n] = u[j + n] &+ c
            }
            quotient[j] = qhat
        }
        u.removeLast(u.count - n)
        trim(&u)
        trim(&quotient)
        return (quotient, shift == 0 ? u : shiftedRight(u, by: shift))
    }
}
