/// The six input scenarios of docs/PERFORMANCE.md (Scenarios), over identifiers 0..<n: the one workload
/// generator behind `diffable bench`, the demo, Benchmarks/ and the tests.
public enum WorkloadScenario: String, CaseIterable, Sendable {
    case churn, shuffle, reverse
    case moveOne = "move-one"
    case update, append

    /// What the scenario does to the list, in words. - Complexity: O(1).
    public var about: String {
        switch self {
        case .churn: "delete 5%, move 5% to random positions, insert 5% new"
        case .shuffle: "full random shuffle"
        case .reverse: "reverse order"
        case .moveOne: "first item moved to the end"
        case .update: "1% of items change content, same identifiers"
        case .append: "10% new items appended"
        }
    }

    /// The new order of identifiers for old order 0..<n (new identifiers are n, n+1, …).
    /// - Complexity: O(n log n).
    @inlinable  // callers get the shuffle and draws specialized for their generator
    public func newOrder(count n: Int, using generator: inout some RandomNumberGenerator) -> [Int] {
        var order = Array(0..<n)
        switch self {
        case .churn:
            // Deletes and moves pick random victims; inserts land at random places.
            let share = max(1, n / 20)
            var keep = [Bool](repeating: true, count: n)
            for _ in 0..<share { keep[Int.random(in: 0..<n, using: &generator)] = false }
            order = order.filter { keep[$0] }
            // Movers are distinct random survivors, marked rather than removed one by one
            // (removing from the array each time was O(n²), far too slow at 10^7).
            var moved = [Bool](repeating: false, count: order.count)
            var moving = [Int]()
            moving.reserveCapacity(min(share, order.count))
            while moving.count < min(share, order.count) {
                let victim = Int.random(in: 0..<order.count, using: &generator)
                if !moved[victim] {
                    moved[victim] = true
                    moving.append(order[victim])
                }
            }
            order = order.indices.compactMap { moved[$0] ? nil : order[$0] }
            let incoming = moving + Array(n..<(n + share))
            // Scatter the movers and new items by sorted random positions: O(n log n), not O(n²).
            let positions = incoming.map { _ in Int.random(in: 0...order.count, using: &generator) }
            let placed = zip(positions, incoming).sorted { $0.0 < $1.0 }
            var result: [Int] = []
            result.reserveCapacity(order.count + incoming.count)
            var next = 0
            for (index, element) in order.enumerated() {
                while next < placed.count && placed[next].0 == index {
                    result.append(placed[next].1)
                    next += 1
                }
                result.append(element)
            }
            while next < placed.count {
                result.append(placed[next].1)
                next += 1
            }
            return result
        case .shuffle: order.shuffle(using: &generator)
        case .reverse: order.reverse()
        case .moveOne: if n > 1 { order.append(order.removeFirst()) }
        case .update: break
        case .append: order += n..<(n + max(1, n / 10))
        }
        return order
    }
}

/// Key types of the workloads: Swift `Int`, or 16-byte strings "item-%011d".
public enum WorkloadKeyKind: String, CaseIterable, Sendable {
    case int, string

    /// The string identifier of integer `id`: "item-%011d". - Complexity: O(1).
    public static func name(_ id: Int) -> String {
        guard (0..<100_000_000_000).contains(id) else {
            let digits = String(id)
            return "item-" + String(repeating: "0", count: max(0, 11 - digits.count)) + digits
        }
        // Written as bytes: 10^7 names in a fraction of the time concatenation takes.
        return String(unsafeUninitializedCapacity: 16) { buffer in
            for (offset, byte) in "item-".utf8.enumerated() { buffer[offset] = byte }
            var rest = id
            for digit in stride(from: 15, through: 5, by: -1) {
                buffer[digit] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            return 16
        }
    }
}
