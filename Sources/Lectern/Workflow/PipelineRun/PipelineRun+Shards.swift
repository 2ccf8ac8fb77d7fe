import Foundation

/// One input of a pipeline as shards see it: a file a path source's glob or folder names, or a
/// web source; `identity` is what its shard is chosen by.
public struct PipelineInput: Sendable, Equatable {
    public var source: String
    public var identity: String
    public var display: String
    /// A file its source's folder walk found (not one the source names, or a glob matched).
    public var foundInFolder = false

    public init(source: String, identity: String, display: String, foundInFolder: Bool = false) {
        self.source = source
        self.identity = identity
        self.display = display
        self.foundInFolder = foundInFolder
    }
}

extension PipelineRun {
    /// Every input of the pipeline (path sources expanded as ingest expands them), each with
    /// the shard of `count` it falls in.
    public func inputs() -> [PipelineInput] {
        let expander = InputExpander(registry: .standard, selection: InputSelection())
        return pipeline.sources.flatMap { source -> [PipelineInput] in
            guard source.kind == .path else { return [PipelineInput(source: source.name, identity: source.argument, display: source.argument)] }
            return expander.walk([source.argument]).items.map {
                PipelineInput(source: source.name, identity: $0.path, display: DisplayPath.of($0.path), foundInFolder: $0.foundInFolder)
            }
        }
    }

    /// The plan of one shard: the inputs it reads, and the finishing stages left to `--finish`.
    func shardPlan(_ shard: RunShard) -> [PipelineStep] {
        var steps = inputs().filter { shard.takes($0.identity) }.map {
            PipelineStep(stage: "ingest", subject: $0.display, detail: "source \($0.source), shard \(shard) (read if changed: content hash, conditional GET)")
        }
        if pipeline.summarise || !pipeline.curricula.isEmpty || !pipeline.decks.isEmpty || !pipeline.exports.isEmpty {
            steps.append(PipelineStep(stage: "finish", subject: "not in a shard",
                                      detail: "summaries, curricula, cards and exports: `lectern run \(pipeline.path) --finish` once every shard is done"))
        }
        return steps
    }

    /// The step a `--finish` plan starts with.
    var finishCheckStep: PipelineStep {
        PipelineStep(stage: "check", subject: "\(pipeline.sources.count) source\(pipeline.sources.count == 1 ? "" : "s")",
                     detail: "every file stored and up to date, every web source stored (else nothing is done, unless --force)")
    }

    /// The inputs a `--finish` would find missing: files not stored or stored from other bytes
    /// or settings (the next ingest would read them), web sources with no document (they are
    /// not fetched to be checked). A file a folder walk meets that no reader knows is no input.
    public func unfinishedInputs(library: Library, embedder: any Embedder) -> [String] {
        let ingestor = services(library: library, recorder: nil).ingestor(embedder: embedder, options: ExtractOptions(ocr: configuration.ocr))
        let references = DocumentReferences(library: library)
        var missing: [String] = []
        for source in pipeline.sources {
            if source.kind != .path {
                if ((try? references.documents(reference(source))) ?? []).isEmpty { missing.append(source.argument) }
                continue
            }
            var withPassword = ingestor
            withPassword.options.password = source.password
            for item in withPassword.expandedItems([source.argument]) {
                do {
                    if try !withPassword.isCurrent(item) { missing.append(item.display) }
                } catch let error as LecternError where error.code == .unknownShape && item.foundInFolder {
                    continue
                } catch {
                    missing.append(item.display)
                }
            }
        }
        return missing
    }
}
