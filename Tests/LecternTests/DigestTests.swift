import XCTest
@testable import Lectern

/// Lectern's own SHA-256 and SHA-1 (content hashes, card ids, Anki's checksum) give what
/// coreutils' sha256sum and sha1sum give, at every length around the 64-byte block and its
/// padding, and the standard's own examples.
final class DigestTests: CommandTestCase {
    func coreutils(_ tool: String, _ file: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
        process.arguments = [file.path]
        let result = try capture(process)
        XCTAssertEqual(result.status, 0, result.stderr)
        return String(result.stdout.prefix { $0 != " " })
    }

    func testDigestsAgreeWithCoreutilsAtEveryBlockBoundary() throws {
        var generator = TestRandom.seeded()
        var lengths = Array(0...130) + [1_000, 4_095, 4_096, 65_537, 1_000_003]
        lengths.shuffle(using: &generator)
        for length in lengths {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let data = Data(bytes)
            let file = try folder.write("r-\(length).bin", data)
            XCTAssertEqual(ContentHash.sha256(data), try coreutils("sha256sum", file), "SHA-256 of \(length) bytes (\(generator.replay))")
            XCTAssertEqual(ContentHash.hex(ContentHash.sha1Bytes(data)), try coreutils("sha1sum", file), "SHA-1 of \(length) bytes (\(generator.replay))")
        }
    }

    func testTheStandardsExamples() {
        XCTAssertEqual(ContentHash.sha256("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(ContentHash.sha256(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(ContentHash.sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(ContentHash.hex(ContentHash.sha1Bytes(Data("abc".utf8))), "a9993e364706816aba3e25717850c26c9cd0d89d")
    }
}
