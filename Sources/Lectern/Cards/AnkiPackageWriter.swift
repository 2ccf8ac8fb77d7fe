import Foundation

/// Writes cards as an Anki package (`.apkg`): a ZIP holding `collection.anki2` in the legacy
/// layout and an empty `media` map. Note types (Basic with an optional reverse card, Cloze,
/// each with a Source field) and decks have ids fixed per curriculum, and notes keep their GUIDs, so a
/// regenerated deck imports as updates to the notes a learner already has.
enum AnkiPackageWriter {
    static func package(_ cards: [Flashcard], layout: CardDeckLayout, now: Date = Date()) throws -> Data {
        // The collection is a SQLite file, built in a work folder named for this process: one a
        // killed export left behind (its process gone) is removed by the next package, and a
        // process a signal stops at once removes its own.
        let temporary = FileManager.default.temporaryDirectory.path
        removeStaleWorkFolders(in: temporary)
        let folder = temporary + "/" + workFolderPrefix + "\(getpid())-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        TemporaryFolders.track(folder)
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            TemporaryFolders.untrack(folder)
        }
        let collection = folder + "/collection.anki2"
        try AnkiCollectionFile.write(content(cards, layout: layout, now: now), to: collection)
        let data = try Data(contentsOf: URL(fileURLWithPath: collection))
        return try ZipArchiveWriter.archive([("collection.anki2", data), ("media", Data("{}".utf8))])
    }

    /// `lectern-apkg-<pid>-<uuid>` in $TMPDIR.
    static let workFolderPrefix = "lectern-apkg-"

    /// Removes the work folders of packages whose process is gone (a killed export).
    static func removeStaleWorkFolders(in temporary: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: temporary) else { return }
        for entry in entries where entry.hasPrefix(workFolderPrefix) {
            guard let pid = Int32(entry.dropFirst(workFolderPrefix.count).prefix { $0 != "-" }), pid != getpid(),
                  !RunProcess(pid: pid, startTicks: nil).isAlive else { continue }
            try? FileManager.default.removeItem(atPath: temporary + "/" + entry)
        }
    }

    static func write(_ cards: [Flashcard], layout: CardDeckLayout, to path: String, now: Date = Date()) throws {
        try OutputFile.write(try package(cards, layout: layout, now: now), to: path)
    }

    static func content(_ cards: [Flashcard], layout: CardDeckLayout, now: Date) -> AnkiCollectionContent {
        let seconds = Int64(now.timeIntervalSince1970)
        let curriculum = layout.curriculumStableId
        var notes: [AnkiCollectionContent.Note] = []
        var rows: [AnkiCollectionContent.Card] = []
        notes.reserveCapacity(cards.count)
        for (position, card) in cards.enumerated() {
            let noteId = CardIdentity.numericId("note", card.guid)
            var fields = [HTMLText.escape(card.front), HTMLText.escape(card.back), card.source.attributionHTML]
            if card.noteType != .cloze { fields.append(card.noteType == .basicReversed ? "y" : "") }
            let sortField = card.noteType == .cloze ? ClozeText.revealed(card.front) : card.front
            let modified = Int64(card.modifiedAt.timeIntervalSince1970)
            notes.append(.init(id: noteId, guid: card.guid, noteTypeId: CardIdentity.noteTypeId(curriculum: curriculum, card.noteType),
                               modified: modified, tags: " " + card.tags.joined(separator: " ") + " ",
                               fields: fields.joined(separator: "\u{1F}"), sortField: sortField, checksum: checksum(sortField)))
            let deck = layout.deck(topicStableId: card.topicStableId)
            for ordinal in 0..<card.cardCount {
                rows.append(.init(id: CardIdentity.numericId("card", card.guid, String(ordinal)), noteId: noteId,
                                  deckId: deck.id, ordinal: ordinal, modified: modified, due: position + 1))
            }
        }
        return AnkiCollectionContent(
            created: seconds, modified: seconds, conf: json(collectionConf(layout)), models: json(models(layout, seconds)),
            decks: json(decks(layout, seconds)), deckConf: json(["1": deckOptions]), notes: notes, cards: rows)
    }

    /// Anki's `csum`: the first 8 hex digits of the SHA-1 of the sort field, as an integer.
    static func checksum(_ text: String) -> Int64 {
        let digest = ContentHash.sha1Bytes(Data(text.utf8))
        return Int64(digest.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
    }

    // MARK: JSON of the col row

    private static func json(_ value: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    private static func collectionConf(_ layout: CardDeckLayout) -> [String: Any] {
        [
            "activeDecks": [1], "curDeck": 1, "newSpread": 0, "collapseTime": 1200, "timeLim": 0, "estTimes": true,
            "dueCounts": true, "curModel": String(CardIdentity.noteTypeId(curriculum: layout.curriculumStableId, .basic)),
            "nextPos": 1, "sortType": "noteFld", "sortBackwards": false, "addToCur": true,
        ]
    }

    static let css = """
        .card { font-family: arial; font-size: 20px; text-align: center; color: black; background-color: white; }
        .cloze { font-weight: bold; color: blue; }
        .source { font-size: 12px; color: #666; margin-top: 1em; }
        """

    private static func models(_ layout: CardDeckLayout, _ now: Int64) -> [String: Any] {
        let source = "<div class=source>{{Source}}</div>"
        func field(_ name: String, _ ordinal: Int) -> [String: Any] {
            ["name": name, "ord": ordinal, "font": "Arial", "size": 20, "media": [] as [Any], "rtl": false, "sticky": false]
        }
        func template(_ name: String, _ ordinal: Int, _ question: String, _ answer: String) -> [String: Any] {
            ["name": name, "ord": ordinal, "qfmt": question, "afmt": answer, "bqfmt": "", "bafmt": "", "did": NSNull()]
        }
        func model(_ type: CardNoteType, name: String, fields: [String], templates: [[String: Any]], cloze: Bool,
                   required: [[Any]]) -> (String, [String: Any]) {
            let id = CardIdentity.noteTypeId(curriculum: layout.curriculumStableId, type)
            return (String(id), [
                "id": id, "name": name, "type": cloze ? 1 : 0, "mod": now, "usn": -1, "sortf": 0, "did": layout.course.id,
                "tmpls": templates, "flds": fields.enumerated().map { field($1, $0) }, "css": css,
                "latexPre": "\\documentclass[12pt]{article}\n\\special{papersize=3in,5in}\n\\usepackage{amssymb,amsmath}\n\\pagestyle{empty}\n\\setlength{\\parindent}{0in}\n\\begin{document}\n",
                "latexPost": "\\end{document}", "latexsvg": false, "tags": [] as [Any], "vers": [] as [Any],
                "req": required,
            ])
        }
        let back = "{{FrontSide}}<hr id=answer>{{Back}}" + source
        // Anki's "Basic (optional reversed card)": the reverse card exists when Add Reverse is filled.
        let entries = [
            model(.basic, name: "Lectern Basic (optional reversed card)", fields: ["Front", "Back", "Source", "Add Reverse"],
                  templates: [template("Card 1", 0, "{{Front}}", back),
                              template("Card 2", 1, "{{#Add Reverse}}{{Back}}{{/Add Reverse}}",
                                       "{{FrontSide}}<hr id=answer>{{Front}}" + source)], cloze: false,
                  required: [[0, "any", [0]], [1, "all", [1, 3]]]),
            model(.cloze, name: "Lectern Cloze", fields: ["Text", "Back Extra", "Source"],
                  templates: [template("Cloze", 0, "{{cloze:Text}}", "{{cloze:Text}}<br>{{Back Extra}}" + source)], cloze: true,
                  required: [[0, "any", [0]]]),
        ]
        return Dictionary(uniqueKeysWithValues: entries)
    }

    private static func decks(_ layout: CardDeckLayout, _ now: Int64) -> [String: Any] {
        func deck(id: Int64, name: String, description: String) -> [String: Any] {
            [
                "id": id, "name": name, "desc": description, "conf": 1, "dyn": 0, "collapsed": false, "browserCollapsed": false,
                "extendNew": 10, "extendRev": 50, "mod": now, "usn": -1,
                "newToday": [0, 0], "revToday": [0, 0], "lrnToday": [0, 0], "timeToday": [0, 0],
            ]
        }
        var result: [String: Any] = ["1": deck(id: 1, name: "Default", description: "")]
        for entry in layout.decks {
            result[String(entry.id)] = deck(id: entry.id, name: entry.name, description: entry.description)
        }
        return result
    }

    /// Anki's default options group, as the legacy layout spells it.
    nonisolated(unsafe) private static let deckOptions: [String: Any] = [
        "id": 1, "name": "Default", "mod": 0, "usn": 0, "maxTaken": 60, "autoplay": true, "timer": 0, "replayq": true,
        "dyn": false,
        "new": ["bury": true, "delays": [1.0, 10.0], "initialFactor": 2500, "ints": [1, 4, 7], "order": 1, "perDay": 20,
                "separate": true] as [String: Any],
        "rev": ["bury": true, "ease4": 1.3, "fuzz": 0.05, "ivlFct": 1.0, "maxIvl": 36500, "minSpace": 1, "perDay": 200,
                "hardFactor": 1.2] as [String: Any],
        "lapse": ["delays": [10.0], "leechAction": 0, "leechFails": 8, "minInt": 1, "mult": 0.0] as [String: Any],
    ]
}
