import Foundation

/// The six checks a card is scored on, what `cards list --json` shows as its `quality` and
/// what `cards generate --min-quality` filters by. The score is the share of checks passed.
public struct CardQuality: Codable, Sendable, Equatable {
    public struct Check: Codable, Sendable, Equatable {
        public var name: String
        public var passed: Bool
        public var reason: String
    }

    public var score: Double
    public var checks: [Check]

    init(_ checks: [Check]) {
        self.checks = checks
        score = checks.isEmpty ? 0 : (Double(checks.filter(\.passed).count) / Double(checks.count) * 1000).rounded() / 1000
    }

    /// The first check the card fails: the reason its rejection is counted under.
    var firstFailure: Check? { checks.first { !$0.passed } }
}
