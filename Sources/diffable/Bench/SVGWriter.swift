import Foundation

/// The few SVG 1.1 elements the bench chart needs, with text escaped for XML.
struct SVGWriter {
    private var body: [String] = []
    let width: Double
    let height: Double

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    private static func number(_ value: Double) -> String { String(format: "%.1f", value) }

    mutating func text(
        _ text: String, x: Double, y: Double, size: Double, weight: String = "normal", anchor: String = "start", fill: String = "#111"
    ) {
        body.append(
            "<text x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" font-size=\"\(size)\" font-weight=\"\(weight)\" "
                + "text-anchor=\"\(anchor)\" fill=\"\(fill)\">\(Self.escape(text))</text>")
    }

    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, colour: String, dash: String, width: Double) {
        body.append(
            "<line x1=\"\(Self.number(x1))\" y1=\"\(Self.number(y1))\" x2=\"\(Self.number(x2))\" y2=\"\(Self.number(y2))\" "
                + "stroke=\"\(colour)\" stroke-width=\"\(width)\"\(dash == "none" ? "" : " stroke-dasharray=\"\(dash)\"")/>")
    }

    mutating func rect(x: Double, y: Double, width: Double, height: Double) {
        body.append(
            "<rect x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(Self.number(width))\" height=\"\(Self.number(height))\" "
                + "fill=\"none\" stroke=\"#888\" stroke-width=\"1\"/>")
    }

    mutating func polyline(_ points: [(Double, Double)], colour: String, dash: String) {
        let list = points.map { "\(Self.number($0.0)),\(Self.number($0.1))" }.joined(separator: " ")
        body.append(
            "<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1.8\""
                + "\(dash == "none" ? "" : " stroke-dasharray=\"\(dash)\"")/>")
    }

    /// A point marker: a circle for int keys, a square for string, a triangle otherwise.
    mutating func marker(x: Double, y: Double, keys: String, colour: String) {
        let (cx, cy) = (Self.number(x), Self.number(y))
        switch keys {
        case "int": body.append("<circle cx=\"\(cx)\" cy=\"\(cy)\" r=\"3.2\" fill=\"\(colour)\"/>")
        case "string":
            body.append(
                "<rect x=\"\(Self.number(x - 3))\" y=\"\(Self.number(y - 3))\" width=\"6\" height=\"6\" fill=\"white\" "
                    + "stroke=\"\(colour)\" stroke-width=\"1.5\"/>")
        default:
            body.append(
                "<polygon points=\"\(cx),\(Self.number(y - 4)) \(Self.number(x - 3.5)),\(Self.number(y + 3)) "
                    + "\(Self.number(x + 3.5)),\(Self.number(y + 3))\" fill=\"\(colour)\"/>")
        }
    }

    func finish() -> String {
        let header =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
            + "width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" "
            + "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        return header + body.joined(separator: "\n") + "\n</svg>\n"
    }
}
