import Foundation
import XCTest
@testable import lectern_mcp

/// The MCP server's stdin reader, fed as `read(2)` feeds it (64 KiB at a time): each byte is
/// looked at once whatever the message's size, and a line past the cap is skipped as it comes
/// and reported once, with the lines after it read as usual.
final class MCPLineFramerTests: XCTestCase {
    /// Feeds `bytes` in pieces of `piece` bytes; every frame, and the bytes the framer examined.
    func frames(_ bytes: [UInt8], piece: Int = 1 << 16, limit: Int = MCPLineFramer.defaultLimit) -> ([MCPLineFramer.Frame], Int) {
        var framer = MCPLineFramer(limit: limit)
        var frames: [MCPLineFramer.Frame] = []
        for start in stride(from: 0, to: bytes.count, by: piece) {
            frames += framer.append(bytes[start..<min(start + piece, bytes.count)])
        }
        return (frames, framer.bytesExamined)
    }

    func request(_ id: Int, padding: Int = 0) -> [UInt8] {
        Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"search","arguments":{"query":"\#(String(repeating: "a", count: padding))"}}}"#.utf8) + [10]
    }

    func testEachByteIsExaminedOnceWhateverTheMessagesSize() {
        // The reader before this searched the whole pending message after every 64 KiB read:
        // a 3 MB message cost 48 searches of up to 3 MB, about 75 MB of comparisons.
        for size in [1 << 20, 3 << 20] {
            let input = request(1, padding: size) + request(2)
            let (frames, examined) = frames(input)
            XCTAssertEqual(frames.count, 2)
            XCTAssertEqual(frames.last, .message(Data(request(2).dropLast())))
            XCTAssertEqual(examined, input.count, "a \(size)-byte message")
        }
        // Byte by byte too, and many small messages in one read.
        let small = (1...200).flatMap { request($0) }
        XCTAssertEqual(frames(small, piece: 1).1, small.count)
        XCTAssertEqual(frames(small).0.count, 200)
    }

    func testALineOverTheCapIsReportedOnceAndNotHeld() {
        let limit = 4 << 20
        let input = request(1, padding: 6 << 20) + request(2) + Array("   \r\n".utf8) + request(3)
        var framer = MCPLineFramer(limit: limit)
        var frames: [MCPLineFramer.Frame] = []
        var largestHeld = 0
        for start in stride(from: 0, to: input.count, by: 1 << 16) {
            frames += framer.append(input[start..<min(start + (1 << 16), input.count)])
            largestHeld = max(largestHeld, framer.bytesHeld)
        }
        XCTAssertEqual(frames, [.tooLong(bytes: request(1, padding: 6 << 20).count - 1),
                                .message(Data(request(2).dropLast())), .message(Data(request(3).dropLast()))])
        XCTAssertLessThanOrEqual(largestHeld, limit + (1 << 16), "the skipped line is not kept in memory")
        XCTAssertEqual(framer.bytesExamined, input.count)
        // A message of exactly the cap is taken.
        let exact = Array(repeating: UInt8(ascii: "x"), count: limit) + [10]
        XCTAssertEqual(self.frames(exact, limit: limit).0, [.message(Data(exact.dropLast()))])
        XCTAssertEqual(self.frames(exact + exact.prefix(1) + [10], limit: limit).0.count, 2)
    }
}
