import Foundation

/// One process as the demo shows it. Identified by pid: a changed CPU or RSS reconfigures its
/// row in place.
struct ProcessInfoRow: Hashable, Sendable, Identifiable {
    let id: Int32
    /// The parent's pid (0 for none).
    var parent: Int32
    var user: String
    var command: String
    var cpu: Double
    var rssKiB: Int
}

/// Reads /proc: every process's command, owner, CPU time and resident set; CPU % is the
/// CPU time used since the previous sample.
final class ProcessSampler {
    private var previous: [Int32: (ticks: Int, at: Double)] = [:]
    private let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
    private let users: [UInt32: String]

    init() {
        var users: [UInt32: String] = [:]
        if let passwd = try? String(contentsOfFile: "/etc/passwd", encoding: .utf8) {
            for line in passwd.split(separator: "\n") {
                let fields = line.split(separator: ":", omittingEmptySubsequences: false)
                if fields.count > 2, let uid = UInt32(fields[2]) { users[uid] = String(fields[0]) }
            }
        }
        self.users = users
    }

    func sample() -> [ProcessInfoRow] {
        let now = ProcessInfo.processInfo.systemUptime
        var rows: [ProcessInfoRow] = []
        var seen: [Int32: (Int, Double)] = [:]
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = Int32(entry) else { continue }
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { continue }
            let name = String(stat[stat.index(after: open)..<close])
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 22, let parent = Int32(fields[1]), let utime = Int(fields[11]), let stime = Int(fields[12]),
                let rssPages = Int(fields[21])
            else { continue }
            let ticks = utime + stime
            var cpu = 0.0
            if let last = previous[pid], now > last.at {
                cpu = Double(ticks - last.ticks) / ticksPerSecond / (now - last.at) * 100
            }
            seen[pid] = (ticks, now)
            var command = name
            if let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty {
                let parts = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
                command = parts.joined(separator: " ")
            }
            var uid: UInt32 = 0
            var owner = "?"
            if let attributes = try? FileManager.default.attributesOfItem(atPath: "/proc/\(pid)"),
                let number = attributes[.ownerAccountID] as? NSNumber
            {
                uid = number.uint32Value
                owner = users[uid] ?? "uid \(uid)"
            }
            rows.append(
                ProcessInfoRow(
                    id: pid, parent: parent, user: owner, command: command, cpu: max(0, cpu), rssKiB: rssPages * Int(getpagesize()) / 1024))
        }
        previous = seen.mapValues { (ticks: $0.0, at: $0.1) }
        return rows
    }
}
