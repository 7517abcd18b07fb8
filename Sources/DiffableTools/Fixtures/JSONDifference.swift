import Foundation

/// Where two JSON values first differ, for a failing fixture: the path (`batches[0].moveItems[1]`)
/// and the two values found there, so a reader sees the disagreement without diffing two long
/// lines by eye.
public struct JSONDifference: Equatable, Sendable, CustomStringConvertible {
    /// The JSON path of the first difference (empty for the root), keys in sorted order.
    public var path: String
    /// The expected value at `path` as compact JSON, or nil when it has no value there.
    public var expected: String?
    /// The actual value at `path` as compact JSON, or nil when it has no value there.
    public var actual: String?

    /// `at batches[0].moveItems: expected [[[0,2],[1,0]]], got []`.
    public var description: String {
        "at \(path.isEmpty ? "the top" : path): expected \(expected ?? "nothing"), got \(actual ?? "nothing")"
    }

    /// The first place, in sorted-key order, where the JSON documents `expected` and `actual`
    /// differ; nil when they are equal as JSON values, or when either is not JSON.
    /// - Complexity: O(size of both documents).
    public static func first(expected: Data, actual: Data) -> JSONDifference? {
        guard let expected = try? JSONSerialization.jsonObject(with: expected, options: [.fragmentsAllowed]),
            let actual = try? JSONSerialization.jsonObject(with: actual, options: [.fragmentsAllowed])
        else { return nil }
        return first(expected, actual, path: "")
    }

    private static func first(_ expected: Any, _ actual: Any, path: String) -> JSONDifference? {
        switch (expected, actual) {
        case (let expected as [String: Any], let actual as [String: Any]):
            for key in Set(expected.keys).union(actual.keys).sorted() {
                let inner = path.isEmpty ? key : "\(path).\(key)"
                guard let expectedValue = expected[key], let actualValue = actual[key] else {
                    return JSONDifference(path: inner, expected: expected[key].map(text), actual: actual[key].map(text))
                }
                if let difference = first(expectedValue, actualValue, path: inner) { return difference }
            }
            return nil
        case (let expected as [Any], let actual as [Any]):
            for index in 0..<max(expected.count, actual.count) {
                let inner = "\(path)[\(index)]"
                guard index < expected.count, index < actual.count else {
                    return JSONDifference(
                        path: inner, expected: index < expected.count ? text(expected[index]) : nil,
                        actual: index < actual.count ? text(actual[index]) : nil)
                }
                if let difference = first(expected[index], actual[index], path: inner) { return difference }
            }
            return nil
        default:
            let (expectedText, actualText) = (text(expected), text(actual))
            return expectedText == actualText ? nil : JSONDifference(path: path, expected: expectedText, actual: actualText)
        }
    }

    /// Compact JSON with sorted keys.
    private static func text(_ value: Any) -> String {
        let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes])
        return data.map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
    }
}
