import ArgumentParser
import Lectern

struct LecternCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lectern",
        abstract: "Turn learning material into a searchable study library in one SQLite file.",
        discussion: """
            Examples:
              lectern ingest ./notes            read every note under ./notes
              lectern search "light reactions"  find passages, with where they came from
              lectern sources                   list what the library holds
              lectern summarize                 summarise every document (offline too)
              lectern ask "what is entropy?"    answer from the library, with citations
              lectern logs                      past questions and answers
            """,
        version: Lectern.version,
        subcommands: [
            IngestCommand.self, SearchCommand.self, AskCommand.self, SummarizeCommand.self, SourcesCommand.self, ShowCommand.self, ExtractCommand.self,
            RemoveCommand.self, PruneCommand.self, ReembedCommand.self, StatsCommand.self, RunsCommand.self, LogsCommand.self,
            DoctorCommand.self, EmbedCommand.self, EvalCommand.self, CurriculumCommand.self, ContextCommand.self, McpCommand.self,
            CardsCommand.self, RunCommand.self, WorkerCommand.self, BackupCommand.self, MigrateCommand.self,
        ]
    )
}
