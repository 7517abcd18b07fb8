import Diffable
import Foundation

@testable import DiffableTools

/// libFuzzer target for `diffable diff`'s input (docs/CLI_IO.md): the bytes are read as
/// JSON (strict and lenient, simdjson in CSources/CSnapshotJSON, the diagnosis pass on
/// rejection) and as TSV, every identifier numbered by one interner. Oracles: a rejection
/// names a line, column and byte offset inside the input; a document is consistent (one
/// item end per section, ascending, the last one the item count; every number interned);
/// strict acceptance implies lenient acceptance of the same document; simdjson and the
/// diagnosis pass agree on what is valid; a document written back out (JSON, and TSV when
/// it can hold it) reads back the same; the snapshot built from numbers equals the one
/// built from the identifiers' strings, or both fail with the same error object.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSnapshotInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let names = IdentifierInterner()
    let reader = SnapshotReader(interner: names)
    let input = SnapshotInputBytes(bytes, source: "fuzz")
    let strict = InputRead(reader, input, .json, lenient: false)
    let lenient = InputRead(reader, input, .json, lenient: true)
    let tsv = InputRead(reader, input, .tsv, lenient: false)
    for read in [strict, lenient, tsv] { read.check(bytes, names: names) }
    if let document = strict.document {
        fuzzCheck(
            lenient.document == document, "strict JSON accepted what lenient JSON read differently: \(String(describing: lenient.result))")
    }
    for read in [strict, lenient] where read.document != nil {
        let diagnosis = SnapshotInputDiagnosis.diagnose(bytes, source: "fuzz", lenient: read.lenient)
        fuzzCheck(diagnosis == nil, "simdjson accepted what the diagnosis rejects (lenient: \(read.lenient)): \(diagnosis!)")
    }
    for document in [lenient.document, tsv.document].compactMap({ $0 }) {
        checkRoundTrips(document, reader: reader, names: names)
        checkBuild(document, names: names)
    }
    return 0
}

/// One way of reading the input and what it gave.
struct InputRead {
    let format: SnapshotInputFormat
    let lenient: Bool
    let result: Result<NumberedSnapshotDocument, SnapshotInputError>

    init(_ reader: SnapshotReader, _ input: SnapshotInputBytes, _ format: SnapshotInputFormat, lenient: Bool) {
        self.format = format
        self.lenient = lenient
        do throws(SnapshotInputError) {
            result = .success(try reader.document(from: input, format: format, lenient: lenient))
        } catch {
            result = .failure(error)
        }
    }

    var document: NumberedSnapshotDocument? { try? result.get() }

    func check(_ bytes: UnsafeBufferPointer<UInt8>, names: IdentifierInterner) {
        let form = "\(format)\(lenient ? " (lenient)" : "")"
        switch result {
        case .failure(let error):
            guard let location = error.location else { return fuzzCheck(false, "\(form): an error without a location: \(error)") }
            fuzzCheck((0...bytes.count).contains(location.byteOffset), "\(form): offset outside the input: \(error)")
            fuzzCheck(location == .init(of: location.byteOffset, in: bytes), "\(form): line and column do not match the offset: \(error)")
            fuzzCheck(!error.message.isEmpty, "\(form): an error without a message")
        case .success(let document):
            let ends = document.sectionItemEnds
            fuzzCheck(ends.count == document.sections.count, "\(form): \(ends.count) item ends for \(document.sections.count) sections")
            fuzzCheck(zip([0] + ends, ends).allSatisfy { $0 <= $1 }, "\(form): item ends not ascending: \(ends)")
            fuzzCheck((ends.last ?? 0) == document.items.count, "\(form): the last item end is not the item count")
            let numbers = [document.sections, document.items, document.reloadItems, document.reconfigureItems, document.reloadSections]
            fuzzCheck(numbers.joined().allSatisfy { Int($0) < names.count }, "\(form): an identifier number out of range")
        }
    }
}

/// Writes `document` back out as JSON (and as TSV when that form can hold it) and reads it again.
func checkRoundTrips(_ document: NumberedSnapshotDocument, reader: SnapshotReader, names: IdentifierInterner) {
    let written = document.document(names: names)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    guard let json = try? encoder.encode(written) else { return fuzzCheck(false, "JSONEncoder failed on \(written)") }
    let again = InputRead(reader, SnapshotInputBytes(json, source: "rewritten"), .json, lenient: false)
    fuzzCheck(
        again.document == document, "JSON written back reads differently: \(String(decoding: json, as: UTF8.self)) -> \(again.result)")
    let identifiers = written.sections.flatMap { [$0.id] + $0.items }
    let tsvCanHoldIt =
        written.reloadItems.isEmpty && written.reconfigureItems.isEmpty && written.reloadSections.isEmpty
        && !identifiers.contains { $0.utf8.contains { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D } }
        && !written.sections.contains { $0.items.contains("") }
        && zip(document.sections, document.sections.dropFirst()).allSatisfy { $0 != $1 }
    guard tsvCanHoldIt else { return }
    var tsv = ""
    for section in written.sections {
        for item in section.items.isEmpty ? [""] : section.items { tsv += section.id + "\t" + item + "\n" }
    }
    let tsvAgain = InputRead(reader, SnapshotInputBytes(Array(tsv.utf8), source: "rewritten.tsv"), .tsv, lenient: false)
    fuzzCheck(tsvAgain.document == document, "TSV written back reads differently: \(tsv.debugDescription) -> \(tsvAgain.result)")
}

/// The snapshot from numbers must be the snapshot from strings, or fail the same way.
func checkBuild(_ document: NumberedSnapshotDocument, names: IdentifierInterner) {
    let written = document.document(names: names)
    let fromStrings = Result { () throws(DocumentError) in try written.snapshot(side: "old") }
    let fromNumbers: Result<DiffableDataSourceSnapshot<Int, Int>, any Error> = Result {
        try document.snapshot(side: "old", canonical: names.canonicalNumbers(), names: names)
    }
    switch (fromStrings, fromNumbers) {
    case (.success(let strings), .success(let numbers)):
        fuzzCheck(numbers.sectionIdentifiers.map(names.string) == strings.sectionIdentifiers, "numbered sections differ from \(written)")
        fuzzCheck(numbers.itemIdentifiers.map(names.string) == strings.itemIdentifiers, "numbered items differ from \(written)")
        fuzzCheck(
            numbers.sectionIdentifiers.map(numbers.numberOfItems) == strings.sectionIdentifiers.map(strings.numberOfItems),
            "numbered section sizes differ from \(written)")
        fuzzCheck(numbers.reloadedItemIdentifiers.map(names.string) == strings.reloadedItemIdentifiers, "reloadItems differ")
    case (.failure(let stringError), .failure(let numberError)):
        fuzzCheck((numberError as? DocumentError) == stringError, "error objects differ: \(stringError) vs \(numberError)")
    default:
        fuzzCheck(false, "strings gave \(fromStrings), numbers gave \(fromNumbers), for \(written)")
    }
}
