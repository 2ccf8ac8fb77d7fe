import Foundation
import GRDB

extension LibraryStore {
    /// Gives the document the licence and tags a pipeline declares (in its metadata); writes
    /// only when they differ from what it holds. Returns whether it wrote.
    @discardableResult
    func label(documentId: Int64, licence: String?, tags: [String]) throws -> Bool {
        try write { db in
            guard let document = try StoredDocument.fetchOne(db, sql: "SELECT * FROM documents WHERE id = ?", arguments: [documentId]) else {
                return false
            }
            let current = document.metadataDictionary
            let labelled = DocumentLabels.applied(current, licence: licence, tags: tags)
            guard labelled != current else { return false }
            try db.execute(sql: "UPDATE documents SET metadata = ? WHERE id = ?", arguments: [Self.json(labelled), documentId])
            return true
        }
    }
}
