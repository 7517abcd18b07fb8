import Diffable
import Foundation

/// One cross-language fixture (FIXTURES.md, format 1): two snapshots, the exact
/// expected output, and optionally pinned XXH3-64 keys.
public struct Fixture: Codable, Equatable, Sendable {
    /// Always 1 for this schema (`Tests/Fixtures/fixture.schema.json`).
    public var format: Int
    /// The file's base name: one behaviour, in words.
    public var name: String
    public var about: String
    public var old: SnapshotDocument
    public var new: SnapshotDocument
    public var expect: DiffOutcome
    /// Identifier → `0x…` XXH3-64 (seed 0) of its NFC UTF-8.
    public var keys: [String: String]?

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
        } catch {
            throw FixtureError("\(url.lastPathComponent) is not a fixture: \(error)")
        }
    }

    /// Everything this implementation disagrees with: the diff's output, the
    /// simulator's verdict on the expected batches (strict, table and collection),
    /// and the pinned keys. Empty when the fixture passes.
    /// - Complexity: O(n + s) plus the diff and the replays.
    public func problems() -> [String] {
        var problems: [String] = []
        if format != 1 { problems.append("unsupported format \(format)") }
        let actual = DiffOutcome.of(old: old, new: new)
        if actual != expect {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let text = (try? encoder.encode(actual)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
            problems.append("difference(from:) gave \(text)")
        }
        if case .batches = expect, let oldSnapshot = try? old.snapshot(side: "old"),
            let newSnapshot = try? new.snapshot(side: "new")
        {
            let difference = newSnapshot.difference(from: oldSnapshot)
            for flavor in [ListViewSimulator<String, String>.Flavor.table, .collection] {
                var view = ListViewSimulator<String, String>(flavor: flavor)
                view.reloadData(oldSnapshot)
                do {
                    try view.apply(difference)
                } catch {
                    problems.append("the \(flavor) simulator rejected the batches: \(error)")
                }
            }
        }
        for (identifier, key) in (keys ?? [:]).sorted(by: { $0.key < $1.key }) {
            let computed = "0x" + String(IdentifierKey.string(identifier), radix: 16).leftPadded(to: 16)
            if computed != key.lowercased() { problems.append("key of \(identifier.debugDescription) is \(computed), pinned \(key)") }
        }
        return problems
    }

    /// The fixture files (`*.json`, the schema excepted) below `directory`, sorted by path.
    /// - Complexity: O(files below the directory · log files).
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
