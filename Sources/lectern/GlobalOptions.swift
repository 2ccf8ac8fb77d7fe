import ArgumentParser
import Foundation
import Lectern

enum EventFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}

/// Options every command that touches a library shares.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The library file, or a PostgreSQL URL postgres://user@host:port/dbname (default: $LECTERN_DB, else ~/.local/share/lectern/library.db).",
        valueName: "file"))
    var db: String?

    @Option(name: .long, help: "How progress and problems reach stderr: text, or json (one JSON object a line). (default: text)")
    var events: EventFormat?

    /// Configuration from flags > environment > config file > defaults. Unknown keys in the
    /// config file are one warning line each, unless the caller shows them itself (`doctor`).
    func configuration(flags extra: [String: ConfigValue] = [:], printWarnings: Bool = true) throws -> Configuration {
        var flags = extra
        if let db { flags["database"] = .string(db) }
        let configuration = try Configuration.load(flags: flags)
        if printWarnings {
            for warning in configuration.warnings { terminal().event(PipelineEvent(.warning, input: warning.file, message: warning.message)) }
        }
        return configuration
    }

    /// The library for `access` (`.read` for search and listings: nothing is created or
    /// written, and a read-only library still opens).
    func openStore(_ configuration: Configuration, access: LibraryAccess) throws -> LibraryStore {
        if LibraryURL.isPostgres(configuration.database) {
            throw LibraryURL.commandsRefusal(configuration.database, command: Self.commandPath.map { "`lectern \($0)`" } ?? "this command")
        }
        let path = Configuration.resolvePath(configuration.database, base: nil)
        if access == .create, configuration.usesDefaultDatabase {
            // The default library's folder is made by the first command that writes to it.
            try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                     withIntermediateDirectories: true)
        }
        let store = try LibraryStore(path: path, display: DisplayPath.of(path), access: access, vectorSidecar: configuration.vectorSidecarMinimum)
        if access != .read { OpenLibraries.opened(store) }
        return store
    }

    /// The library for `access` on either backend (a path, or a PostgreSQL URL): what the
    /// commands that work on both open (`LibraryURL.postgresCommands`).
    func openLibrary(_ configuration: Configuration, access: LibraryAccess) throws -> Library {
        guard LibraryURL.isPostgres(configuration.database) else { return Library(try openStore(configuration, access: access)) }
        return try Library.open(configuration.database, access: access)
    }

    /// `openForReading` on either backend.
    func openLibraryForReading() throws -> (configuration: Configuration, terminal: Terminal, library: Library) {
        let configuration = try configuration()
        let terminal = terminal()
        return (configuration, terminal, try openLibrary(configuration, access: .read))
    }

    /// What `rm` and `prune` start from: the terminal, the existing library (either backend),
    /// and a removal that stops at a document boundary on a signal.
    func openLibraryForRemoval() throws -> (terminal: Terminal, library: Library, removal: LibraryRemoval) {
        let configuration = try configuration()
        let library = try openLibrary(configuration, access: .write)
        var removal = LibraryRemoval(library: library)
        removal.cancellation = StopSignals.cancellation
        return (terminal(), library, removal)
    }

    /// `startRun` in a library on either backend.
    func startRun(_ library: Library, command: String) throws -> RunRecorder {
        let recorder = try RunRecorder(library: library, command: command, arguments: Array(CommandLine.arguments.dropFirst()))
        StopSignals.track(recorder)
        return recorder
    }

    /// The command being run, as typed (`curriculum list`), for a refusal that names it.
    static var commandPath: String? {
        var path: [String] = []
        var subcommands = LecternCommand.configuration.subcommands
        for argument in CommandLine.arguments.dropFirst() {
            guard let next = subcommands.first(where: { $0._commandName == argument }) else { break }
            path.append(argument)
            subcommands = next.configuration.subcommands
        }
        return path.isEmpty ? nil : path.joined(separator: " ")
    }

    /// What a command that only reads starts with: the configuration, its terminal, and the
    /// library opened `.read`.
    func openForReading() throws -> (configuration: Configuration, terminal: Terminal, store: LibraryStore) {
        let configuration = try configuration()
        let terminal = terminal()
        return (configuration, terminal, try openStore(configuration, access: .read))
    }

    /// `mustExist`: `.write`, else `.create`.
    func openStore(_ configuration: Configuration, mustExist: Bool) throws -> LibraryStore {
        try openStore(configuration, access: mustExist ? .write : .create)
    }

    func terminal(defaultJSON: Bool = false) -> Terminal {
        Terminal(events: events ?? (defaultJSON ? .json : .text))
    }

    /// Starts the run record of a command that does work: its command line as given (secrets
    /// redacted by `RunRecorder`), ended `interrupted` should a signal stop the process at once.
    func startRun(_ store: LibraryStore, command: String) throws -> RunRecorder {
        let recorder = try RunRecorder(store: store, command: command, arguments: Array(CommandLine.arguments.dropFirst()))
        StopSignals.track(recorder)
        return recorder
    }
}

/// A command whose options choose how problems reach stderr: `main` renders the error that
/// stops it in the same format, without reading the command line again.
protocol ReportsEvents {
    var eventFormat: EventFormat { get }
}

/// A command with the global options: `--events` is theirs.
protocol SharesGlobalOptions: ReportsEvents {
    var global: GlobalOptions { get }
}

extension SharesGlobalOptions {
    var eventFormat: EventFormat { global.events ?? .text }
}

/// A command that works through a batch and checks `StopSignals.cancellation` between its
/// documents: a signal lets it finish (or abandon) the document in hand and report.
protocol StopsAtDocumentBoundaries {}

/// A command that exits as grep does: 0 when it found something, 1 when it found nothing, 2
/// on any error (a missing library included), so that a script tells "nothing" from "broken".
protocol ExitsLikeGrep {}
