import CDiffableGTK
import CGtk4
import Diffable
import DiffableGTK
import Foundation

setvbuf(stdout, nil, _IOLBF, 0)
guard GTKMainContext.initialize() else {
    print("GTK: 0 passed, 1 failed (no display: set DISPLAY or GDK_BACKEND=broadway with gtk4-broadwayd)")
    exit(1)
}
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--leak-run", let applies = Int(CommandLine.arguments[2]) {
    leakRun(applies: applies)
    exit(0)
}
let results = Results()
let started = Date()
let only = ProcessInfo.processInfo.environment["GTK_TEST_ONLY"]
for (name, test) in allTests where only == nil || name.contains(only!) {
    let before = (results.passed, results.failed)
    let clock = Date()
    test(results)
    print(String(format: "%@: %d passed, %d failed (%.1f s)", name, results.passed - before.0, results.failed - before.1,
                 Date().timeIntervalSince(clock)))
}
for note in results.notes { print(note) }
print(String(format: "GTK: %d passed, %d failed (%.1f s)", results.passed, results.failed, Date().timeIntervalSince(started)))
exit(results.failed == 0 ? 0 : 1)
