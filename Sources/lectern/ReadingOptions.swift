import ArgumentParser
import Lectern

/// `--password`, `--password-file` and `--encoding`: how `ingest` and `extract` open what they read.
struct ReadingOptions: ParsableArguments {
    @Option(help: "Password for encrypted PDFs (those --password-file does not name).")
    var password: String?

    @Option(help: "A file of passwords for encrypted PDFs: one `glob<TAB>password` a line, `#` comments; the glob matches the path as given or the file name, the first match wins.")
    var passwordFile: String?

    @Option(help: "The encoding of text files when it is not recognised: utf-8, or windows-1252 (latin-1). Without it, text that is not UTF-8 but reads as Windows-1252 is read as such, with a warning.")
    var encoding: TextEncoding?

    var extractOptions: ExtractOptions { ExtractOptions(password: password, encoding: encoding) }

    /// The password file, read now: a malformed one is a usage error before anything is read.
    func passwords() throws -> PasswordFile? {
        try passwordFile.map { try PasswordFile(contentsOf: $0) }
    }
}
