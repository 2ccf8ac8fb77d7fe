import Foundation

/// BERT's word pieces by their UTF-8 bytes: one buffer of every piece's bytes and an
/// open-addressing table of ids hashed on those bytes (FNV-1a). Read from `vocab.txt` without
/// making a String per piece: a `[String: Int32]` of BERT's 30,522 pieces took 8 ms of every
/// one-shot semantic `lectern search` (13% of its CPU in perf, release build: a String and a
/// seeded hash of each piece), where the query itself needs a few dozen look-ups.
struct WordPieceVocabulary: Sendable {
    private var bytes: [UInt8] = []
    /// Each id's piece: where its bytes start in `bytes`, and how many there are.
    private var starts: [Int32] = []
    private var lengths: [Int32] = []
    /// Slots of ids + 1 (0: empty), a power of two at least twice the pieces.
    private var slots: [Int32]
    /// Distinct pieces (a piece listed twice keeps its first id, as a dictionary filled in order would).
    private(set) var count = 0

    /// The pieces one a line (LF or CRLF; no empty last line), the line number each one's id.
    init(lines data: Data) {
        let expected = data.reduce(into: 0) { if $1 == UInt8(ascii: "\n") { $0 += 1 } } + 1
        self.init(capacity: expected, bytes: data.count)
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let all = raw.bindMemory(to: UInt8.self)
            var start = 0
            func add(_ end: Int) {
                var stop = end
                if stop > start, all[stop - 1] == UInt8(ascii: "\r") { stop -= 1 }
                append(UnsafeBufferPointer(rebasing: all[start..<stop]))
            }
            for index in 0..<all.count where all[index] == UInt8(ascii: "\n") {
                add(index)
                start = index + 1
            }
            if start < all.count { add(all.count) }
        }
    }

    /// `pieces` in order, each one's index its id.
    init(_ pieces: [String]) {
        self.init(capacity: pieces.count, bytes: pieces.reduce(0) { $0 + $1.utf8.count })
        for piece in pieces {
            let utf8 = Array(piece.utf8)
            utf8.withUnsafeBufferPointer { append($0) }
        }
    }

    private init(capacity: Int, bytes size: Int) {
        var slotCount = 16
        while slotCount < 2 * capacity { slotCount <<= 1 }
        slots = [Int32](repeating: 0, count: slotCount)
        bytes.reserveCapacity(size)
        starts.reserveCapacity(capacity)
        lengths.reserveCapacity(capacity)
    }

    /// The next id's piece; looked up only if no earlier id has the same bytes.
    private mutating func append(_ piece: UnsafeBufferPointer<UInt8>) {
        let id = Int32(starts.count)
        starts.append(Int32(bytes.count))
        lengths.append(Int32(piece.count))
        bytes.append(contentsOf: piece)
        if slots.count < 2 * (count + 1) { grow() }
        var slot = Self.hash(piece) & (slots.count - 1)
        while slots[slot] != 0 {
            if matches(Int(slots[slot] - 1), piece) { return }
            slot = (slot + 1) & (slots.count - 1)
        }
        slots[slot] = id + 1
        count += 1
    }

    private mutating func grow() {
        let old = slots.filter { $0 != 0 }
        slots = [Int32](repeating: 0, count: slots.count * 2)
        for entry in old {
            let id = Int(entry - 1)
            var slot = bytes.withUnsafeBufferPointer { Self.hash(UnsafeBufferPointer(rebasing: $0[Int(starts[id])..<Int(starts[id] + lengths[id])])) }
                & (slots.count - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = entry
        }
    }

    /// The id of `piece`, or nil when the vocabulary lacks it.
    subscript(piece: String) -> Int32? {
        if let found = piece.utf8.withContiguousStorageIfAvailable({ id(of: $0) }) { return found }
        return Array(piece.utf8).withUnsafeBufferPointer { id(of: $0) }
    }

    private func id(of piece: UnsafeBufferPointer<UInt8>) -> Int32? {
        var slot = Self.hash(piece) & (slots.count - 1)
        while slots[slot] != 0 {
            if matches(Int(slots[slot] - 1), piece) { return slots[slot] - 1 }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }

    private func matches(_ id: Int, _ piece: UnsafeBufferPointer<UInt8>) -> Bool {
        guard Int(lengths[id]) == piece.count else { return false }
        guard piece.count > 0 else { return true }
        return bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + Int(starts[id]), piece.baseAddress!, piece.count) == 0 }
    }

    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }
}
