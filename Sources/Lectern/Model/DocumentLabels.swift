import Foundation

/// The licence and tags a pipeline file gives a source (`licence = "CC BY 4.0"`, `tags = […]`),
/// kept in its documents' metadata under keys of their own (a reader's `tags`, an OCW
/// course's, stay as they are): a licence declared there wins over
/// the one the document states (a PDF states none; the user who names it knows), and tags go
/// onto the cards made from the documents.
enum DocumentLabels {
    static let licenceKey = "pipeline_licence"
    static let tagsKey = "pipeline_tags"

    static func tags(_ metadata: [String: String]) -> [String] {
        (metadata[tagsKey] ?? "").split(separator: "\n").map(String.init)
    }

    /// What the labels add to a curriculum's build key ("" when there are none).
    static func key(_ metadata: [String: String]) -> String {
        [metadata[licenceKey], metadata[tagsKey]].compactMap { $0 }.joined(separator: "|")
    }

    /// The metadata with the labels set (a nil licence or no tags removes them).
    static func applied(_ metadata: [String: String], licence: String?, tags: [String]) -> [String: String] {
        var labelled = metadata
        labelled[licenceKey] = licence
        labelled[tagsKey] = tags.isEmpty ? nil : tags.joined(separator: "\n")
        return labelled
    }
}
