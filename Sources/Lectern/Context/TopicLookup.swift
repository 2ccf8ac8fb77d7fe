/// Finds a curriculum topic by the id `lectern curriculum show` lists (or its first 4+
/// characters), for `context --topic` and the MCP server's topic and cards tools.
public enum TopicLookup {
    /// The topic `id` names: its curriculum's name, its stable id and title.
    public static func find(_ id: String, curriculum name: String?, in store: LibraryStore) throws
        -> (curriculum: String, id: String, title: String) {
        let (curriculum, topic) = try topic(id, curriculum: name, in: store)
        return (curriculum.name, topic.stableId, topic.title)
    }

    /// The topic `id` names (its stable id or first 4+ characters), with its curriculum; an
    /// unknown id, or one that names several topics, is one line saying so.
    static func topic(_ id: String, curriculum name: String?, in store: LibraryStore) throws -> (Curriculum, Topic) {
        let summaries = try store.curriculumSummaries()
        guard !summaries.isEmpty else {
            throw LecternError(.notFound, id, "no topic with this id: this library has no curricula (`lectern curriculum build NAME` makes one)")
        }
        if let name, !summaries.contains(where: { $0.name == name }) {
            throw LecternError(.invalidInput, name, "no curriculum of this name (see `lectern curriculum list`)")
        }
        if let (curriculumName, _) = try store.topic(stableId: id), name == nil || name == curriculumName,
           let curriculum = try store.curriculum(named: curriculumName),
           let topic = curriculum.topics.first(where: { $0.stableId == id }) {
            return (curriculum, topic)
        }
        var found: [(Curriculum, Topic)] = []
        if id.count >= 4 {
            for summary in summaries where name == nil || summary.name == name {
                guard let curriculum = try store.curriculum(named: summary.name) else { continue }
                found += curriculum.topics.filter { $0.stableId.hasPrefix(id) }.map { (curriculum, $0) }
            }
        }
        guard let first = found.first else {
            let place = name.map { " in curriculum \($0)" } ?? ""
            throw LecternError(.notFound, id, "no topic with this id\(place) (see `lectern curriculum show`)")
        }
        if found.count > 1 {
            throw LecternError(.invalidInput, id, "names \(found.count) topics: " + found.prefix(4).map { "\($0.1.stableId) \($0.1.title)" }.joined(separator: ", "))
        }
        return first
    }
}
