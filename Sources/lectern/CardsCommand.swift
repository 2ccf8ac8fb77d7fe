import ArgumentParser
import Foundation
import Lectern

struct CardsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cards",
        abstract: "Make flashcards from a curriculum, keep them in the library, export them to Anki.",
        discussion: """
            Cards come from a curriculum's topics (`lectern curriculum build`): glossary terms \
            (short meanings also make the reverse card), sentences that use a key term or define \
            something ("X is a Y that …", "X refers to …") as Basic and Cloze cards, and learning \
            objectives a passage answers. Every card is scored on six checks (the source asserts \
            it, its subject is a term, its cloze deletes a term, its back answers its front, a \
            sentence of its passage states it, no other sense of its term is the source's); \
            a card failing one is rejected (--min-quality loosens this), and duplicates go. Note GUIDs stay the same across regenerations, so a \
            re-imported deck updates the notes a learner has and keeps their reviews.

              lectern cards generate philosophy
              lectern cards export philosophy --format apkg -o philosophy.apkg
              lectern cards stats
            """,
        subcommands: [CardsGenerateCommand.self, CardsExportCommand.self, CardsListCommand.self, CardsStatsCommand.self,
                      CardsRemoveCommand.self]
    )
}

struct CardsGenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate grounded flashcards for a curriculum's topics and store them.",
        discussion: """
            Replaces the stored cards of the topics it generates; every run is recorded with its \
            rejections (`lectern runs`). With --provider (or llm.provider), a language model also \
            writes cards from each topic's passages; --dry-run prints the calls, tokens and cost \
            it would take, and --max-cost stops a run that would cost more.

              lectern cards generate philosophy
              lectern cards generate philosophy --topic 3fa1c2d0 --topic 9b2e
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The curriculum's name.")
    var curriculum: String

    @Option(name: .customLong("topic"), help: ArgumentHelp("Only this topic (its id or first 4+ characters); repeatable.", valueName: "id"))
    var topics: [String] = []

    @OptionGroup(title: "Language model (cards from the model too, when --provider is given)") var llm: LLMOptions

    @Flag(name: .customLong("dry-run"), help: "With a model: print the calls, estimated tokens and cost, and ask nothing.")
    var dryRun = false

    @Option(name: .customLong("max-cost"), help: ArgumentHelp("With a model: refuse a run estimated to cost more (US dollars, llm.prices).", valueName: "dollars"))
    var maxCost: Double?

    @Option(name: .customLong("min-quality"), help: ArgumentHelp("Keep cards passing at least this share of the six checks (0–1; default 1: every check).", valueName: "score"))
    var minQuality: Double = 1

    @Flag(help: "Print the summary as JSON.")
    var json = false

    func validate() throws {
        if !(0...1).contains(minQuality) { throw ValidationError("--min-quality \(minQuality): give a share of the six checks from 0 to 1") }
        if let maxCost, maxCost < 0 { throw ValidationError("--max-cost \(maxCost): give a cost of 0 or more") }
        if (dryRun || maxCost != nil) && llm.provider == nil {
            throw ValidationError("--dry-run and --max-cost plan a model run: give --provider (and --model)")
        }
    }

    func run() throws {
        let configuration = try global.configuration(flags: llm.flags)
        let terminal = global.terminal()
        let library = try global.openLibrary(configuration, access: .write)
        // A model writes cards only when --provider asks for one (the configured model alone does not).
        var model: (any LanguageModel)?
        if llm.provider != nil {
            guard let made = try LanguageModelCatalog.make(configuration.llm, http: configuration.http) else {
                throw ValidationError("--provider \(llm.provider ?? ""): no model configured (give --model)")
            }
            model = made
        }
        if dryRun, let model {
            let plan = try Flashcards(library: library).plan(curriculum: curriculum, topics: topics, languageModel: model, prices: configuration.llm.prices,
                                      maxTokens: configuration.llm.maxTokens)
            if json { terminal.json(plan); return }
            let cost = plan.cost.map { String(format: "$%.4f", $0) } ?? "no price known for \(plan.model) (set llm.prices)"
            terminal.out("\(plan.topics) topics: \(plan.calls) calls to \(plan.model), about \(plan.inputTokens) tokens in and \(plan.outputTokens) out; cost \(cost)")
            return
        }
        let recorder = try global.startRun(library, command: "cards generate")
        let summary = try recorder.run { () throws -> CardGenerateSummary in
            let services = LibraryServices(configuration: configuration, library: library, recorder: recorder)
            return try services.generateCards(curriculum: curriculum, topics: topics, model: model == nil ? nil : try services.languageModel(),
                                              maxCost: maxCost, minQuality: minQuality)
        }
        if json { terminal.json(summary); return }
        let types = summary.byType.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        terminal.out("\(summary.notes) notes (\(summary.cards) cards: \(types)) from \(summary.topics) topics of \(summary.curriculum); \(summary.added) new, \(summary.updated) changed")
        let reasons = summary.rejections.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        terminal.out("\(summary.rejected) rejected\(reasons.isEmpty ? "" : " (\(reasons))"), \(summary.exactDuplicates + summary.nearDuplicates) duplicates removed (\(summary.exactDuplicates) exact, \(summary.nearDuplicates) near); run \(summary.run.map(String.init) ?? "-")")
    }
}

struct CardsExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a curriculum's stored cards as an Anki package, TSV, CSV, Markdown or JSON.",
        discussion: """
            apkg: decks Course::Unit::Topic, note types with a Source field, the sources' licence \
            in each deck's description. tsv/csv: Anki's text import (File ▸ Import) with its \
            header lines, using Anki's own Basic and Cloze note types.

              lectern cards export philosophy --format apkg -o philosophy.apkg
              lectern cards export philosophy --format tsv -o philosophy.txt
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The curriculum's name.")
    var curriculum: String

    @Option(help: ArgumentHelp("apkg, tsv, csv, md or json.", valueName: "format"))
    var format: CardExportFormat = .apkg

    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("The file to write; - writes to standard output.", valueName: "file"))
    var output: String

    @Option(name: .customLong("topic"), help: ArgumentHelp("Only this topic's cards; repeatable.", valueName: "id"))
    var topics: [String] = []

    @Flag(help: "Print what was written as JSON.")
    var json = false

    func run() throws {
        try OutputFile.checkFormat(output, format: format.rawValue)
        let (_, terminal, library) = try global.openLibraryForReading()
        let path = output == "-" ? output
            : URL(fileURLWithPath: output, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).path
        let summary = try Flashcards(library: library).export(curriculum: curriculum, topics: topics, format: format, to: path)
        // The cards themselves are on standard output, as `curriculum export -o -` writes.
        if OutputFile.isStandardOutput(output) { return }
        if json { terminal.json(summary); return }
        terminal.out("wrote \(output): \(summary.notes) notes, \(summary.cards) cards in \(summary.decks) decks (\(summary.format))")
    }
}

struct CardsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List stored cards with their deck and source.")

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Only this curriculum's cards.", valueName: "name"))
    var curriculum: String?

    @Option(name: .customLong("topic"), help: ArgumentHelp("Only this topic's cards (id or first 4+ characters); repeatable.", valueName: "id"))
    var topics: [String] = []

    @Flag(help: "Print the cards as JSON.")
    var json = false

    func run() throws {
        let (_, terminal, library) = try global.openLibraryForReading()
        let cards = try Flashcards(library: library).list(curriculum: curriculum, topics: topics)
        if json { terminal.json(cards); return }
        var deck = ""
        for card in cards {
            if card.deck != deck {
                deck = card.deck
                terminal.out("\(deck)")
            }
            // Mathematics as Unicode: the terminal runs no MathJax.
            terminal.out("  [\(card.noteType)] \(MathText.readable(card.front)) → \(MathText.readable(card.back))")
            let quality = card.quality.map { quality in
                let failed = quality.checks.filter { !$0.passed }.map { "\($0.name): \($0.reason)" }
                return String(format: "quality %.2f", quality.score) + (failed.isEmpty ? "" : " (" + failed.joined(separator: "; ") + ")")
            }
            let labels = [card.origin + (card.basis.map { " (\($0.rawValue))" } ?? ""), quality].compactMap { $0 }.joined(separator: ", ")
            terminal.out("      \(card.source)\(card.link.map { " \($0)" } ?? "")  (\(card.guid)) \(labels)")
        }
    }
}

struct CardsStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Count cards per curriculum, topic and note type, with rejections and duplicates removed.")

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Only this curriculum.", valueName: "name"))
    var curriculum: String?

    @Flag(help: "Print the counts as JSON.")
    var json = false

    func run() throws {
        let (_, terminal, library) = try global.openLibraryForReading()
        let statistics = try Flashcards(library: library).statistics(curriculum: curriculum)
        if json { terminal.json(statistics); return }
        func types(_ counts: [String: Int]) -> String {
            counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        }
        for entry in statistics {
            terminal.out("\(entry.curriculum): \(entry.notes) notes, \(entry.cards) cards (\(types(entry.byType)))")
            terminal.out("  from: \(types(entry.byOrigin))")
            terminal.out("  quality: \(entry.quality.sorted { $0.key > $1.key }.map { "\($0.value) at \($0.key)" }.joined(separator: ", "))\(entry.failedChecks.isEmpty ? "" : "; kept failing: \(types(entry.failedChecks))")")
            terminal.out("  rejected \(entry.rejected)\(entry.rejections.isEmpty ? "" : " (\(types(entry.rejections)))"), duplicates removed \(entry.exactDuplicates + entry.nearDuplicates) (\(entry.exactDuplicates) exact, \(entry.nearDuplicates) near)")
            for topic in entry.topics {
                terminal.out("  \(topic.topic.prefix(10))  \(topic.title): \(types(topic.byType))\(topic.rejected > 0 ? "; \(topic.rejected) rejected" : "")")
            }
        }
    }
}

struct CardsRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Remove stored cards: a curriculum's, a topic's, or notes by GUID.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The curriculum's name.")
    var curriculum: String

    @Option(name: .customLong("topic"), help: ArgumentHelp("Only this topic's cards; repeatable.", valueName: "id"))
    var topics: [String] = []

    @Option(name: .customLong("guid"), help: ArgumentHelp("Only the note with this GUID; repeatable.", valueName: "guid"))
    var guids: [String] = []

    func run() throws {
        let configuration = try global.configuration()
        let terminal = global.terminal()
        let library = try global.openLibrary(configuration, access: .write)
        let removed = try Flashcards(library: library).remove(curriculum: curriculum, topics: topics, guids: guids)
        terminal.out("removed \(removed) note\(removed == 1 ? "" : "s")")
        if removed == 0 { throw ExitCode(1) }
    }
}

extension CardsGenerateCommand: SharesGlobalOptions {}
extension CardsExportCommand: SharesGlobalOptions {}
extension CardsListCommand: SharesGlobalOptions {}
extension CardsStatsCommand: SharesGlobalOptions {}
extension CardsRemoveCommand: SharesGlobalOptions {}

extension CardExportFormat: ExpressibleByArgument {
    /// In any case (`APKG`), as the file extensions are read.
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}
