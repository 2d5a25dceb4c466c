import ZKPinMath

extension MPin {
    /// The PIN error e = entered - registered such that E = F^(-e), searched over
    /// [-9999, 9999] by baby-step giant-step (100 baby steps, 200 giant steps); 0 when no such
    /// e exists (not a genuine token, or a wrong or expired permit). Exact and deterministic,
    /// unlike Milagro's kangaroo walk, with the same answers.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func pinError(e: GT, f: GT) -> Int {
        pinErrorSearch(e: e, f: f).error
    }

    /// The search, with the number of giant steps it took. Every giant step is taken whatever
    /// is found (no early exit), so the work, and the time the server takes to answer a wrong
    /// PIN, says nothing about the registered PIN: the count is always 200 (tested).
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    static func pinErrorSearch(e: GT, f: GT) -> (error: Int, giantSteps: Int) {
        let babySteps = 100, bound = 9999
        var table = [GT: Int]()
        var power = GT.one
        for j in 0..<babySteps {
            table[power] = j
            power = power * f
        }
        // power is now F^100; each giant step multiplies by F^-100 (the conjugate in GT).
        let giantStep = power.conjugate
        var current = e * f.power(BigInt(bound))
        var error = 0, found = false, steps = 0
        for g in 0...((2 * bound) / babySteps) {
            if let j = table[current] {
                let d = g * babySteps + j - bound
                // The first match in range is the answer; later steps run on and change nothing.
                if !found && abs(d) <= bound { error = -d; found = true }
            }
            current = current * giantStep
            steps += 1
        }
        return (error, steps)
    }
}
