/// Keys for a flat diff of two `[String]` lists that the caller vouches are each free of
/// repeats, made without hashing the strings the two lists share.
///
/// An app's new list mostly holds the very `String` values of its old one (the same storage
/// object, or the same inline bytes), in mostly the same order. Two `String` values with the
/// same 16 bytes are equal (`==` itself answers so before looking at any character), so a walk
/// over both lists that follows the old order pairs those strings by their bits alone, as the
/// core's own first pass does by keys, and a table of the old strings' bits it passed over
/// pairs the strings moved far. Each pair gets one key made from its old index; every string
/// left unpaired (inserted, deleted, or an equal string in another storage) gets its canonical
/// key (``IdentifierKey/string(_:)``): only those strings have their characters read. Within
/// lists without repeats that keeps the rule the core matches by: equal strings have equal
/// keys. A string paired here equals exactly one string of the other list, its partner, so no
/// unpaired string equals it; two unpaired strings that are equal both have their canonical
/// key. Equal keys of unequal strings (a made-up key meeting a canonical one, about 2^-64 per
/// pair, or a hash collision) are what the caller's confirmation of every match catches, as it
/// does for canonical keys.
///
/// The keys are written into buffers the caller keeps from one diff to the next
/// (`StringKeyScratch`), so a warm diff allocates nothing for them.
enum StringPairKeys {
    /// Where the made-up keys start: pair `k` (old index `k`) gets `base &+ k`. Any value
    /// serves; a test passes its own to make one meet a canonical key.
    static let defaultBase: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// Whether `old[oldIndex]` and `new[newIndex]` are the same `String` value, bit for bit
    /// (then equal; unequal bits may still be equal strings).
    /// - Complexity: O(1).
    @inline(__always)
    static func sameBits(_ old: UnsafeRawPointer, _ oldIndex: Int, _ new: UnsafeRawPointer, _ newIndex: Int) -> Bool {
        let stride = MemoryLayout<String>.stride, oldOffset = oldIndex &* stride, newOffset = newIndex &* stride
        return old.load(fromByteOffset: oldOffset, as: UInt64.self) == new.load(fromByteOffset: newOffset, as: UInt64.self)
            && old.load(fromByteOffset: oldOffset &+ 8, as: UInt64.self) == new.load(fromByteOffset: newOffset &+ 8, as: UInt64.self)
    }

    /// Writes the keys of `old` and `new` (see the type) to `scratch.old[0..<old.count]` and
    /// `scratch.new[0..<new.count]`: pairs found by a walk in the old order get `base &+`
    /// their old index, the other strings their canonical key.
    ///
    /// The walk looks for each new string among the next few old ones after the last pair,
    /// further after a run of misses (a stretch of deleted strings), and gives up when fewer
    /// than half of the first strings pair (a shuffle, or lists that share no storage): the
    /// rest are then hashed in order, as they would have been without the walk.
    ///
    /// Returns whether the made-up keys are all the keys in `base ..< base + old.count`: no
    /// canonical key fell in that range (each does with odds of about n / 2^64). Then an old
    /// string whose key is `base + i`, its own index, was paired here, and the one new string
    /// with that key is its partner: a match on such a key needs no further check.
    /// - Complexity: O(n + m) plus the keys of the unpaired strings (their UTF-8 length).
    @discardableResult
    static func write(
        old: UnsafeBufferPointer<String>, new: UnsafeBufferPointer<String>, base: UInt64, into scratch: inout StringKeyScratch
    )
        -> Bool
    {
        precondition(MemoryLayout<String>.size == 16, "Diffable: a String value is two 64-bit words")
        scratch.reserve(old: old.count, new: new.count)
        // The buffers taken out of the scratch for the writes (each still its only owner),
        // and put back after.
        var oldKeys: [UInt64] = [], newKeys: [UInt64] = [], oldUnpaired: [Int32] = [], newUnpaired: [Int32] = []
        swap(&oldKeys, &scratch.old)
        swap(&newKeys, &scratch.new)
        swap(&oldUnpaired, &scratch.oldUnpaired)
        swap(&newUnpaired, &scratch.newUnpaired)
        var table: [UInt64] = []
        swap(&table, &scratch.table)
        var canonicalKeysAvoidTheMadeUpOnes = true
        oldKeys.withUnsafeMutableBufferPointer { oldKeys in
            newKeys.withUnsafeMutableBufferPointer { newKeys in
                oldUnpaired.withUnsafeMutableBufferPointer { oldUnpaired in
                    newUnpaired.withUnsafeMutableBufferPointer { newUnpaired in
                        let oldKeys = oldKeys.baseAddress!, newKeys = newKeys.baseAddress!
                        let stop = walk(
                            old: old, new: new, base: base, oldKeys: oldKeys, newKeys: newKeys, oldUnpaired: oldUnpaired.baseAddress!,
                            newUnpaired: newUnpaired.baseAddress!)
                        let left = pairPassedOver(
                            old: old, new: new, base: base, oldKeys: oldKeys, newKeys: newKeys,
                            oldPassed: UnsafeMutableBufferPointer(rebasing: oldUnpaired[..<stop.oldUnpaired]),
                            newPassed: UnsafeMutableBufferPointer(rebasing: newUnpaired[..<stop.newUnpaired]), table: &table)
                        let oldPassed = UnsafeBufferPointer(rebasing: oldUnpaired[..<left.old])
                        let newPassed = UnsafeBufferPointer(rebasing: newUnpaired[..<left.new])
                        // What the walk did not reach is hashed in order; then what it passed over.
                        StringKeyBatch.writeKeys(of: UnsafeBufferPointer(rebasing: new[stop.new...]), to: newKeys + stop.new)
                        StringKeyBatch.writeKeys(of: UnsafeBufferPointer(rebasing: old[stop.old...]), to: oldKeys + stop.old)
                        StringKeyBatch.writeKeys(of: old, at: oldPassed, to: oldKeys)
                        StringKeyBatch.writeKeys(of: new, at: newPassed, to: newKeys)
                        let range = UInt64(truncatingIfNeeded: old.count)
                        func isMadeUp(_ key: UInt64) -> Bool { key &- base < range }
                        canonicalKeysAvoidTheMadeUpOnes =
                            !UnsafeBufferPointer(start: newKeys + stop.new, count: new.count &- stop.new).contains(where: isMadeUp)
                            && !UnsafeBufferPointer(start: oldKeys + stop.old, count: old.count &- stop.old).contains(where: isMadeUp)
                            && !oldPassed.contains { isMadeUp(oldKeys[Int($0)]) } && !newPassed.contains { isMadeUp(newKeys[Int($0)]) }
                    }
                }
            }
        }
        (scratch.old, scratch.new, scratch.oldUnpaired, scratch.newUnpaired) = (oldKeys, newKeys, oldUnpaired, newUnpaired)
        scratch.table = table
        return canonicalKeysAvoidTheMadeUpOnes
    }

    /// Pairs by their bits the strings the walk passed over in both lists (strings moved far
    /// off their old place), through a table of the old ones' bits in `table` (grown as
    /// needed, reused), and moves the positions of the strings still unpaired to the front of
    /// each list. Returns how many are left in each.
    /// - Complexity: O(oldPassed.count + newPassed.count) expected.
    @inline(never)
    private static func pairPassedOver(
        old: UnsafeBufferPointer<String>, new: UnsafeBufferPointer<String>, base: UInt64,
        oldKeys: UnsafeMutablePointer<UInt64>, newKeys: UnsafeMutablePointer<UInt64>,
        oldPassed: UnsafeMutableBufferPointer<Int32>, newPassed: UnsafeMutableBufferPointer<Int32>, table: inout [UInt64]
    ) -> (old: Int, new: Int) {
        guard !oldPassed.isEmpty, !newPassed.isEmpty, let oldBits = UnsafeRawPointer(old.baseAddress),
            let newBits = UnsafeRawPointer(new.baseAddress)
        else { return (oldPassed.count, newPassed.count) }
        // Open addressing, at most 3/4 full: slot s is three words, the old index + 1 (0:
        // empty; `taken`: paired already) and the string's two words, so that a probe reads one line.
        var shift = 60, capacity = 16
        while capacity / 4 &* 3 < oldPassed.count {
            capacity &*= 2
            shift &-= 1
        }
        if table.count < 3 &* capacity { table.append(contentsOf: repeatElement(0, count: 3 &* capacity &- table.count)) }
        let taken = UInt64.max, mask = capacity &- 1
        func words(_ bits: UnsafeRawPointer, _ index: Int) -> (UInt64, UInt64) {
            let offset = index &* MemoryLayout<String>.stride
            return (bits.load(fromByteOffset: offset, as: UInt64.self), bits.load(fromByteOffset: offset &+ 8, as: UInt64.self))
        }
        func home(_ words: (UInt64, UInt64)) -> Int {
            Int(truncatingIfNeeded: (((words.0 &* 0x9E37_79B9_7F4A_7C15) ^ words.1) &* 0xBF58_476D_1CE4_E5B9) >> UInt64(shift))
        }
        return table.withUnsafeMutableBufferPointer { table in
            let table = table.baseAddress!
            for slot in 0..<capacity { table[3 &* slot] = 0 }
            for position in oldPassed {
                let index = Int(position), value = words(oldBits, index)
                var slot = home(value)
                while table[3 &* slot] != 0 { slot = (slot &+ 1) & mask }
                (table[3 &* slot], table[3 &* slot &+ 1], table[3 &* slot &+ 2]) = (
                    UInt64(truncatingIfNeeded: index &+ 1), value.0, value.1
                )
                // Not its pair key: marks it unpaired until a new string claims it.
                oldKeys[index] = base &+ UInt64(truncatingIfNeeded: index) &+ 1
            }
            var newLeft = 0
            for position in newPassed {
                let value = words(newBits, Int(position))
                var slot = home(value), found = -1
                while table[3 &* slot] != 0 {
                    let entry = table[3 &* slot]
                    if entry != taken && table[3 &* slot &+ 1] == value.0 && table[3 &* slot &+ 2] == value.1 {
                        found = Int(truncatingIfNeeded: entry) &- 1
                        table[3 &* slot] = taken
                        break
                    }
                    slot = (slot &+ 1) & mask
                }
                if found >= 0 {
                    let key = base &+ UInt64(truncatingIfNeeded: found)
                    oldKeys[found] = key
                    newKeys[Int(position)] = key
                } else {
                    newPassed[newLeft] = position
                    newLeft &+= 1
                }
            }
            var oldLeft = 0
            for position in oldPassed where oldKeys[Int(position)] != base &+ UInt64(truncatingIfNeeded: position) {
                oldPassed[oldLeft] = position
                oldLeft &+= 1
            }
            return (oldLeft, newLeft)
        }
    }

    /// Where the walk stopped in each list, and how many strings of each it passed over unpaired.
    private struct WalkEnd {
        var old: Int, new: Int, oldUnpaired: Int, newUnpaired: Int
    }

    /// The walk of `write(old:new:base:into:)`: writes the made-up keys of the pairs it
    /// finds and the positions of the strings it passes over unpaired (room for every string
    /// of each list), and returns where it stopped (everything from there on is left unkeyed).
    /// Not inlined: in a function of its own the loop keeps its few values in registers.
    /// - Complexity: O(n + m).
    @inline(never)
    private static func walk(
        old: UnsafeBufferPointer<String>, new: UnsafeBufferPointer<String>, base: UInt64,
        oldKeys: UnsafeMutablePointer<UInt64>, newKeys: UnsafeMutablePointer<UInt64>,
        oldUnpaired: UnsafeMutablePointer<Int32>, newUnpaired: UnsafeMutablePointer<Int32>
    ) -> WalkEnd {
        let window = 4, stuck = 8, resyncReach = 512, probation = 256
        let n = old.count, m = new.count
        var end = WalkEnd(old: 0, new: 0, oldUnpaired: 0, newUnpaired: 0)
        guard n > 0, m > 0, let oldBits = UnsafeRawPointer(old.baseAddress), let newBits = UnsafeRawPointer(new.baseAddress) else {
            return end
        }
        var cursor = 0, paired = 0, missesInARow = 0, j = 0
        while j < m {
            // Most often the next old string is the one: a run of those in a loop of its own.
            let longest = Swift.min(n &- cursor, m &- j)
            var run = 0
            while run < longest && sameBits(oldBits, cursor &+ run, newBits, j &+ run) {
                let key = base &+ UInt64(truncatingIfNeeded: cursor &+ run)
                oldKeys[cursor &+ run] = key
                newKeys[j &+ run] = key
                run &+= 1
            }
            if run > 0 {
                (cursor, j, paired, missesInARow) = (cursor &+ run, j &+ run, paired &+ run, 0)
                continue
            }
            // Following mostly fails (a shuffle, or no storage shared): the rest is hashed.
            if j >= probation && paired &* 2 < j { break }
            let reach = missesInARow >= stuck ? resyncReach : window
            let windowEnd = Swift.min(cursor &+ reach, n)
            var k = cursor &+ 1
            while k < windowEnd && !sameBits(oldBits, k, newBits, j) { k &+= 1 }
            if k < windowEnd {
                while cursor < k {
                    oldUnpaired[end.oldUnpaired] = Int32(truncatingIfNeeded: cursor)
                    end.oldUnpaired &+= 1
                    cursor &+= 1
                }
                let key = base &+ UInt64(truncatingIfNeeded: k)
                oldKeys[k] = key
                newKeys[j] = key
                cursor &+= 1
                paired &+= 1
                missesInARow = 0
            } else {
                newUnpaired[end.newUnpaired] = Int32(truncatingIfNeeded: j)
                end.newUnpaired &+= 1
                missesInARow = missesInARow >= stuck ? 0 : missesInARow &+ 1
            }
            j &+= 1
        }
        (end.old, end.new) = (cursor, j)
        return end
    }
}
