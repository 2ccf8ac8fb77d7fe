/// How a command uses its library.
public enum LibraryAccess: Sendable, Equatable {
    /// Search and listings (`search`, `sources`, `show`, `stats`, `runs`): the library must
    /// exist; nothing is created or recorded, and a library that cannot be written (a read-only
    /// file, folder or share) is still read.
    case read
    /// Commands that change a library that must already exist (`rm`, `reembed`, `summarize` …).
    case write
    /// `ingest`: makes the library when the file is missing or empty.
    case create
}
