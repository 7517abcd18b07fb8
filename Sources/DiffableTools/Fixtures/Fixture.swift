import Diffable
import DiffableTesting
import Foundation

/// One cross-language fixture (FIXTURES.md, format 1): two snapshots (or two outlines,
/// docs/FIXTURES.md), the exact expected output, and optionally pinned XXH3-64 keys.
public struct Fixture: Codable, Equatable, Sendable {
    /// Always 1 for this schema (`Tests/Fixtures/fixture.schema.json`).
    public var format: Int
    /// The file's base name: one behaviour, in words.
    public var name: String
    public var about: String
    public var old: FixtureDocument
    public var new: FixtureDocument
    public var expect: DiffOutcome
    /// Identifier → `0x…` XXH3-64 (seed 0) of its NFC UTF-8.
    public var keys: [String: String]?
    /// The steps `expect` pins (`expect.steps`): the batches applied one change at a time, in
    /// the order docs/ALGORITHM.md specifies. Nil for a fixture that expects an error.
    public var expectedSteps: [ListStep]?

    enum CodingKeys: String, CodingKey { case format, name, about, old, new, expect, keys }

    /// Reads a fixture file.
    /// - Throws: a readable error naming the file when it is unreadable or not a fixture.
    /// - Complexity: O(file size) plus decoding.
    public init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw FixtureError("cannot read \(url.path): \(error.localizedDescription)")
        }
        do {
            self = try JSONDecoder().decode(Fixture.self, from: data)
            expectedSteps = try FixtureSteps.read(from: data)
        } catch let error as DecodingError {
            throw FixtureError("\(url.lastPathComponent) is not a fixture (docs/FIXTURES.md): \(Self.describe(error))")
        } catch {
            throw FixtureError("\(url.lastPathComponent) is not a fixture (docs/FIXTURES.md): \(error)")
        }
    }

    /// Everything this implementation disagrees with: the diff's output (of the visible
    /// rows, for outlines), the simulator's verdict on the expected batches (strict,
    /// table and collection), and the pinned keys. Empty when the fixture passes.
    /// - Complexity: O(n + s) plus the diff and the replays.
    public func problems() -> [String] {
        var problems: [String] = []
        if format != 1 { problems.append("unsupported format \(format)") }
        switch (old, new) {
        case (.sections(let old), .sections(let new)):
            problems += Self.problems(expect: expect, actual: DiffOutcome.of(old: old, new: new))
            if case .batches = expect, let oldSnapshot = try? old.snapshot(side: "old"), let newSnapshot = try? new.snapshot(side: "new") {
                let difference = newSnapshot.difference(from: oldSnapshot)
                problems += Self.simulatorProblems(old: oldSnapshot, difference: difference)
                problems += stepProblems(difference.steps)
            }
        case (.outline(let old), .outline(let new)):
            problems += Self.problems(expect: expect, actual: DiffOutcome.of(old: old, new: new))
            if case .batches = expect, let oldOutline = try? old.sectionSnapshot(side: "old"),
                let newOutline = try? new.sectionSnapshot(side: "new")
            {
                var oldRows = DiffableDataSourceSnapshot<String, String>()
                oldRows.appendSections(["0"])
                oldRows.appendItems(oldOutline.visibleItems)
                let difference = newOutline.difference(from: oldOutline, inSection: "0")
                problems += Self.simulatorProblems(old: oldRows, difference: difference)
                problems += stepProblems(difference.steps)
            }
        default:
            problems.append("old and new must both be snapshots of sections or both outlines")
        }
        for (identifier, key) in (keys ?? [:]).sorted(by: { $0.key < $1.key }) {
            let computed = "0x" + String(IdentifierKey.string(identifier), radix: 16).leftPadded(to: 16)
            if computed != key.lowercased() { problems.append("key of \(identifier.debugDescription) is \(computed), pinned \(key)") }
        }
        return problems
    }

    /// Whether the difference's steps are the ones `expect.steps` pins (every fixture with batches has them).
    private func stepProblems(_ steps: [ListStep]) -> [String] {
        guard let expectedSteps else { return ["expect has batches but no steps"] }
        return FixtureSteps.firstDifference(expected: expectedSteps, actual: steps).map { [$0] } ?? []
    }

    /// The first JSON path where `actual` differs from `expect`, then both whole objects.
    private static func problems(expect: DiffOutcome, actual: DiffOutcome) -> [String] {
        guard actual != expect else { return [] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let (expectData, actualData) = ((try? encoder.encode(expect)) ?? Data(), (try? encoder.encode(actual)) ?? Data())
        let place = JSONDifference.first(expected: expectData, actual: actualData).map { " \($0)" } ?? ""
        return [
            "difference(from:) differs from expect\(place)",
            "expect:            \(String(decoding: expectData, as: UTF8.self))",
            "difference(from:): \(String(decoding: actualData, as: UTF8.self))",
        ]
    }

    /// What the strict simulator, as a table and as a collection view, says of `difference` shown over `old`.
    private static func simulatorProblems(
        old: DiffableDataSourceSnapshot<String, String>, difference: SnapshotDifference<String, String>
    ) -> [String] {
        var problems: [String] = []
        for flavor in [ListViewSimulator<String, String>.Flavor.table, .collection] {
            var view = ListViewSimulator<String, String>(flavor: flavor)
            view.reloadData(old)
            do {
                try view.apply(difference)
            } catch {
                problems.append("the \(flavor) simulator rejected the batches: \(error)")
            }
        }
        return problems
    }

    /// The fixture files (`*.json`, the schema excepted) below `directory`, sorted by path.
    /// - Complexity: O(files below the directory · log files).
    /// A decoding error in words: what is missing or wrong, and where (`expect.batches[0]`).
    /// - Complexity: O(length of the coding path).
    static func describe(_ error: DecodingError) -> String {
        func place(_ path: [any CodingKey]) -> String {
            guard !path.isEmpty else { return "at the top level" }
            let text = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return "at " + (text.hasPrefix(".") ? String(text.dropFirst()) : text)
        }
        func underlying(_ context: DecodingError.Context) -> String {
            context.underlyingError.map { ": \(($0 as NSError).userInfo[NSDebugDescriptionErrorKey] ?? $0)" } ?? ""
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "the key \"\(key.stringValue)\" is missing \(place(context.codingPath))"
        case .valueNotFound(let type, let context):
            return "expected \(type) \(place(context.codingPath)), found null"
        case .typeMismatch(let type, let context):
            return "expected \(type) \(place(context.codingPath)) (\(context.debugDescription))"
        case .dataCorrupted(let context):
            return "\(context.debugDescription) \(place(context.codingPath))\(underlying(context))"
        @unknown default:
            return "\(error)"
        }
    }

    /// The fixtures a path names: the file itself, or every `*.json` under a directory (except
    /// `*.schema.json`), sorted by path.
    /// - Complexity: O(files under the path).
    public static func files(at path: URL) throws -> [URL] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isDirectory) else {
            throw FixtureError("no such file or directory: \(path.path)")
        }
        return isDirectory.boolValue ? try files(in: path) : [path]
    }

    /// Every `*.json` under `directory` (searched recursively) except `*.schema.json`, sorted by path.
    /// - Complexity: O(files under the directory).
    public static func files(in directory: URL) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            throw FixtureError("cannot list \(directory.path)")
        }
        let files = walker.compactMap { $0 as? URL }
            .filter { $0.pathExtension == "json" && !$0.lastPathComponent.hasSuffix(".schema.json") }
        return files.sorted { $0.path < $1.path }
    }
}

/// A fixture that cannot be read.
public struct FixtureError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
