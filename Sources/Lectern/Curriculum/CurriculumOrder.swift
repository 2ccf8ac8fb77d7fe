import Foundation

/// The order of a curriculum's sources, one unit (or more) each: what `curriculum build --order`
/// chooses.
public enum CurriculumOrder: String, Codable, Sendable, CaseIterable {
    /// By path, numbers in names compared as numbers ("lecture-2" before "lecture-10").
    case name
    /// As the sources were named on the command line (a folder's documents by name within it).
    case given
    /// By name, then a source that defines a term comes before the sources that use it.
    case dependencies

    /// `a` comes before `b` in natural order: runs of digits compare as numbers, the rest
    /// without regard to case.
    static func naturallyBefore(_ a: String, _ b: String) -> Bool {
        let x = runs(a.lowercased()), y = runs(b.lowercased())
        for (p, q) in zip(x, y) where p != q {
            if let m = UInt64(p), let n = UInt64(q) { return m != n ? m < n : p.count < q.count }
            return p < q
        }
        return x.count != y.count ? x.count < y.count : a < b
    }

    /// "lecture-10.srt" → ["lecture-", "10", ".srt"].
    private static func runs(_ text: String) -> [String] {
        var runs: [String] = []
        var current = ""
        var digits = false
        for character in text {
            let isDigit = character.isASCII && character.isNumber
            if !current.isEmpty, isDigit != digits {
                runs.append(current)
                current = ""
            }
            digits = isDigit
            current.append(character)
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    /// `items` (in name order) reordered so that an item defining a term comes before items that
    /// lean on it: `defines[i]` holds the stemmed terms item i defines, `uses[i][term]` how often
    /// item i says each. An item follows another when it says a term the other defines at least
    /// `PrerequisiteLinks.minimumUses` times and does not define the term itself. Otherwise
    /// (and to break a cycle) name order stands.
    static func dependencyOrder(defines: [Set<[String]>], uses: [[[String]: Int]]) -> [Int] {
        let count = defines.count
        var after: [Set<Int>] = Array(repeating: [], count: count)  // after[b]: items b must follow
        for a in 0..<count {
            for b in 0..<count where a != b {
                if defines[a].contains(where: { !defines[b].contains($0) && (uses[b][$0] ?? 0) >= PrerequisiteLinks.minimumUses }) {
                    after[b].insert(a)
                }
            }
        }
        var placed: [Int] = []
        var done: Set<Int> = []
        while placed.count < count {
            let open = (0..<count).filter { !done.contains($0) }
            // The first in name order whose predecessors are placed; in a cycle, the first left.
            let next = open.first { after[$0].isSubset(of: done) } ?? open[0]
            placed.append(next)
            done.insert(next)
        }
        return placed
    }
}
