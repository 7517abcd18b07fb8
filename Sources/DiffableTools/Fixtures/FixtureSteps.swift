import Diffable
import Foundation

/// The steps a fixture pins (`expect.steps`, docs/FIXTURES.md): JSON lists such as
/// `["moveItem", [0, 2], [1, 0]]` or `["deleteSection", 3]`, read as ``ListStep``s.
enum FixtureSteps {
    /// The `expect.steps` of a fixture file's JSON, nil when it has none (a rejected input).
    /// - Throws: a ``FixtureError`` naming the step that is not one.
    /// - Complexity: O(steps).
    static func read(from data: Data) throws -> [ListStep]? {
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let expect = root["expect"] as? [String: Any], let steps = expect["steps"] as? [Any]
        else { return nil }
        return try steps.enumerated().map { index, value in
            guard let step = value as? [Any], let kind = step.first as? String, let listed = ListStep(kind, Array(step.dropFirst()))
            else { throw FixtureError("expect.steps[\(index)] is not a step: \(value)") }
            return listed
        }
    }

    /// Where `actual` first departs from `expected`, nil when they are equal.
    /// - Complexity: O(steps).
    static func firstDifference(expected: [ListStep], actual: [ListStep]) -> String? {
        guard expected != actual else { return nil }
        let at = (0..<min(expected.count, actual.count)).first { expected[$0] != actual[$0] } ?? min(expected.count, actual.count)
        func show(_ steps: [ListStep]) -> String { at < steps.count ? "\(steps[at])" : "nothing" }
        return
            "steps differ at [\(at)]: expected \(show(expected)), got \(show(actual)) (\(expected.count) expected, \(actual.count) listed)"
    }
}

extension ListStep {
    /// A step from its fixture form; nil when the kind or arguments do not fit.
    /// - Complexity: O(1).
    fileprivate init?(_ kind: String, _ arguments: [Any]) {
        func index(_ k: Int) -> Int? { k < arguments.count ? arguments[k] as? Int : nil }
        func path(_ k: Int) -> IndexPath? {
            guard k < arguments.count, let pair = arguments[k] as? [Int], pair.count == 2 else { return nil }
            return IndexPath(item: pair[1], section: pair[0])
        }
        switch (kind, arguments.count) {
        case ("deleteSection", 1):
            guard let s = index(0) else { return nil }
            self = .deleteSection(s)
        case ("insertSection", 1):
            guard let s = index(0) else { return nil }
            self = .insertSection(s)
        case ("reloadSection", 1):
            guard let s = index(0) else { return nil }
            self = .reloadSection(s)
        case ("moveSection", 2):
            guard let a = index(0), let b = index(1) else { return nil }
            self = .moveSection(from: a, to: b)
        case ("deleteItem", 1):
            guard let p = path(0) else { return nil }
            self = .deleteItem(p)
        case ("insertItem", 1):
            guard let p = path(0) else { return nil }
            self = .insertItem(p)
        case ("reloadItem", 1):
            guard let p = path(0) else { return nil }
            self = .reloadItem(p)
        case ("reconfigureItem", 1):
            guard let p = path(0) else { return nil }
            self = .reconfigureItem(p)
        case ("moveItem", 2):
            guard let a = path(0), let b = path(1) else { return nil }
            self = .moveItem(from: a, to: b)
        default: return nil
        }
    }
}
