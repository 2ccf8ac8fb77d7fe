import Foundation

/// A passage's keyword index entry in PostgreSQL, and the BM25 that ranks by it. PostgreSQL's
/// own text search configurations fold and stem differently from the SQLite library's FTS5
/// porter tokenizer (`english` drops stop words, `simple` does not stem), so the words are
/// folded and stemmed by Lectern (`PorterStemmer`, which follows FTS5's porter) and stored as a
/// ready-made tsvector; the ranking is FTS5's bm25() over the same counts, not `ts_rank`.
enum PostgresKeywords {
    /// BM25's constants, FTS5's.
    static let k1 = 1.2
    static let b = 0.75

    /// The tsvector literal of a passage (`text` positions weighted A, then `section`'s
    /// weighted B) and its token count across both, FTS5's row size.
    static func vector(text: String, section: String) -> (literal: String, length: Int) {
        vector(columns: [(text, "A"), (section, "B")])
    }

    /// The tsvector literal of `columns`' stems, each column's positions under its weight
    /// label, numbered on across the columns, and the token count across them.
    static func vector(columns: [(text: String, weight: String)]) -> (literal: String, length: Int) {
        var positions: [String: [String]] = [:]
        var order: [String] = []
        var position = 0
        for column in columns {
            for stem in PorterStemmer.stems(column.text) {
                position += 1
                if positions[stem] == nil { order.append(stem) }
                // tsvector keeps positions up to 16383; a passage is a few hundred tokens.
                positions[stem, default: []].append("\(min(position, 16383))\(column.weight)")
            }
        }
        let literal = order.map { "\(quoted($0)):\(positions[$0]!.joined(separator: ","))" }.joined(separator: " ")
        return (literal, position)
    }

    /// The query's ranked items as FTS5 reads the SQLite library's query (each word, and each
    /// quoted phrase, one phrase of its stems: a word that folds into several stems, `e-mail`,
    /// is a phrase there too); empty items dropped.
    static func items(_ query: SearchQuery) -> [[String]] {
        (query.words.map { [$0] } + query.phrases).map { $0.flatMap(PorterStemmer.stems) }.filter { !$0.isEmpty }
    }

    /// The query's terms, as the index holds them: each word folded and stemmed.
    static func terms(_ query: SearchQuery) -> [String] {
        query.words.flatMap(PorterStemmer.stems)
    }

    /// A tsquery matching any of `terms`.
    static func anyOf(_ terms: [String]) -> String {
        terms.map(quoted).joined(separator: " | ")
    }

    /// A tsquery matching `stems` as one phrase: consecutive, within one column (as FTS5's
    /// phrases match), so within the text's positions (A) or the section's (B).
    static func phrase(_ stems: [String]) -> String {
        phrase(stems, withinAnyOf: ["A", "B"])
    }

    /// A tsquery matching `stems` as one phrase within one of the columns weighted `columns`.
    static func phrase(_ stems: [String], withinAnyOf columns: [String]) -> String {
        guard stems.count > 1 else { return quoted(stems[0]) }
        let each = columns.map { weight in "(" + stems.map { "\(quoted($0)):\(weight)" }.joined(separator: " <-> ") + ")" }
        return "(" + each.joined(separator: " | ") + ")"
    }

    /// A lexeme quoted for a tsvector or tsquery literal.
    static func quoted(_ lexeme: String) -> String {
        // Most lexemes hold neither character: Foundation's replacing, twice for every stem of
        // every passage, was half of what `lectern migrate` spent writing a document.
        guard lexeme.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "'") }) else { return "'" + lexeme + "'" }
        return "'" + lexeme.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// A keyword search of the passages: those holding any of the query's items, every phrase
    /// and no exclusion, of `documents` and among `passages` when given, ranked by BM25 with the
    /// text's occurrences weighted `weights.text` and the section header's `weights.section`.
    static func search(_ query: SearchQuery, documents: Set<Int64>?, passages: Set<Int64>?,
                       weights: LibraryStore.KeywordWeights) -> PostgresKeywordSearch? {
        let items = items(query)
        guard !items.isEmpty else { return nil }
        let first = PostgresKeywordSearch.firstParameter
        var search = PostgresKeywordSearch(
            table: "passages",
            totals: "select passages::float8 as n, case when passages > 0 then tokens::float8 / passages else 1 end as avgdl from keyword_totals",
            items: items, itemQueries: items.map(phrase),
            weight: "case p.w when 'A' then $\(first)::float8 else $\(first + 1)::float8 end",
            parameters: [String(weights.text), String(weights.section)])
        func bind(_ value: String, as type: String) -> String {
            search.parameters.append(value)
            return "$\(first + search.parameters.count - 1)::\(type)"
        }
        let phrases = query.phrases.map { $0.flatMap(PorterStemmer.stems) }.filter { !$0.isEmpty }
        if !phrases.isEmpty {
            search.filters += " and keywords @@ " + bind(phrases.map(phrase).joined(separator: " & "), as: "tsquery")
        }
        let exclusions = query.exclusions.map { $0.flatMap(PorterStemmer.stems) }.filter { !$0.isEmpty }
        if !exclusions.isEmpty {
            search.filters += " and not keywords @@ " + bind(exclusions.map(phrase).joined(separator: " | "), as: "tsquery")
        }
        if let documents { search.filters += " and document_id = any(" + bind(PostgresLibrary.bigintArray(documents), as: "bigint[]") + ")" }
        if let passages { search.filters += " and id = any(" + bind(PostgresLibrary.bigintArray(passages), as: "bigint[]") + ")" }
        return search
    }
}
