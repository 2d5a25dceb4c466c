/// Arithmetic that is valid only in the cyclotomic subgroup of Fp12 (elements of order dividing
/// p^4 - p^2 + 1), where every value lives after the easy part of the final exponentiation.
extension Fp12 where P: CyclotomicSquaring {
    /// Granger–Scott (2010) squaring for Fp12 = Fp4[k]/(k^3 - j) with Fp4 = Fp2[j]: for
    /// x = a + b·k + c·k^2, x^2 = (3a^2 - 2ā) + (3j·c^2 + 2b̄)·k + (3b^2 - 2c̄)·k^2, where ā is
    /// the conjugate over Fp2. Three Fp4 squarings instead of a general Fp12 squaring.
    @inlinable
    public var cyclotomicSquared: Fp12 { cyclotomicSquare() }

    @inlinable @inline(never)
    func cyclotomicSquare() -> Fp12 { P.fp12CyclotomicSquared(self) }

    /// self := self^2 in place, on the cyclotomic subgroup.
    @inlinable @inline(__always)
    public mutating func formCyclotomicSquare() { P.fp12CyclotomicSquare(&self) }

    /// The Granger–Scott squaring in Swift (the reference, and the squaring of other fields).
    @inlinable
    package var grangerScottSquared: Fp12 {
        let a2 = c0.squared
        let b2 = c1.squared
        let c2j = c2.squared.timesJ
        // 3x - 2y as x + 2(x - y), 3x + 2y as x + 2(x + y).
        return Fp12(
            (a2 - c0.conjugate).doubled + a2,
            (c2j + c1.conjugate).doubled + c2j,
            (b2 - c2.conjugate).doubled + b2)
    }

    /// x^e for a public 64-bit exponent, by cyclotomic squarings (the exponent by u of the
    /// final exponentiation).
    @inlinable
    package func cyclotomicPower(word exponent: UInt64) -> Fp12 {
        guard exponent != 0 else { return .one }
        var result = self
        var bit = 63 - exponent.leadingZeroBitCount - 1
        while bit >= 0 {
            result.formCyclotomicSquare()
            if (exponent >> UInt64(bit)) & 1 == 1 { result *= self }
            bit -= 1
        }
        return result
    }

    /// x^e for a public exponent (little-endian limbs); see `cyclotomicPower(naf:)`.
    package func cyclotomicPower(limbs exponent: [UInt64]) -> Fp12 {
        cyclotomicPower(naf: WindowedNAF.digits(of: exponent, width: 5))
    }

    /// x^e for a public exponent given as width-5 NAF digits (`WindowedNAF`): odd powers x, x^3,
    /// ..., x^15 and their conjugates (inverses in this subgroup), so a dense exponent costs one
    /// multiplication per six bits instead of one per two. No heap allocation when the digits
    /// are precomputed.
    @_specialize(where P == BN254CXField)
    @_specialize(where P == BLS12_381Field)
    package func cyclotomicPower(naf digits: [Int8]) -> Fp12 {
        guard let top = digits.lastIndex(where: { $0 != 0 }) else { return .one }
        let square = cyclotomicSquared
        // odd.k = x^(2k+1), k = 0...7, in a tuple so the table stays off the heap.
        var building = (self, self, self, self, self, self, self, self)
        withUnsafeMutableBytes(of: &building) { raw in
            let table = raw.bindMemory(to: Fp12.self)
            for k in 1..<8 { table[k] = table[k - 1] * square }
        }
        let odd = building
        func entry(_ digit: Int8) -> Fp12 {
            let value = withUnsafeBytes(of: odd) { $0.bindMemory(to: Fp12.self)[Int(digit.magnitude) / 2] }
            return digit < 0 ? value.conjugate : value
        }
        var result = entry(digits[top])
        var index = top - 1
        while index >= 0 {
            result.formCyclotomicSquare()
            if digits[index] != 0 { result *= entry(digits[index]) }
            index -= 1
        }
        return result
    }
}

/// Width-w non-adjacent form: digits in (-2^(w-1), 2^(w-1)), odd when non-zero, at least w-1
/// zeros between non-zero digits; little-endian. For public exponents only (it branches).
package enum WindowedNAF {
    /// The digits of a value given as little-endian limbs: one word in two words
    /// (`digits(ofWord:)`), more on the limbs themselves.
    package static func digits(of limbs: [UInt64], width: Int) -> [Int8] {
        let significant = (limbs.lastIndex { $0 != 0 } ?? 0) + 1
        return significant <= 1 ? digits(ofWord: limbs.first ?? 0, width: width) : multiWordDigits(of: limbs, width: width)
    }

    /// The digits of a value of several words, one bit at a time on a copy of its limbs.
    package static func multiWordDigits(of limbs: [UInt64], width: Int) -> [Int8] {
        precondition(width >= 2 && width <= 7)
        // A mutable copy with one spare limb for the carries of negative digits.
        var value = limbs + [0]
        var digits = [Int8]()
        digits.reserveCapacity(64 * value.count)
        let modulus = UInt64(1) << UInt64(width)
        func isZero() -> Bool { value.allSatisfy { $0 == 0 } }
        func shiftRight() {
            for i in 0..<value.count {
                value[i] = (value[i] >> 1) | (i + 1 < value.count ? value[i + 1] << 63 : 0)
            }
        }
        func add(_ k: UInt64) {
            var carry = k
            for i in 0..<value.count where carry != 0 {
                let (sum, overflow) = value[i].addingReportingOverflow(carry)
                value[i] = sum
                carry = overflow ? 1 : 0
            }
        }
        func subtract(_ k: UInt64) {
            var borrow = k
            for i in 0..<value.count where borrow != 0 {
                let (difference, overflow) = value[i].subtractingReportingOverflow(borrow)
                value[i] = difference
                borrow = overflow ? 1 : 0
            }
        }
        while !isZero() {
            if value[0] & 1 == 1 {
                let low = value[0] & (modulus - 1)
                if low >= modulus / 2 {
                    digits.append(Int8(Int64(low) - Int64(modulus)))
                    add(modulus - low)
                } else {
                    digits.append(Int8(low))
                    subtract(low)
                }
            } else {
                digits.append(0)
            }
            shiftRight()
        }
        return digits
    }

    /// The digits of one word, in two words (`high` holds the carry of negative digits into bit
    /// 64): no array arithmetic per bit.
    package static func digits(ofWord word: UInt64, width: Int) -> [Int8] {
        precondition(width >= 2 && width <= 7)
        var low = word, high: UInt64 = 0
        var digits = [Int8]()
        digits.reserveCapacity(65)
        let modulus = UInt64(1) << UInt64(width)
        while low != 0 || high != 0 {
            if low & 1 == 1 {
                let digit = low & (modulus - 1)
                if digit >= modulus / 2 {
                    digits.append(Int8(Int64(digit) - Int64(modulus)))
                    let (sum, overflow) = low.addingReportingOverflow(modulus - digit)
                    low = sum
                    if overflow { high += 1 }
                } else {
                    digits.append(Int8(digit))
                    low -= digit
                }
            } else {
                digits.append(0)
            }
            (low, high) = ((low >> 1) | (high << 63), high >> 1)
        }
        return digits
    }
}
