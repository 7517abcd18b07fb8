import Foundation

/// `diffable bench --plot FILE.svg`: time against n on log–log axes, one panel per suite and
/// scenario, one line per engine and key type, every measured point marked, the machine in
/// the footer. Plain SVG 1.1 written by hand (no dependency).
enum BenchChart {
    /// One line: an engine's times over n for one key type.
    struct Series {
        var engine: BaselineEngine?  // nil: Diffable
        var keys: String
        var points: [(count: Int, milliseconds: Double)]
    }

    struct Panel {
        var title: String
        var series: [Series]
    }

    static let panelWidth = 300.0
    static let panelHeight = 230.0
    static let plotInset = (left: 62.0, right: 14.0, top: 28.0, bottom: 40.0)
    static let columns = 3

    static func colour(_ engine: BaselineEngine?) -> String {
        switch engine {
        case nil: "#1f5fbf"
        case .plainSwift: "#d9730d"
        case .swiftDifference: "#2f9e44"
        }
    }

    static func name(_ engine: BaselineEngine?) -> String { engine?.rawValue ?? "Diffable" }

    static func dash(_ keys: String) -> String {
        switch keys {
        case "string": "6,3"
        case "random64": "2,3"
        default: "none"
        }
    }

    /// The panels the rows give: every suite and scenario measured at some n, in row order.
    static func panels(_ rows: [BenchRow]) -> [Panel] {
        var order: [String] = []
        var grouped: [String: [BenchRow]] = [:]
        for row in rows where row.suite != "files" {
            let key = "\(row.suite): \(row.scenario)"
            if grouped[key] == nil { order.append(key) }
            grouped[key, default: []].append(row)
        }
        return order.map { key in
            let group = grouped[key]!
            var keysInOrder: [String] = []
            for row in group where !keysInOrder.contains(row.keys) { keysInOrder.append(row.keys) }
            var series: [Series] = []
            for engine in [nil, BaselineEngine.plainSwift, .swiftDifference] {
                for keys in keysInOrder {
                    let points = group.filter { $0.keys == keys }.compactMap { row -> (Int, Double)? in
                        let value: Double? =
                            switch engine {
                            case nil: row.milliseconds
                            case .plainSwift: row.baselineMilliseconds
                            case .swiftDifference: row.swiftDifferenceMilliseconds
                            }
                        return value.map { (row.count, $0) }
                    }.sorted { $0.0 < $1.0 }
                    if !points.isEmpty { series.append(Series(engine: engine, keys: keys, points: points.map { ($0.0, $0.1) })) }
                }
            }
            return Panel(title: key, series: series)
        }
    }

    static func svg(rows: [BenchRow], machine: String, runs: Int) -> String {
        let panels = panels(rows)
        let legendEntries = legend(panels)
        let headerHeight = 58.0 + 18.0 * Double((legendEntries.count + 2) / 3)
        let rowCount = max(1, (panels.count + columns - 1) / columns)
        let width = panelWidth * Double(columns) + 20
        let height = headerHeight + panelHeight * Double(rowCount) + 40
        var svg = SVGWriter(width: width, height: height)
        svg.text(
            "Diffable vs plain Swift and Swift's difference(from:) — time per diff against n (log–log)", x: 12, y: 24, size: 15,
            weight: "bold")
        svg.text(
            "lower is better; a missing point is a baseline skipped where it would have taken minutes", x: 12, y: 42, size: 11, fill: "#555"
        )
        for (index, entry) in legendEntries.enumerated() {
            let x = 14 + Double(index % 3) * 250, y = 62 + Double(index / 3) * 18
            svg.line(x1: x, y1: y, x2: x + 30, y2: y, colour: colour(entry.engine), dash: dash(entry.keys), width: 2)
            svg.marker(x: x + 15, y: y, keys: entry.keys, colour: colour(entry.engine))
            svg.text("\(name(entry.engine)), \(entry.keys) keys", x: x + 38, y: y + 4, size: 11)
        }
        for (index, panel) in panels.enumerated() {
            let originX = 10 + Double(index % columns) * panelWidth
            let originY = headerHeight + Double(index / columns) * panelHeight
            draw(panel, into: &svg, x: originX, y: originY)
        }
        svg.text(
            "Measured on \(machine); each point the median of \(runs) runs after a warm-up (fewer for baselines marked in the table).",
            x: 12, y: height - 14, size: 10.5, fill: "#444")
        return svg.finish()
    }

    private static func legend(_ panels: [Panel]) -> [(engine: BaselineEngine?, keys: String)] {
        var entries: [(engine: BaselineEngine?, keys: String)] = []
        for panel in panels {
            for series in panel.series where !entries.contains(where: { $0.engine == series.engine && $0.keys == series.keys }) {
                entries.append((series.engine, series.keys))
            }
        }
        return entries.sorted { (order($0.engine), $0.keys) < (order($1.engine), $1.keys) }
    }

    private static func order(_ engine: BaselineEngine?) -> Int {
        switch engine {
        case nil: 0
        case .plainSwift: 1
        case .swiftDifference: 2
        }
    }

    private static func draw(_ panel: Panel, into svg: inout SVGWriter, x: Double, y: Double) {
        let left = x + plotInset.left, right = x + panelWidth - plotInset.right
        let top = y + plotInset.top, bottom = y + panelHeight - plotInset.bottom
        let all = panel.series.flatMap(\.points)
        guard !all.isEmpty else { return }
        // Whole decades around the data on both axes.
        let xLow = floor(log10(Double(all.map(\.count).min()!))), xHigh = max(xLow + 1, ceil(log10(Double(all.map(\.count).max()!))))
        let positive = all.map { max($0.milliseconds, 1e-6) }
        let yLow = floor(log10(positive.min()!)), yHigh = max(yLow + 1, ceil(log10(positive.max()!)))
        func px(_ count: Int) -> Double { left + (log10(Double(count)) - xLow) / (xHigh - xLow) * (right - left) }
        func py(_ milliseconds: Double) -> Double { bottom - (log10(max(milliseconds, 1e-6)) - yLow) / (yHigh - yLow) * (bottom - top) }
        svg.text(panel.title, x: left + (right - left) / 2, y: y + 16, size: 12, weight: "bold", anchor: "middle")
        svg.rect(x: left, y: top, width: right - left, height: bottom - top)
        let yStep = yHigh - yLow > 5 ? 2.0 : 1.0
        for decade in stride(from: yLow, through: yHigh, by: yStep) {
            let position = bottom - (decade - yLow) / (yHigh - yLow) * (bottom - top)
            svg.line(x1: left, y1: position, x2: right, y2: position, colour: "#e4e4e4", dash: "none", width: 1)
            svg.text(timeLabel(decade), x: left - 5, y: position + 4, size: 10, anchor: "end")
        }
        for decade in stride(from: xLow, through: xHigh, by: 1) {
            let position = left + (decade - xLow) / (xHigh - xLow) * (right - left)
            svg.line(x1: position, y1: top, x2: position, y2: bottom, colour: "#e4e4e4", dash: "none", width: 1)
            svg.text("10" + superscript(Int(decade)), x: position, y: bottom + 15, size: 10, anchor: "middle")
        }
        svg.text("n (items)", x: left + (right - left) / 2, y: bottom + 31, size: 10, anchor: "middle", fill: "#444")
        for series in panel.series {
            let points = series.points.map { (px($0.count), py($0.milliseconds)) }
            svg.polyline(points, colour: colour(series.engine), dash: dash(series.keys))
            for point in points { svg.marker(x: point.0, y: point.1, keys: series.keys, colour: colour(series.engine)) }
        }
    }

    /// "1 µs", "10 ms", "1 s" for 10^decade milliseconds.
    static func timeLabel(_ decade: Double) -> String {
        let exponent = Int(decade)
        let units: [(Int, String)] = [(-6, "ns"), (-3, "µs"), (0, "ms"), (3, "s")]
        let unit = units.last { exponent >= $0.0 } ?? units[0]
        let value = Int(pow(10, Double(exponent - unit.0)).rounded())
        return exponent - unit.0 > 3 ? "10" + superscript(exponent - 3) + " s" : "\(value) \(unit.1)"
    }

    static func superscript(_ value: Int) -> String {
        let digits: [Character] = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]
        let text = String(abs(value)).map { digits[Int(String($0))!] }
        return (value < 0 ? "⁻" : "") + String(text)
    }
}
