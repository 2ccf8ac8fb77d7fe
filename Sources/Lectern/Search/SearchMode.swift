/// How to rank: BM25 over words, vector similarity, or both fused by reciprocal rank.
public enum SearchMode: String, Codable, Sendable, CaseIterable {
    case hybrid
    case keyword
    case semantic
}
