import Foundation

/// Shard `index` of `count` (`lectern run --shard I/N`), for schedulers that hand out indices
/// (a Kubernetes Indexed Job, a loop over machines): a source belongs to the shard its identity
/// hashes to. The identity is what the plan names, a file's absolute path or a web source as
/// written (URL or `scheme:` spec), never its position in a glob or folder: a new file moves no
/// other file to another shard, and every machine agrees without talking to the others.
public struct RunShard: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    public init(index: Int, count: Int) throws {
        guard count >= 1, index >= 0, index < count else {
            throw LecternError(.invalidInput, "--shard", "must be I/N with N at least 1 and I from 0 to N-1, not \(index)/\(count)")
        }
        self.index = index
        self.count = count
    }

    /// Reads `I/N` as the option is written.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw LecternError(.invalidInput, "--shard", "must be I/N (shard I of N, I from 0 to N-1, e.g. 0/3), not '\(text)'")
        }
        try self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }

    /// The shard an identity falls in: the first 8 bytes of its SHA-256, modulo the count.
    /// (SHA-256 rather than Swift's `Hasher`, which is seeded per process.)
    public static func shard(of identity: String, count: Int) -> Int {
        let bytes = ContentHash.sha256Bytes(Data(identity.utf8))
        let prefix = bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(prefix % UInt64(max(1, count)))
    }

    public func takes(_ identity: String) -> Bool { Self.shard(of: identity, count: count) == index }
}
