import Foundation

/// The files `lectern cards export` and a pipeline's `[[deck]]` write: the one list of card formats.
public enum CardExportFormat: String, CaseIterable, Sendable {
    case apkg, tsv, csv, md, json

    /// Cards in this format; `.apkg` is binary, the others UTF-8 text.
    func render(_ cards: [Flashcard], layout: CardDeckLayout, now: Date = Date()) throws -> Data {
        switch self {
        case .apkg: return try AnkiPackageWriter.package(cards, layout: layout, now: now)
        case .tsv: return Data(CardTextExport.delimited(cards, layout: layout, separator: "\t").utf8)
        case .csv: return Data(CardTextExport.delimited(cards, layout: layout, separator: ",").utf8)
        case .md: return Data(CardTextExport.markdown(cards, layout: layout).utf8)
        case .json: return try CardTextExport.json(cards, layout: layout)
        }
    }
}

/// Cards as text: Anki's text import (TSV/CSV with its header lines), Markdown to read, JSON
/// for other tools.
enum CardTextExport {
    /// Anki's stock note types, which every collection has, so the text file imports anywhere;
    /// the Source goes under the answer.
    static func stockNoteType(_ type: CardNoteType) -> String {
        // One type for both Basic kinds, as in the package: a note keeps its type when its
        // reverse card comes or goes.
        type == .cloze ? "Cloze" : "Basic (optional reversed card)"
    }

    static func delimited(_ cards: [Flashcard], layout: CardDeckLayout, separator: String) -> String {
        var lines = [
            "#separator:\(separator == "\t" ? "tab" : "comma")",
            "#html:true",
            "#guid column:1",
            "#notetype column:2",
            "#deck column:3",
            "#tags column:7",
        ]
        for card in cards {
            let source = "<div class=source>\(card.source.attributionHTML)</div>"
            let back = card.back.isEmpty ? source : HTMLText.escape(card.back) + source
            // Basic (optional reversed card)'s third field is Add Reverse; Cloze has two fields.
            let third = card.noteType == .basicReversed ? "y" : ""
            let columns = [card.guid, stockNoteType(card.noteType), layout.deck(topicStableId: card.topicStableId).name,
                           HTMLText.escape(card.front), back, third, card.tags.joined(separator: " ")]
            lines.append(columns.map(quoted).joined(separator: separator))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every field quoted, so tabs, commas, quotes and line breaks inside it stay inside it.
    private static func quoted(_ field: String) -> String {
        "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func markdown(_ cards: [Flashcard], layout: CardDeckLayout) -> String {
        var out = "# \(layout.course.name)\n\n"
        var currentDeck = ""
        for card in cards {
            let deck = layout.deck(topicStableId: card.topicStableId).name
            if deck != currentDeck {
                currentDeck = deck
                out += "## \(deck.replacingOccurrences(of: "::", with: " › "))\n\n"
            }
            // Markdown viewers run no MathJax: mathematics as Unicode.
            let front = MathText.readable(card.front), back = MathText.readable(card.back)
            switch card.noteType {
            case .cloze:
                let text = front.replacingOccurrences(of: "{{c1::", with: "**[").replacingOccurrences(of: "}}", with: "]**")
                out += "- \(text)"
                if !back.isEmpty { out += "  \n  \(back)" }
            case .basic, .basicReversed:
                out += "- **Q:** \(front)  \n  **A:** \(back)"
                if card.noteType == .basicReversed { out += " ↔" }
            }
            out += "  \n  _\(card.source.attribution)_"
            if let link = card.source.link, let time = card.source.timeStart { out += " [▶ \(TimeFormat.clock(time))](\(link))" }
            out += "\n"
        }
        return out + "\n" + layout.course.description.replacingOccurrences(of: #"<[^>]+>"#, with: "", options: .regularExpression) + "\n"
    }

    struct JSONCard: Codable {
        var guid: String
        var deck: String
        var noteType: CardNoteType
        var front: String
        var back: String
        var origin: CardOrigin
        var topic: String
        var source: CardSource
        var tags: [String]
        var modifiedAt: Date
    }

    static func json(_ cards: [Flashcard], layout: CardDeckLayout) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(cards.map {
            JSONCard(guid: $0.guid, deck: layout.deck(topicStableId: $0.topicStableId).name, noteType: $0.noteType,
                     front: $0.front, back: $0.back, origin: $0.origin, topic: $0.topicStableId, source: $0.source,
                     tags: $0.tags, modifiedAt: $0.modifiedAt)
        })
    }
}
