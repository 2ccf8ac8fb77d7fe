import Foundation

/// The generator of every test that draws random inputs: SplitMix64 from a seed that is printed,
/// so a failure seen once can be replayed. The seed is `$LECTERN_TEST_SEED` when set (to replay),
/// else a fresh one each run (so runs keep exploring).
struct TestRandom: RandomNumberGenerator {
    let seed: UInt64
    private var state: UInt64

    init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// A generator for `test`, its seed printed as the line to replay it with.
    static func seeded(_ test: String = #function, file: String = #fileID) -> TestRandom {
        let given = ProcessInfo.processInfo.environment["LECTERN_TEST_SEED"].flatMap { UInt64($0) }
        let random = TestRandom(seed: given ?? UInt64.random(in: 0...UInt64(UInt32.max)))
        print("\(file) \(test): random seed \(random.seed) (replay: LECTERN_TEST_SEED=\(random.seed) swift test --filter \(test.prefix { $0 != "(" }))")
        return random
    }

    /// "seed N", for failure messages.
    var replay: String { "seed \(seed), replay with LECTERN_TEST_SEED=\(seed)" }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
