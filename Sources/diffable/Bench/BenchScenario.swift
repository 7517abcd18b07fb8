import DiffableTools

typealias BenchScenario = WorkloadScenario
typealias BenchKeyKind = WorkloadKeyKind
typealias BenchGenerator = SplitMix64

extension WorkloadScenario {
    /// Largest n at which Swift's quadratic `difference(from:)` still finishes in seconds.
    var swiftDifferenceLimit: Int {
        switch self {
        case .churn: 10_000
        case .shuffle, .reverse: 3_000
        case .moveOne, .update: 1_000_000
        case .append: 10_000
        }
    }
}
