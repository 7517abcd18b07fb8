/// The expansion state of an outline: one bit per item in depth-first order
/// (1 = expanded), packed 64 to a word.
///
/// Invariant: bits past `count` in the last word are zero, so `==` on the words
/// is equality of the states and a population count is the number of expanded items.
struct ExpansionBits: Equatable {
    private(set) var words: ContiguousArray<UInt64> = []
    private(set) var count = 0

    init() {}

    /// `count` bits, all `value`.
    /// - Complexity: O(count / 64).
    init(repeating value: Bool, count: Int) {
        words = ContiguousArray(repeating: value ? ~0 : 0, count: (count + 63) >> 6)
        self.count = count
        clearBitsPastCount()
    }

    /// - Complexity: O(1).
    @inline(__always)
    subscript(position: Int) -> Bool {
        get { words[position >> 6] & (1 << UInt64(position & 63)) != 0 }
        set {
            let mask: UInt64 = 1 << UInt64(position & 63)
            if newValue { words[position >> 6] |= mask } else { words[position >> 6] &= ~mask }
        }
    }

    /// Whether bit `position` is set in `words` (a borrowed view of a bit array's words).
    @inline(__always)
    static func isSet(_ words: UnsafeBufferPointer<UInt64>, _ position: Int) -> Bool {
        words[position >> 6] & (1 << UInt64(position & 63)) != 0
    }

    /// Runs `body` with a borrowed view of the words (one access for a whole loop).
    @inline(__always)
    func withUnsafeWords<R>(_ body: (UnsafeBufferPointer<UInt64>) throws -> R) rethrows -> R {
        try words.withUnsafeBufferPointer(body)
    }

    /// Sets or clears the bits at `positions`.
    /// - Complexity: O(positions.count).
    mutating func set(_ positions: [Int32], to value: Bool) {
        words.withUnsafeMutableBufferPointer { words in
            for position in positions {
                let mask: UInt64 = 1 << UInt64(position & 63)
                if value { words[Int(position >> 6)] |= mask } else { words[Int(position >> 6)] &= ~mask }
            }
        }
    }

    /// Appends `count` clear bits.
    /// - Complexity: O(count / 64) amortized.
    mutating func appendZeros(_ count: Int) {
        self.count += count
        let needed = (self.count + 63) >> 6
        if needed > words.count { words.append(contentsOf: repeatElement(0, count: needed - words.count)) }
    }

    /// The number of set bits.
    /// - Complexity: O(count / 64).
    var setCount: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// Calls `body` with the position of every set bit, ascending.
    /// - Complexity: O(count / 64 + set bits).
    func forEachSetPosition(_ body: (Int) -> Void) {
        for (index, word) in words.enumerated() {
            var remaining = word
            while remaining != 0 {
                body(index << 6 + remaining.trailingZeroBitCount)
                remaining &= remaining - 1
            }
        }
    }

    /// Sets every bit to `value`.
    /// - Complexity: O(count / 64).
    mutating func setAll(_ value: Bool) {
        for index in words.indices { words[index] = value ? ~0 : 0 }
        clearBitsPastCount()
    }

    /// Appends one bit.
    /// - Complexity: O(1) amortized.
    mutating func append(_ value: Bool) {
        appendWord(value ? 1 : 0, bitCount: 1)
    }

    /// Appends the bits of `other` in `range`.
    /// - Complexity: O(range.count / 64) amortized.
    mutating func append(contentsOf other: ExpansionBits, range: Range<Int>) {
        var start = range.lowerBound
        while start < range.upperBound {
            let taken = Swift.min(64, range.upperBound - start)
            appendWord(other.word(at: start, bitCount: taken), bitCount: taken)
            start += taken
        }
    }

    /// The bits in `range` as a bit array of their own.
    /// - Complexity: O(range.count / 64).
    func extracting(_ range: Range<Int>) -> ExpansionBits {
        var result = ExpansionBits()
        result.words.reserveCapacity((range.count + 63) >> 6)
        result.append(contentsOf: self, range: range)
        return result
    }

    /// Replaces the bits in `range` by all of `other`'s.
    /// - Complexity: O(other.count / 64) at the end, else O((count - range.lowerBound + other.count) / 64).
    mutating func replaceSubrange(_ range: Range<Int>, with other: ExpansionBits) {
        if range.isEmpty && range.lowerBound == count {
            append(contentsOf: other, range: 0..<other.count)
            return
        }
        if range.count == other.count {
            for start in stride(from: 0, to: other.count, by: 64) {
                let taken = Swift.min(64, other.count - start)
                overwrite(at: range.lowerBound + start, with: other.word(at: start, bitCount: taken), bitCount: taken)
            }
            return
        }
        let tail = range.upperBound < count ? extracting(range.upperBound..<count) : ExpansionBits()
        removeLast(count - range.lowerBound)
        append(contentsOf: other, range: 0..<other.count)
        append(contentsOf: tail, range: 0..<tail.count)
    }

    /// Keeps only the bits in `runs` (ascending, disjoint ranges), in order.
    /// - Complexity: O(count / 64 + runs.count).
    mutating func keepOnly(_ runs: [Range<Int>]) {
        var kept = ExpansionBits()
        kept.words.reserveCapacity(words.count)
        for run in runs { kept.append(contentsOf: self, range: run) }
        self = kept
    }

    /// Drops the last `removed` bits.
    /// - Complexity: O(removed / 64).
    mutating func removeLast(_ removed: Int) {
        count -= removed
        words.removeLast(words.count - ((count + 63) >> 6))
        clearBitsPastCount()
    }

    // MARK: Words

    /// `bitCount` (1...64) bits from `start` on, in the low bits of the result.
    @inline(__always)
    private func word(at start: Int, bitCount: Int) -> UInt64 {
        let index = start >> 6, shift = UInt64(start & 63)
        var value = words[index] >> shift
        if shift != 0 && index + 1 < words.count { value |= words[index + 1] << (64 - shift) }
        return bitCount == 64 ? value : value & ((1 << UInt64(bitCount)) - 1)
    }

    /// Appends the low `bitCount` (1...64) bits of `value` (its higher bits are zero).
    @inline(__always)
    private mutating func appendWord(_ value: UInt64, bitCount: Int) {
        let shift = UInt64(count & 63)
        if shift == 0 {
            words.append(value)
        } else {
            words[words.count - 1] |= value << shift
            if Int(shift) + bitCount > 64 { words.append(value >> (64 - shift)) }
        }
        count += bitCount
    }

    /// Writes the low `bitCount` (1...64) bits of `value` at `start` (inside the array).
    private mutating func overwrite(at start: Int, with value: UInt64, bitCount: Int) {
        let index = start >> 6, shift = UInt64(start & 63)
        let mask: UInt64 = bitCount == 64 ? ~0 : (1 << UInt64(bitCount)) - 1
        words[index] = (words[index] & ~(mask << shift)) | (value << shift)
        let spill = Int(shift) + bitCount - 64
        if spill > 0 {
            let high: UInt64 = (1 << UInt64(spill)) - 1
            words[index + 1] = (words[index + 1] & ~high) | (value >> (64 - shift))
        }
    }

    private mutating func clearBitsPastCount() {
        let used = count & 63
        if used != 0 { words[words.count - 1] &= (1 << UInt64(used)) - 1 }
    }
}
