import Foundation

/// Where `openstax:<slug>` looks a book up (`[openstax]` in configuration).
public struct OpenStaxSettings: Sendable, Equatable {
    /// OpenStax's approved book list, which names each book's source repository
    /// (`openstax.book_list`); empty skips it and guesses `osbooks-<slug>`.
    var bookList = "https://raw.githubusercontent.com/openstax/content-manager-approved-books/main/approved-book-list.json"
    /// The repository archive, `{repository}` replaced by its name (`openstax.archive`).
    var archive = "https://api.github.com/repos/openstax/{repository}/zipball"

    init() {}

    func archiveURL(repository: String) -> String {
        archive.replacingOccurrences(of: "{repository}", with: repository)
    }
}
