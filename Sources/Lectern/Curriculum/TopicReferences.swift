import Foundation

/// What a user means by a topic reference, the one rule every command and tool shares
/// (`context --topic`, `search --topic`, `cards generate|list|export|rm --topic`, the MCP
/// server's topic, context and cards tools): a topic's stable id as `lectern curriculum show`
/// lists it, or its first 4+ characters. A reference names exactly one topic: one that names
/// none, or a prefix that names several, is an error that says so (naming the candidates).
public struct TopicReferences: Sendable {
    let store: any LibraryBackend

    public init(store: LibraryStore) {
        self.init(backend: store)
    }

    public init(library: Library) {
        self.init(backend: library.backend)
    }

    init(backend: any LibraryBackend) {
        self.store = backend
    }

    /// The shortest prefix of a stable id that may stand for it.
    static let shortestPrefix = 4

    /// The topic `reference` names, within the curriculum `name` when given: its curriculum's
    /// name, its stable id and title.
    public func find(_ reference: String, curriculum name: String?) throws -> (curriculum: String, id: String, title: String) {
        let (curriculum, topic) = try self.topic(reference, curriculum: name)
        return (curriculum.name, topic.stableId, topic.title)
    }

    /// The stable ids of the topics `references` name, within the curriculum `name` when given,
    /// in the order named, each once.
    public func stableIds(_ references: [String], curriculum name: String?) throws -> [String] {
        var seen: Set<String> = []
        return try references.map { try topic($0, curriculum: name).1.stableId }.filter { seen.insert($0).inserted }
    }

    /// The topic `reference` names, with its curriculum.
    func topic(_ reference: String, curriculum name: String?) throws -> (Curriculum, Topic) {
        let summaries = try store.curriculumSummaries()
        guard !summaries.isEmpty else {
            throw LecternError(.notFound, reference, "no topic with this id: this library has no curricula (`lectern curriculum build NAME` makes one)")
        }
        if let name, !summaries.contains(where: { $0.name == name }) {
            throw LecternError(.invalidInput, name, "no curriculum of this name (see `lectern curriculum list`)")
        }
        if let (curriculumName, _) = try store.topic(stableId: reference), name == nil || name == curriculumName,
           let curriculum = try store.curriculum(named: curriculumName),
           let topic = curriculum.topics.first(where: { $0.stableId == reference }) {
            return (curriculum, topic)
        }
        var found: [(Curriculum, Topic)] = []
        if reference.count >= Self.shortestPrefix {
            for summary in summaries where name == nil || summary.name == name {
                guard let curriculum = try store.curriculum(named: summary.name) else { continue }
                found += curriculum.topics.filter { $0.stableId.hasPrefix(reference) }.map { (curriculum, $0) }
            }
        }
        guard let first = found.first else {
            let place = name.map { " in curriculum \($0)" } ?? ""
            throw LecternError(.notFound, reference, "no topic with this id\(place) (see `lectern curriculum show`)")
        }
        if found.count > 1 {
            throw LecternError(.invalidInput, reference, "names \(found.count) topics, give more of the id: "
                               + found.prefix(4).map { "\($0.1.stableId) \($0.1.title)" }.joined(separator: ", ")
                               + (found.count > 4 ? ", …" : ""))
        }
        return first
    }
}
