import CFieldArithmetic

/// table[index] for a secret index: every entry is read in full and the match kept by a mask, so
/// neither an address nor a branch depends on the index. Tables of eight plain-word entries (G2
/// points, GT elements) are read word by word, the eight words of a column at once; other types
/// go through `select`, entry by entry.
@inlinable @inline(__always)
func constantTimeEntry<T>(_ table: [T], at index: UInt64, select: (UInt64, T, T) -> T) -> T {
    precondition(!table.isEmpty, "an empty table")
    let size = MemoryLayout<T>.size
    if _isPOD(T.self), size % 8 == 0, MemoryLayout<T>.stride == size, table.count == 8 {
        return eightWayEntry(table, at: index)
    }
    var chosen = table[0]
    for entry in 1..<table.count { chosen = select(entryMask(entry, index), table[entry], chosen) }
    return chosen
}

/// table[index] of eight plain-word entries, word by word.
@inlinable @inline(__always)
func eightWayEntry<T>(_ table: [T], at index: UInt64) -> T {
    var chosen = table[0]
    let words = MemoryLayout<T>.size / 8
    let (m0, m1, m2, m3) = (entryMask(0, index), entryMask(1, index), entryMask(2, index), entryMask(3, index))
    let (m4, m5, m6, m7) = (entryMask(4, index), entryMask(5, index), entryMask(6, index), entryMask(7, index))
    table.withUnsafeBytes { raw in
        guard let all = raw.baseAddress?.assumingMemoryBound(to: UInt64.self) else { return }
        withUnsafeMutableBytes(of: &chosen) { out in
            guard let result = out.baseAddress?.assumingMemoryBound(to: UInt64.self) else { return }
            for word in 0..<words {
                let column = all + word
                var value = column[0] & m0
                value |= column[words] & m1
                value |= column[2 * words] & m2
                value |= column[3 * words] & m3
                value |= column[4 * words] & m4
                value |= column[5 * words] & m5
                value |= column[6 * words] & m6
                value |= column[7 * words] & m7
                result[word] = value
            }
        }
    }
    return chosen
}

/// All ones exactly when entry == index, computed without a branch, and opaque to the optimiser
/// (`zk_value_barrier`), which otherwise recognises entry == index in it and may branch on that.
@inlinable @inline(__always)
func entryMask(_ entry: Int, _ index: UInt64) -> UInt64 {
    let difference = UInt64(entry) ^ index
    return zk_value_barrier(((difference | (0 &- difference)) >> 63) &- 1)
}
