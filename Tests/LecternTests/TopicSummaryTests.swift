import XCTest
@testable import Lectern

/// A topic's summary as a learner reads it: the source's own summary section where it has one,
/// marked as the source's in `curriculum show`, its JSON and the UMCF export; otherwise whole
/// sentences from the text that stand alone (no figure credit, caption, exercise prompt,
/// reference entry, sentence leaning on the one before, or line of a derivation), none
/// repeating another; and `lectern summarize --paragraphs` gives the same method to a script.
final class TopicSummaryTests: CommandTestCase {
    func lectern(_ arguments: [String]) throws -> CommandResult {
        try runLectern(arguments, in: folder.url)
    }

    /// The authors' summary of the first section; the second section has none.
    static let authorsSummary = "Mitochondria turn the energy stored in food into ATP through cellular respiration. "
        + "Their inner membrane carries the electron transport chain, and their own DNA hints at a bacterial past."

    static let notes = """
        # Cells

        ## Mitochondria

        Mitochondria are the organelles in which the cell releases the energy stored in sugars and fats. \
        Each mitochondrion is wrapped in two membranes, and the inner membrane folds into cristae that enlarge its surface.

        The electron transport chain sits in the inner membrane and pumps protons across it as electrons pass along. \
        ATP synthase lets the protons flow back and uses their flow to make ATP from ADP and phosphate.

        Mitochondria carry a small circular genome of their own, much like the genome of a bacterium. \
        Biologists read this genome as evidence that mitochondria descend from bacteria engulfed by an early cell.

        ### Summary

        \(authorsSummary)

        ## Ribosomes

        Ribosomes are the molecular machines that build proteins from amino acids in the order that messenger RNA spells out. \
        This makes them the busiest machines of the cell.

        Figure 2.1 A ribosome reading a strand of messenger RNA (credit: "Ribosome" by unknown author, Wikimedia Commons, CC BY 4.0). \
        Each ribosome is made of two subunits of RNA and protein that clamp around the messenger RNA strand.

        Consider how a cell would fare if its ribosomes stopped working for an hour. \
        Transfer RNA molecules bring each amino acid to the ribosome and match it to a codon of the messenger RNA.

        And now over here, the chain is equal to the sum of its parts. \
        Palade, George. 1955. A small particulate component of the cytoplasm. Journal of Biophysical and Biochemical Cytology.

        Free ribosomes float in the cytoplasm and make proteins for the cell itself, while ribosomes bound to the \
        endoplasmic reticulum make proteins that the cell exports or places in its membranes.
        """

    func testASectionWithItsOwnSummaryKeepsTheAuthorsWordsMarkedAsTheSources() throws {
        let file = folder.url.appendingPathComponent("cells.md")
        try Self.notes.write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try lectern(["ingest", file.path, "--embedder", "hashing"]).status, 0)
        let built = try lectern(["curriculum", "build", "cells", file.path])
        XCTAssertEqual(built.status, 0, built.stderr)

        let record = try JSONDecoder().decode(Curriculum.self, from: Data(try lectern(["curriculum", "show", "cells", "--json"]).stdout.utf8))
        let mitochondria = try XCTUnwrap(record.topics.first { $0.title == "Mitochondria" }, "\(record.topics.map(\.title))")
        XCTAssertEqual(mitochondria.summary, Self.authorsSummary, "the source's own summary, whole")
        XCTAssertEqual(mitochondria.summaryOrigin, .source)
        let ribosomes = try XCTUnwrap(record.topics.first { $0.title == "Ribosomes" })
        XCTAssertEqual(ribosomes.summaryOrigin, .offline)

        // Sentences that stand alone: no credit, caption, prompt, reference, pointer or "This …".
        let sentences = SentenceSplitter.split(ribosomes.summary).map(\.text)
        XCTAssertFalse(sentences.isEmpty)
        for sentence in sentences {
            for furniture in ["credit", "Figure", "Consider", "over here", "Palade", "This makes"] {
                XCTAssertFalse(sentence.contains(furniture), "\(furniture) in the summary: \(ribosomes.summary)")
            }
            XCTAssertTrue(Self.notes.contains(sentence), "a whole sentence of the text: \(sentence)")
        }

        // `curriculum show` says whose words each summary is.
        let shown = try lectern(["curriculum", "show", "cells"]).stdout
        XCTAssertTrue(shown.contains("summary (the source's own):"), shown)
        XCTAssertTrue(shown.contains("summary (sentences chosen from the text):"), shown)
        XCTAssertTrue(shown.contains("Mitochondria turn the energy stored in food into ATP"), shown)

        // The UMCF export names the offline summary as generated, not the authors'.
        let umcf = folder.url.appendingPathComponent("cells.umcf")
        XCTAssertEqual(try lectern(["curriculum", "export", "cells", "-o", umcf.path]).status, 0)
        let exported = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: umcf)) as? [String: Any])
        let provenance = try XCTUnwrap(exported["sourceProvenance"] as? [String: Any])
        let parts = (provenance["aiGenerationMetadata"] as? [String: Any])?["generatedParts"] as? [[String: Any]] ?? []
        let described = Set(parts.filter { $0["field"] as? String == "description" }.compactMap { $0["nodeId"] as? String })
        XCTAssertFalse(described.contains(mitochondria.stableId), "the authors' summary is not generated")
        XCTAssertTrue(described.contains(ribosomes.stableId))
    }

    func testSummarizeParagraphsPrintsOneSummaryALineOfAboutTheWordsAsked() throws {
        let paragraphs = Self.notes.components(separatedBy: "\n\n").filter { !$0.hasPrefix("#") }
        let requests = [
            try String(decoding: JSONSerialization.data(withJSONObject: ["title": "cells", "paragraphs": paragraphs, "words": 40]), as: UTF8.self),
            "not json",
            try String(decoding: JSONSerialization.data(withJSONObject: ["title": "empty", "paragraphs": ["", " "]]), as: UTF8.self),
        ].joined(separator: "\n")
        let file = folder.url.appendingPathComponent("texts.jsonl")
        try requests.write(to: file, atomically: true, encoding: .utf8)
        let result = try lectern(["summarize", "--paragraphs", file.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(lines.count, 3, result.stdout)
        let summary = try XCTUnwrap(lines[0]["summary"] as? String)
        let words = summary.split(separator: " ").count
        XCTAssertTrue((40...100).contains(words), "whole sentences until 40 words: \(words) in \(summary)")
        XCTAssertFalse(summary.contains("credit"), summary)
        XCTAssertTrue((lines[1]["error"] as? String)?.contains("line 2") == true, "\(lines[1])")
        XCTAssertEqual(lines[2]["summary"] as? String, "")
        XCTAssertNotNil(lines[2]["error"] as? String)
    }
}
