import DiffableTools

@testable import Diffable

/// The package's deterministic generator under the name the tests use.
typealias SeededGenerator = SplitMix64
