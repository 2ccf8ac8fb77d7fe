/// Asked between the steps of one long document (a PDF's pages, a book's modules) whether to
/// stop: a signal then stops the document in hand within a step, not after it. The CLI's
/// signals answer through `Cancellation`; readers see only this, as they sit below Pipeline.
protocol StopCheck: Sendable {
    /// Throws an `.interrupted` error naming `subject` when a stop was asked for.
    func check(_ subject: String?) throws
}
