// Candidate measurement: Foundation's JSONSerialization and JSONDecoder on a snapshot file,
// each producing the identifiers as Swift strings. Prints the times in ms; run under
// /usr/bin/time -v for the peak (one candidate per process).
import Foundation

struct Document: Decodable {
    struct Section: Decodable {
        var id: String
        var items: [String]
    }
    var sections: [Section]
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let data = FileManager.default.contents(atPath: arguments[2]) else {
    FileHandle.standardError.write(Data("usage: foundation_parse serialization|decoder FILE\n".utf8))
    exit(2)
}
let start = Date()
var items = 0, sections = 0
if arguments[1] == "serialization" {
    let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    let parsed = Date()
    for case let section as [String: Any] in root?["sections"] as? [Any] ?? [] {
        sections += 1
        let strings = (section["items"] as? [Any] ?? []).compactMap { $0 as? String }
        items += strings.count
    }
    print(
        String(
            format: "JSONSerialization: parse %.1f ms, to Swift strings %.1f ms: %d sections, %d items",
            parsed.timeIntervalSince(start) * 1000, Date().timeIntervalSince(parsed) * 1000, sections, items))
} else {
    let document = try JSONDecoder().decode(Document.self, from: data)
    sections = document.sections.count
    items = document.sections.reduce(0) { $0 + $1.items.count }
    print(String(format: "JSONDecoder: decode %.1f ms: %d sections, %d items", Date().timeIntervalSince(start) * 1000, sections, items))
}
