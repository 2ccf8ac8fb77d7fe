import Foundation

/// The readers Lectern knows, asked in turn which one reads a given input.
public struct ReaderRegistry: Sendable {
    private(set) var extractors: [any Extractor]

    init(_ extractors: [any Extractor] = []) {
        self.extractors = extractors
    }

    mutating func register(_ extractor: any Extractor) {
        extractors.append(extractor)
    }

    /// The reader most sure of `input`; on a tie, the one registered first.
    func reader(for input: SourceInput) throws -> any Extractor {
        var best: (any Extractor)?
        var bestScore = 0
        for extractor in extractors {
            let score = extractor.confidence(for: input)
            // 100 is certain (magic bytes): no later reader can win, so none need look.
            if score >= 100 { return extractor }
            if score > bestScore {
                best = extractor
                bestScore = score
            }
        }
        if let best { return best }
        if input.isDirectory {
            throw LecternError(.unsupported, input.displayName, "no reader knows this folder layout")
        }
        if input.data.isEmpty {
            throw LecternError(.empty, input.displayName, "empty file")
        }
        if TextDecoding.looksBinary(input.data) {
            throw LecternError(.unsupported, input.displayName, "binary data that no reader understands")
        }
        throw LecternError(.unsupported, input.displayName, "no reader understands this content")
    }

    func reader(named name: String) -> (any Extractor)? {
        extractors.first { $0.name == name }
    }
}
