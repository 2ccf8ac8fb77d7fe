import Foundation

/// A library named by a URL rather than a path: a PostgreSQL database (`postgres://…` or
/// `postgresql://…`). `--db`, `LECTERN_DB`, the config file's `database` and a pipeline's
/// `library` recognise one before reading a path, which would make it relative to a folder.
public enum LibraryURL {
    public static func isPostgres(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }
}
