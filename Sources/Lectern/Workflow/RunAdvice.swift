import Foundation

/// The advice a run has given (`ExtractionWarning.advice`: how to install a missing OCR
/// language): said once per run, before the first document's warning that needs it, not again
/// with every document after it.
final class RunAdvice: Sendable {
    private let said = Locked(Set<String>())

    /// True the first time `advice` is asked about in this run.
    func isNew(_ advice: String) -> Bool {
        said.withLock { $0.insert(advice).inserted }
    }

    /// The events of a document's warnings: each warning's advice first, when the run has not
    /// given it yet, then the warning naming the document.
    func events(for warnings: [ExtractionWarning], input: String) -> [PipelineEvent] {
        var events: [PipelineEvent] = []
        for warning in warnings {
            if let advice = warning.advice, isNew(advice) { events.append(PipelineEvent(.warning, message: advice)) }
            events.append(PipelineEvent(.warning, input: input, line: warning.line, message: warning.message))
        }
        return events
    }
}
