import Foundation

/// Cuts the bytes read from stdin into newline-delimited messages. Each byte is looked at once
/// (a search for the line end starts where the last one stopped, so reading a message of n bytes
/// in 64 KiB pieces is O(n), not O(n²)), and a message may not grow past `limit`: the rest of an
/// over-long line is skipped as it arrives, never held, and reported as one `.tooLong` when its
/// line ends, so the lines after it are served as usual.
struct MCPLineFramer {
    /// 4 MiB: far above any request a client sends (a tool call's arguments are a few KiB),
    /// small enough that one line cannot hold the server's memory or time.
    static let defaultLimit = 4 << 20

    enum Frame: Equatable {
        /// One message, without its line end (a trailing `\r` of a CRLF line is kept: JSON allows it).
        case message(Data)
        /// A line longer than the limit, skipped: its length in bytes.
        case tooLong(bytes: Int)
    }

    let limit: Int
    private var pending: [UInt8] = []
    /// Bytes of `pending` already searched for a line end.
    private var searched = 0
    /// Bytes of the over-long line being skipped, or nil when none is.
    private var skipping: Int?
    /// Every byte compared with the line end so far: a test checks that it grows with the input, not faster.
    private(set) var bytesExamined = 0

    /// Bytes kept for the message in hand (at most about `limit` plus one read).
    var bytesHeld: Int { pending.count }

    init(limit: Int = MCPLineFramer.defaultLimit) {
        self.limit = limit
    }

    /// The messages completed by `bytes`, in order.
    mutating func append<Bytes: Collection>(_ bytes: Bytes) -> [Frame] where Bytes.Element == UInt8 {
        var frames: [Frame] = []
        pending.append(contentsOf: bytes)
        var start = 0
        while searched < pending.count {
            let newline = Self.firstNewline(in: pending, from: searched)
            bytesExamined += (newline.map { $0 + 1 } ?? pending.count) - searched
            guard let newline else {
                searched = pending.count
                break
            }
            if let skipped = skipping {
                frames.append(.tooLong(bytes: skipped + newline - start))
                skipping = nil
            } else if newline - start > limit {
                frames.append(.tooLong(bytes: newline - start))
            } else {
                let line = pending[start..<newline]
                if !line.allSatisfy({ $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: " ") }) { frames.append(.message(Data(line))) }
            }
            start = newline + 1
            searched = start
        }
        pending.removeFirst(start)
        searched -= start
        // The line in hand is already too long: what has come of it is dropped, and so is the
        // rest as it arrives, until its line end.
        if pending.count > limit || (skipping != nil && !pending.isEmpty) {
            skipping = (skipping ?? 0) + pending.count
            pending.removeAll(keepingCapacity: true)
            searched = 0
        }
        return frames
    }

    /// memchr: the same search as `firstIndex(of:)`, at memory speed in a debug build too.
    static func firstNewline(in bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, start < buffer.count,
                  let found = memchr(base + start, Int32(UInt8(ascii: "\n")), buffer.count - start) else { return nil }
            return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
        }
    }
}
