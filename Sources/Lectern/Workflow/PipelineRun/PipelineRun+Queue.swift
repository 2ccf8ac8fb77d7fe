import Foundation

extension PipelineRun {
    /// The jobs of a queued run: every input of the plan, as `--shard` sees them (a file a path
    /// source's glob or folder names, each on its own; a web source), identified the same way.
    public func queueInputs() -> [QueueInput] {
        inputs().map { QueueInput(source: $0.source, identity: $0.identity, display: $0.display, foundInFolder: $0.foundInFolder) }
    }

    /// `lectern run --queue`: records the run (`queued`), its pipeline file's text and a job
    /// per input in `library`, in one transaction, and reads nothing; workers (`lectern
    /// worker`) do the jobs, and the one that ends the last source job's makes the finish job
    /// takeable. Returns the run's number and how many source jobs it has.
    public func enqueue(library: Library, arguments: [String]) throws -> (run: Int64, jobs: Int) {
        let inputs = queueInputs()
        let queued = QueuedPipeline(run: 0, name: pipeline.path, directory: pipeline.directory, text: pipeline.text)
        let run = try library.enqueueRun(command: "run", arguments: arguments, pipeline: queued, inputs: inputs,
                                         counts: ["pipeline_sources": pipeline.sources.count, "jobs": inputs.count])
        return (run, inputs.count)
    }
}
