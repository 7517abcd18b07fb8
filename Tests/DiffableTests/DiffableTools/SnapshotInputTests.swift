import Diffable
import DiffableTools
import Foundation
import Testing

/// The CLI's input path (SnapshotReader: simdjson + the identifier interner, the TSV reader)
/// against the reference path (JSONDecoder, `SnapshotDocument`, String snapshots): the same
/// documents, the same diffs and error objects, and invalid input located to the byte.
@Suite struct SnapshotInputTests {
    static let fixtures: [URL] = FixtureTests.files

    /// Reads documents through one reader, as `diffable diff` does.
    static func read(_ texts: [(bytes: [UInt8], format: SnapshotInputFormat)], lenient: Bool = false) throws(SnapshotInputError)
        -> (documents: [NumberedSnapshotDocument], names: IdentifierInterner)
    {
        let names = IdentifierInterner()
        let reader = SnapshotReader(interner: names)
        var documents: [NumberedSnapshotDocument] = []
        for (index, text) in texts.enumerated() {
            documents.append(
                try reader.document(from: SnapshotInputBytes(text.bytes, source: "input\(index)"), format: text.format, lenient: lenient))
        }
        return (documents, names)
    }

    /// The outcome `diffable diff` computes for two inputs.
    static func outcome(_ old: [UInt8], _ new: [UInt8], format: SnapshotInputFormat = .json) throws -> DiffOutcome {
        let (documents, names) = try read([(old, format), (new, format)])
        switch try NumberedSnapshotDocument.snapshots(old: documents[0], new: documents[1], names: names) {
        case .success(let pair): return .batches(pair.new.difference(from: pair.old).batches)
        case .failure(let error): return .error(error)
        }
    }

    static func json(_ document: SnapshotDocument) throws -> [UInt8] { Array(try JSONEncoder().encode(document)) }

    /// The error for `text` read as `format`, or nil when it is accepted.
    static func error(_ text: String, _ format: SnapshotInputFormat = .json, lenient: Bool = false) -> SnapshotInputError? {
        error(Array(text.utf8), format, lenient: lenient)
    }

    static func error(_ bytes: [UInt8], _ format: SnapshotInputFormat = .json, lenient: Bool = false) -> SnapshotInputError? {
        do {
            _ = try read([(bytes, format)], lenient: lenient)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Every fixture, both paths

    @Test(arguments: fixtures)
    func fixtureThroughTheFastPath(_ file: URL) throws {
        let fixture = try Fixture(contentsOf: file)
        guard case .sections(let old) = fixture.old, case .sections(let new) = fixture.new else {
            guard case .outline(let old) = fixture.old, case .outline(let new) = fixture.new else {
                Issue.record("\(file.lastPathComponent): old and new are not the same kind of document")
                return
            }
            // `diff` takes snapshots of sections: an outline document is refused with an error
            // naming its key, and the outline path (`fixtures verify`) gives the expected outcome.
            for document in [old, new] {
                let error = Self.error(Array(try JSONEncoder().encode(document)))
                #expect(error.map { "\($0)".contains("\"outline\"") } == true, "\(file.lastPathComponent): \(String(describing: error))")
            }
            #expect(DiffOutcome.of(old: old, new: new) == fixture.expect, "\(file.lastPathComponent)")
            return
        }
        let (documents, names) = try Self.read([(try Self.json(old), .json), (try Self.json(new), .json)])
        #expect(documents[0].document(names: names) == old)
        #expect(documents[1].document(names: names) == new)
        #expect(try Self.outcome(Self.json(old), Self.json(new)) == fixture.expect, "\(file.lastPathComponent)")
        // The hand-written writer's form reads back the same, and so does TSV where it can say it.
        let written = try Self.read([(SnapshotFileWriter.json(old), .json)])
        #expect(written.documents[0].document(names: written.names) == old)
        if Self.fitsTSV(old) && Self.fitsTSV(new) {
            #expect(try Self.outcome(SnapshotFileWriter.tsv(old), SnapshotFileWriter.tsv(new), format: .tsv) == fixture.expect)
        }
    }

    /// TSV has no refresh requests and cannot write TAB, CR, LF, an empty item or two
    /// neighbouring sections with one identifier.
    static func fitsTSV(_ document: SnapshotDocument) -> Bool {
        let identifiers = document.sections.map(\.id) + document.sections.flatMap(\.items)
        return document.reloadItems.isEmpty && document.reconfigureItems.isEmpty && document.reloadSections.isEmpty
            && !identifiers.contains { $0.contains { "\t\r\n".contains($0) } }
            && !document.sections.contains { $0.items.contains("") }
            && !zip(document.sections, document.sections.dropFirst()).contains { $0.id == $1.id }
    }

    @Test func theWriterMatchesJSONEncoderOnEveryFixtureOutcome() throws {
        var compared = 0
        for file in Self.fixtures {
            let expect = try Fixture(contentsOf: file).expect
            #expect(try OutcomeJSON.encode(expect) == Array(OutcomeJSON.foundation(expect)), "\(file.lastPathComponent)")
            compared += 1
        }
        #expect(compared >= 100)
    }

    // MARK: - Identifiers

    @Test func canonicallyEquivalentSpellingsAreOneIdentifier() throws {
        // é precomposed and decomposed, the Kelvin sign and K, Å as one scalar and as A + ring.
        let old = SnapshotDocument(sections: [.init(id: "S", items: ["caf\u{E9}", "K", "A\u{30A}", "x"])])
        let new = SnapshotDocument(sections: [.init(id: "S", items: ["x", "\u{C5}", "\u{212A}", "cafe\u{301}"])])
        let outcome = try Self.outcome(Self.json(old), Self.json(new))
        #expect(outcome == DiffOutcome.of(old: old, new: new))
        guard case .batches(let batches) = outcome else {
            Issue.record("rejected: \(outcome)")
            return
        }
        #expect(batches.count == 1 && batches[0].insertItems.isEmpty && batches[0].deleteItems.isEmpty && !batches[0].moveItems.isEmpty)
        // Two spellings in one snapshot are a duplicate, named as written.
        let twice = SnapshotDocument(sections: [.init(id: "S", items: ["caf\u{E9}", "cafe\u{301}"])])
        #expect(try Self.outcome(Self.json(twice), Self.json(new)) == DiffOutcome.of(old: twice, new: new))
    }

    @Test func numbersAreDenseInFirstAppearanceOrderAndSharedByBothDocuments() throws {
        let (documents, names) = try Self.read([
            (Array(#"{"sections":[{"id":"S","items":["a","b"]}],"reloadItems":["b"]}"#.utf8), .json),
            (Array("T\tb\nT\tc\nS\t\n".utf8), .tsv),
        ])
        #expect(names.count == 5)
        #expect((0..<5).map(names.string) == ["S", "a", "b", "T", "c"])
        #expect(documents[0] == NumberedSnapshotDocument(sections: [0], sectionItemEnds: [2], items: [1, 2], reloadItems: [2]))
        #expect(documents[1] == NumberedSnapshotDocument(sections: [3, 0], sectionItemEnds: [2, 2], items: [2, 4]))
        #expect(names.canonicalNumbers() == nil)
    }

    @Test func duplicatesAndUnknownRequestsGiveTheReferenceErrorObject() throws {
        let cases: [(SnapshotDocument, SnapshotDocument)] = [
            (.init(sections: [.init(id: "S", items: ["a", "b"]), .init(id: "T", items: ["c", "a"])]), .init(sections: [])),
            (.init(sections: [.init(id: "S", items: []), .init(id: "S", items: ["a", "a"])]), .init(sections: [])),
            (.init(sections: []), .init(sections: [.init(id: "S", items: ["a"])], reloadItems: ["z", "a", "z"], reloadSections: ["Q"])),
            (.init(sections: [.init(id: "S", items: ["a"])]), .init(sections: [.init(id: "S", items: ["a"])], reconfigureItems: ["S"])),
        ]
        for (old, new) in cases {
            let reference = DiffOutcome.of(old: old, new: new)
            guard case .error = reference else {
                Issue.record("the case is valid: \(old) \(new)")
                continue
            }
            #expect(try Self.outcome(Self.json(old), Self.json(new)) == reference)
        }
    }

    // MARK: - JSON errors: where and what

    @Test(arguments: [
        (#"{"sections": ["#, 1, 15, "expected a section object"),
        ("{\"sections\": [\n  {\"id\": \"S\", \"items\": [\"a\" \"b\"]}]}", 2, 29, "expected ',' or ']' after element 0"),
        (#"{"sections": [{"id": 7, "items": []}]}"#, 1, 22, "expected a string (an identifier), found a number"),
        (#"{"sections": [{"id": "S"}]}"#, 1, 15, "missing key \"items\""),
        (#"{"sections": [], "reloadItem": []}"#, 1, 18, "did you mean \"reloadItems\""),
        (#"{"sections": [], "sections": []}"#, 1, 18, "appears twice"),
        (#"{"reloadItems": []}"#, 1, 1, "missing key \"sections\""),
        (#"{"sections": []} x"#, 1, 18, "expected the end of input"),
        (#"{"sections": [{"id": "S"#, 1, 24, "expected '\"' to close the string, found the end of input"),
        (#"{"sections": [{"id": "\q", "items": []}]}"#, 1, 24, "expected an escape"),
        (#"{"sections": [{"id": "\uDC00", "items": []}]}"#, 1, 29, "expected a high surrogate"),
        (#"[]"#, 1, 1, "expected an object"),
        ("", 1, 1, "found the end of input"),
        ("{\"sections\": [{\"id\": \"a\tb\", \"items\": []}]}", 1, 24, "control characters"),
    ])
    func invalidJSONIsLocated(_ text: String, line: Int, column: Int, words: String) throws {
        let error = try #require(Self.error(text), "accepted: \(text)")
        #expect(error.source == "input0")
        #expect(error.location?.line == line && error.location?.column == column, "\(error)")
        #expect(error.message.contains(words), "\(error)")
        #expect(!error.description.contains("\n"))
    }

    @Test func bytesThatAreNotUTF8AreNamedWithTheirOffset() throws {
        var bytes = Array(#"{"sections": [{"id": "ok", "items": ["a"#.utf8)
        let offset = bytes.count
        bytes += [0xC3, 0x28] + Array(#""]}]}"#.utf8)
        let error = try #require(Self.error(bytes))
        #expect(error.location?.byteOffset == offset)
        #expect(error.message.contains("0xC3") && error.message.contains("expected UTF-8"))
        #expect(Self.error(bytes, .tsv)?.location?.byteOffset == offset)
        // An overlong form and an encoded surrogate are not UTF-8 either.
        #expect(Self.error([0x53, 0x09, 0xC0, 0xAF], .tsv)?.location?.byteOffset == 2)
        #expect(Self.error([0x53, 0x09, 0xED, 0xA0, 0x80], .tsv)?.location?.byteOffset == 2)
    }

    /// simdjson decides what is invalid and the diagnosis says where: for thousands of damaged
    /// documents, every rejection comes with a location (the diagnosis found the same problem
    /// kind), never the unlocated fallback.
    @Test func everyRejectionOfADamagedDocumentIsLocated() {
        let base = Array(
            #"{"sections": [{"id": "S", "items": ["a", "b\u00e9", "c\n"]}, {"id": "T", "items": []}], "reloadItems": ["a"]}"#.utf8)
        let alphabet = Array(#"{}[],:"\xu0 tfn1."#.utf8) + [0x80, 0xC3, 0xFF, 0x09]
        var generator = SeededGenerator(seed: 11)
        var rejected = 0
        for round in 0..<4_000 {
            var bytes = base
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let at = Int.random(in: 0...bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0 where at < bytes.count: bytes.remove(at: at)
                case 1: bytes.insert(alphabet.randomElement(using: &generator)!, at: at)
                default: if at < bytes.count { bytes[at] = alphabet.randomElement(using: &generator)! }
                }
            }
            let lenient = round % 2 == 0
            guard let error = Self.error(bytes, lenient: lenient) else { continue }
            rejected += 1
            #expect(error.location != nil, "round \(round): \(error) for \(String(decoding: bytes, as: UTF8.self).debugDescription)")
            if error.location == nil { return }
        }
        #expect(rejected > 2_000)
    }

    @Test func lenientReadingSkipsUnknownKeysButNotBrokenJSON() throws {
        let unknown = #"{"sections": [{"id": "S", "items": ["a"], "colour": {"deep": [1, 2.5e3, true, null]}}], "x": "y"}"#
        #expect(Self.error(unknown)?.message.contains("unknown key \"colour\"") == true)
        #expect(Self.error(unknown, lenient: true) == nil)
        let (documents, names) = try Self.read([(Array(unknown.utf8), .json)], lenient: true)
        #expect(documents[0].document(names: names) == SnapshotDocument(sections: [.init(id: "S", items: ["a"])]))
        #expect(Self.error(#"{"sections": [], "x": [1 2]}"#, lenient: true)?.message.contains("expected ',' or ']'") == true)
    }

    // MARK: - TSV

    @Test func tsvReadsSectionsInOrder() throws {
        let text = "A\t1\r\nA\t2\nB\t\nC\t3\nC\t4"
        let (documents, names) = try Self.read([(Array(text.utf8), .tsv)])
        #expect(
            documents[0].document(names: names)
                == SnapshotDocument(sections: [
                    .init(id: "A", items: ["1", "2"]), .init(id: "B", items: []), .init(id: "C", items: ["3", "4"]),
                ]))
        #expect(try Self.read([([], .tsv)]).documents[0].sections.isEmpty)
    }

    @Test(arguments: [
        ("A\t1\nA\t2\tx\n", 2, 4, "a second TAB"),
        ("A\t1\nno tab here\n", 2, 12, "no TAB in the line"),
        ("A\t1\n\nA\t2\n", 2, 1, "an empty line"),
        ("A\t1\rx\n", 1, 4, "a CR inside the line"),
    ])
    func invalidTSVIsLocated(_ text: String, line: Int, column: Int, words: String) throws {
        let error = try #require(Self.error(text, .tsv), "accepted: \(text.debugDescription)")
        #expect(error.location?.line == line && error.location?.column == column, "\(error)")
        #expect(error.message.contains(words), "\(error)")
    }

    @Test func aSectionThatComesBackIsADuplicateSection() throws {
        let outcome = try Self.outcome(Array("A\t1\nB\t2\nA\t3\n".utf8), [], format: .tsv)
        #expect(
            outcome == .error(DocumentError(kind: .duplicateSection, snapshot: "old", identifiers: ["A"], positions: [[[0], [2]]])))
    }

    // MARK: - Bytes, forms, output

    @Test func filesOfEverySizeAroundAPageAreReadWhole() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-input-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The mapped file's padding: past the end of its last page, or in a page of its own.
        for size in [4096 - 65, 4096 - 64, 4096 - 1, 4096, 8192, 3 * 4096 + 1] {
            let prefix = #"{"sections": [{"id": "S", "items": [""#
            let suffix = #""]}]}"#
            let text = prefix + String(repeating: "x", count: size - prefix.utf8.count - suffix.utf8.count) + suffix
            let path = directory.appendingPathComponent("\(size).json").path
            #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
            let input = try SnapshotInputBytes(contentsOf: path)
            #expect(input.count == size && input.source == path)
            let document = try SnapshotReader(interner: IdentifierInterner()).document(from: input, format: .json)
            #expect(document.items.count == 1)
        }
        #expect(throws: SnapshotInputError.self) { try SnapshotInputBytes(contentsOf: directory.appendingPathComponent("missing").path) }
        let notAFile = try #require(throws: SnapshotInputError.self) { try SnapshotInputBytes(contentsOf: directory.path) }
        #expect(notAFile.message.contains("directory"))
    }

    @Test func theFormIsTakenFromTheNameElseFromTheFirstByte() {
        func detect(_ path: String, _ text: String) -> SnapshotInputFormat {
            Array(text.utf8).withUnsafeBufferPointer { SnapshotInputFormat.detect(path: path, bytes: $0) }
        }
        #expect(detect("a.TSV", "{") == .tsv)
        #expect(detect("a.json", "S\tx") == .json)
        #expect(detect("stdin", " \n {\"sections\": []}") == .json)
        #expect(detect("stdin", "S\tx\n") == .tsv)
        #expect(detect("stdin", "") == .tsv)
    }

    @Test func stepLinesNameEachStepAndItsIndices() throws {
        let steps: [ListStep] = [
            .deleteItem(IndexPath(item: 7, section: 0)), .deleteSection(2), .moveSection(from: 3, to: 1),
            .insertSection(0), .moveItem(from: IndexPath(item: 5, section: 2), to: IndexPath(item: 1, section: 0)),
            .insertItem(IndexPath(item: 0, section: 1)), .reloadSection(4), .reloadItem(IndexPath(item: 2, section: 3)),
            .reconfigureItem(IndexPath(item: 9, section: 1)),
        ]
        let text = String(decoding: StepLines.encode(steps), as: UTF8.self)
        #expect(
            text == """
                deleteItem 0 7
                deleteSection 2
                moveSection 3 1
                insertSection 0
                moveItem 2 5 0 1
                insertItem 1 0
                reloadSection 4
                reloadItem 3 2
                reconfigureItem 1 9

                """)
    }
}
