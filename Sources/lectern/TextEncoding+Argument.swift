import ArgumentParser
import Lectern

/// `--encoding windows-1252` (or `latin-1`, `cp1252`, `utf-8` …) on `ingest` and `extract`.
extension TextEncoding: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }

    public static var allValueStrings: [String] { ["utf-8", "windows-1252", "latin-1"] }
}
