import Foundation

/// What a pipeline reports as it goes. The library only emits these; the CLI decides how
/// they look (progress on a terminal, plain lines, or JSON lines with `--events json`).
public struct PipelineEvent: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        case runStarted = "run_started"
        case inputStarted = "input_started"
        case stored
        case unchanged
        case warning
        case failed
        case progress
        /// A file or folder a folder walk did not take, and the ignore rule that left it out.
        case leftOut = "left_out"
        /// Something worth saying that is neither a failure nor a warning ("no passages match").
        case note
        case runFinished = "run_finished"
    }

    public var event: Kind
    public var input: String?
    /// The line of `input` a failure or warning is about, when the reader knows it.
    public var line: Int?
    public var message: String?
    var title: String?
    var passages: Int?
    public var index: Int?
    public var total: Int?
    var counts: [String: Int]?
    var run: Int64?
    /// Bytes of input done and in all across an ingest's batch (inputs found unchanged leave the
    /// total): what its time left is measured in. Absent when no input's size is known.
    public var workDone: Int?
    public var workTotal: Int?

    public init(
        _ event: Kind, input: String? = nil, line: Int? = nil, message: String? = nil, title: String? = nil, passages: Int? = nil,
        index: Int? = nil, total: Int? = nil, counts: [String: Int]? = nil, run: Int64? = nil, work: (done: Int, total: Int)? = nil
    ) {
        self.event = event
        self.input = input
        self.line = line
        self.message = message
        self.title = title
        self.passages = passages
        self.index = index
        self.total = total
        self.counts = counts
        self.run = run
        workDone = work?.done
        workTotal = work?.total
    }
}

public typealias EventHandler = @Sendable (PipelineEvent) -> Void
