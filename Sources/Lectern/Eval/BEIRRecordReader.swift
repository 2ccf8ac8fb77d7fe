import Foundation

/// Reads one corpus record of a BEIR dataset, as `EvalLibrary` writes it to a file of its own:
/// `{"_id": …, "title": …, "text": …}`. The title is the document's title and the heading its
/// passages sit under (so keyword search sees it, as it sees a note's headings); the text's
/// blank-line-separated paragraphs are the blocks.
struct BEIRRecordReader: Extractor {
    let name = "beir"
    let version = 1

    init() {}

    func confidence(for input: SourceInput) -> Int {
        input.data.prefix(7).elementsEqual(Data(#"{"_id":"#.utf8)) ? 100 : 0
    }

    func extract(_ input: SourceInput) throws -> ExtractedDocument {
        let record: BEIRDataset.Record
        do {
            record = try JSONDecoder().decode(BEIRDataset.Record.self, from: input.data)
        } catch {
            throw LecternError(.corrupt, input.displayName, "not a BEIR corpus record")
        }
        let title = TextCleanup.collapseWhitespace(record.title)
        let section = title.isEmpty ? [] : [title]
        var blocks: [Block] = title.isEmpty ? [] : [Block(kind: .title, text: title)]
        for paragraph in record.text.components(separatedBy: "\n\n") {
            let text = TextCleanup.collapseWhitespace(paragraph)
            if !text.isEmpty { blocks.append(Block(kind: .paragraph, text: text, sectionPath: section)) }
        }
        return ExtractedDocument(type: name, title: title.isEmpty ? record.id : title, blocks: blocks,
                                 metadata: ["corpus_id": record.id])
    }
}
