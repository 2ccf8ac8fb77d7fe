import XCTest
@testable import Lectern

/// The tokenizer must give the model exactly the ids Hugging Face `tokenizers` gives it, or
/// the vectors drift; and it sizes passages, so its counts must be the model's counts.
final class WordPieceTokenizerTests: XCTestCase {
    func testIdsMatchHuggingFaceTokenizersOnRealPassages() throws {
        let tokenizer = try MiniLMFixtures.tokenizer()
        let fixture = try MiniLMFixtures.tokens()
        XCTAssertGreaterThanOrEqual(fixture.passages.count, 1000)
        var mismatches: [String] = []
        for item in fixture.passages + fixture.hard_cases {
            let ids = tokenizer.encode(item.text, maxLength: 256)
            if ids != item.idList || tokenizer.count(item.text) != item.count {
                mismatches.append("\(item.source): \(item.text.prefix(80).debugDescription) got \(ids.prefix(40)) count \(tokenizer.count(item.text)), expected \(item.idList.prefix(40)) count \(item.count)")
            }
        }
        XCTAssertEqual(mismatches.count, 0, "ids differ from tokenizers \(fixture.tokenizers) on \(mismatches.count) of \(fixture.passages.count + fixture.hard_cases.count) texts:\n" + mismatches.prefix(8).joined(separator: "\n"))
    }

    func testLongPassagesAreCutAt256PiecesWithSpecialTokens() throws {
        let tokenizer = try MiniLMFixtures.tokenizer()
        let long = try MiniLMFixtures.tokens().passages.filter { $0.count > 254 }
        XCTAssertFalse(long.isEmpty, "the fixture has passages longer than the model takes")
        for item in long {
            let ids = tokenizer.encode(item.text)
            XCTAssertEqual(ids.count, 256)
            XCTAssertEqual(ids.first, tokenizer.classifierId)
            XCTAssertEqual(ids.last, tokenizer.separatorId)
        }
    }

    func testChunkerSizesPassagesInModelPieces() throws {
        let tokenizer = try MiniLMFixtures.tokenizer()
        let text = try MiniLMFixtures.tokens().passages.filter { $0.source.hasPrefix("openstax") }.map(\.text).joined(separator: "\n\n")
        let blocks = text.components(separatedBy: "\n\n").map { Block(kind: .paragraph, text: $0) }
        let passages = Chunker(settings: ChunkSettings(), tokenCounter: tokenizer).chunk(blocks)
        XCTAssertGreaterThan(passages.count, 50)
        for passage in passages {
            XCTAssertLessThanOrEqual(tokenizer.count(passage.text), ChunkSettings().maxTokens, passage.text)
        }
    }

    /// A vocabulary file is one piece a line, the line number its id: LF or CRLF ends, an empty
    /// line keeps its id, no empty piece after the last line end, UTF-8 pieces whole.
    func testAVocabularyFileIsReadLineByLine() throws {
        let data = Data("[PAD]\r\n[UNK]\n\n##é\nčaj\r\n[CLS]\n[SEP]\n".utf8)
        XCTAssertEqual(WordPieceTokenizer.lines(data), ["[PAD]", "[UNK]", "", "##é", "čaj", "[CLS]", "[SEP]"])
        XCTAssertEqual(WordPieceTokenizer.lines(Data("a\nb".utf8)), ["a", "b"])
        XCTAssertEqual(WordPieceTokenizer.lines(Data()), [])
        let folder = try TemporaryFolder()
        let file = folder.file("vocab.txt")
        try data.write(to: file)
        let tokenizer = try WordPieceTokenizer(vocabularyFile: file.path)
        XCTAssertEqual(tokenizer.unknownId, 1)
        XCTAssertEqual(tokenizer.classifierId, 5)
        XCTAssertEqual(tokenizer.vocabulary["čaj"], 4)
    }

    /// The vocabulary is a table over the pieces' bytes, read without a String a piece: every
    /// piece of a generated 40,000-line file (duplicates, CRLF ends, empty lines, accents) is
    /// found with its first line's id, as the dictionary it replaced found it, and nothing else is.
    func testTheVocabularyFindsEveryPieceWithItsFirstLinesId() throws {
        var random = TestRandom.seeded()
        let letters = Array("abcdeéfghijklmnopqrstuvwxyzčß#[]")
        var lines: [String] = []
        for _ in 0..<40_000 {
            let length = Int.random(in: 0...9, using: &random)
            lines.append(String((0..<length).map { _ in letters[Int.random(in: 0..<letters.count, using: &random)] }))
        }
        let data = Data(lines.enumerated().map { $0.element + ($0.offset % 7 == 0 ? "\r\n" : "\n") }.joined().utf8)
        let vocabulary = WordPieceVocabulary(lines: data)
        var first: [String: Int32] = [:]
        for (id, piece) in lines.enumerated() where first[piece] == nil { first[piece] = Int32(id) }
        XCTAssertEqual(vocabulary.count, first.count)
        for (piece, id) in first { XCTAssertEqual(vocabulary[piece], id, "\(piece), \(random.replay)") }
        XCTAssertEqual(WordPieceVocabulary(lines).count, first.count)
        for absent in ["zzzzzzzzzz", "ÉÉ", "abcdefghijk", "##quokka"] where first[absent] == nil {
            XCTAssertNil(vocabulary[absent], absent)
        }
    }
}

