import Foundation

/// A stage of the work a run times (and may count), in the order the work goes through them:
/// what `lectern runs show` lists under "stages". Its time is kept in the run's counts as
/// `<stage>_ms` and its count under its name, the keys `runs --json` has always printed.
public enum RunStage: String, Codable, Sendable, CaseIterable {
    case fetch, extract, chunk, embed, cache, write, summarise, curriculum, cards, export
    /// Curriculum build: reading a document's passages, and the summaries and terms of its topics.
    case enrich, read

    /// The key of its milliseconds in a run's counts.
    var timeKey: String { rawValue + "_ms" }
}

/// One stage of a run: its milliseconds and, when the stage counts what it made, that count.
public struct RunStageReport: Codable, Sendable, Equatable {
    public var stage: RunStage
    public var milliseconds: Int
    public var count: Int?

    /// The timed stages in `counts`, in the work's order.
    static func stages(in counts: [String: Int]) -> [RunStageReport] {
        RunStage.allCases.compactMap { stage in
            counts[stage.timeKey].map { RunStageReport(stage: stage, milliseconds: $0, count: counts[stage.rawValue]) }
        }
    }
}
