import Foundation
import Lectern

/// `lectern search --stdin`: one query a line in, one line of JSON out for each (its hits as
/// `--json` prints them, on one line; `{"error": …}` for a query that cannot be searched), in
/// order, with the model and the vectors kept warm between queries.
enum SearchLines {
    struct Failure: Encodable {
        var query: String
        var error: String
    }

    /// One query's timings in milliseconds (`--timings`, on stderr).
    struct Timing: Encodable {
        var query: String
        var embedding_ms: Double
        var total_ms: Double
    }

    static func answer(_ session: SearchSession, k: Int, mode: SearchMode, filter: SearchFilter, minimumScore: Double?, group: Bool,
                       timings: Bool, terminal: Terminal) throws {
        while let line = readLine(strippingNewline: true) {
            let query = line.hasSuffix("\r") ? String(line.dropLast()) : line
            guard !query.trimmingCharacters(in: .whitespaces).isEmpty else {
                terminal.jsonLine(Failure(query: query, error: "the query is empty"))
                continue
            }
            do {
                let outcome = try session.run(query, k: k, mode: mode, filter: filter, minimumScore: minimumScore)
                let (hits, spent) = (outcome.hits, outcome.timings)
                for note in outcome.notes { terminal.note(note, input: query) }
                if group { terminal.jsonLine(HitGroup.groups(hits)) } else { terminal.jsonLine(hits) }
                if timings, let data = Terminal.compactJSON(Timing(query: query, embedding_ms: spent.embedding * 1000, total_ms: spent.total * 1000)) {
                    FileHandle.standardError.write(data + Data("\n".utf8))
                }
            } catch let error as LecternError where error.code == .invalidInput {
                // A query that cannot be searched is answered in its place; the next one goes on.
                terminal.jsonLine(Failure(query: query, error: error.description))
                terminal.stop(error)
            }
        }
    }
}
