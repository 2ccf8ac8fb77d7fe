import Foundation

/// Where a card's answer is read: the passage it cites, with the place in its document and
/// the attribution its licence asks for.
struct CardSource: Codable, Sendable, Equatable {
    var passageId: Int64
    var documentId: Int64
    var documentTitle: String
    var uri: String
    var pageStart: Int?
    var pageLabel: String?
    var timeStart: Double?
    var licence: String?
    var licenceURL: String?
    /// A lecture's video at the second the cited passage starts (`?t=` on YouTube), as `show`
    /// links it; nil for other sources.
    var link: String? = nil

    /// "Introduction to Philosophy, p. 12" or "Lecture 3, 4:05": what the Source field shows.
    var place: String {
        if let pageLabel { return "\(documentTitle), p. \(pageLabel)" }
        if let pageStart { return "\(documentTitle), p. \(pageStart)" }
        if let timeStart { return "\(documentTitle), \(TimeFormat.clock(timeStart))" }
        return documentTitle
    }

    /// The place and the licence, as each note's Source field carries them.
    var attribution: String {
        guard let licence else { return place }
        return "\(place) — \(licence)"
    }
}
