import ArgumentParser
import Foundation
import Lectern

enum EventFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}

/// Options every command that touches a library shares.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: "The library file (default ./lectern.db, or $LECTERN_DB).")
    var db: String?

    @Option(name: .long, help: "How progress and problems reach stderr: text, or json (one JSON object a line).")
    var events: EventFormat?

    /// Configuration from flags > environment > config file > defaults.
    func configuration(flags extra: [String: ConfigValue] = [:]) throws -> Configuration {
        var flags = extra
        if let db { flags["database"] = .string(db) }
        return try Configuration.load(flags: flags)
    }

    /// The library for `access` (`.read` for search and listings: nothing is created or
    /// written, and a read-only library still opens).
    func openStore(_ configuration: Configuration, access: LibraryAccess) throws -> LibraryStore {
        let path = Configuration.resolvePath(configuration.database, base: nil)
        return try LibraryStore(path: path, display: InputExpander.display(path), access: access)
    }

    /// `mustExist`: `.write`, else `.create`.
    func openStore(_ configuration: Configuration, mustExist: Bool) throws -> LibraryStore {
        try openStore(configuration, access: mustExist ? .write : .create)
    }

    func terminal(defaultJSON: Bool = false) -> Terminal {
        Terminal(events: events ?? (defaultJSON ? .json : .text))
    }
}
