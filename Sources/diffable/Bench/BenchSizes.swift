import Foundation

/// `--sizes`: list sizes written as `1000`, `1_000_000`, `1e7`, `10^6`, `2.5e5`, `100k`, `1M`,
/// or a decade range `1e3..1e7` (every power of ten from one to the other).
enum BenchSizes {
    /// The sizes in `text`, in the order given; nil for a word that is not a size.
    /// - Throws: ``BenchError`` naming the first word that is not a positive whole number.
    static func parse(_ text: String) throws -> [Int] {
        var sizes: [Int] = []
        for word in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if let range = word.range(of: "..") {
                guard let low = size(String(word[..<range.lowerBound])), let high = size(String(word[range.upperBound...])), low <= high
                else { throw BenchError("--sizes: '\(word)' is not a range like 1e3..1e7") }
                var next = low
                while next <= high {
                    sizes.append(next)
                    if next > Int.max / 10 { break }
                    next *= 10
                }
            } else {
                guard let value = size(word) else {
                    throw BenchError("--sizes: '\(word)' is not a list size (examples: 1000, 1e7, 10^6, 100k, 1M)")
                }
                sizes.append(value)
            }
        }
        guard !sizes.isEmpty else { throw BenchError("--sizes is empty: give at least one size") }
        return sizes
    }

    /// One size, or nil. - Complexity: O(length).
    static func size(_ word: String) -> Int? {
        var text = word.replacingOccurrences(of: "_", with: "").lowercased()
        var multiplier = 1.0
        if let last = text.last, let scale = ["k": 1e3, "m": 1e6, "g": 1e9][String(last)] {
            multiplier = scale
            text.removeLast()
        }
        let value: Double?
        if let caret = text.firstIndex(of: "^") {
            guard let base = Double(text[..<caret]), let exponent = Double(text[text.index(after: caret)...]) else { return nil }
            value = pow(base, exponent)
        } else {
            value = Double(text)
        }
        guard let value, value.isFinite else { return nil }
        let total = value * multiplier
        guard total >= 1, total < 9e18, total == total.rounded() else { return nil }
        return Int(total)
    }

    /// "10^6" for powers of ten from 10^3, the plain number otherwise. - Complexity: O(1).
    static func label(_ count: Int) -> String {
        var power = 0, rest = count
        while rest >= 10 && rest % 10 == 0 {
            rest /= 10
            power += 1
        }
        return rest == 1 && power >= 3 ? "10^\(power)" : "\(count)"
    }
}
