/// "This topic builds on that one": a topic that uses, substantively, a term an earlier topic
/// defines and teaches links to it, naming the term. The links are recorded, shown and exported;
/// the sources' order is never changed.
///
/// The thresholds were chosen on the dev half of a hand-labelled set of 102 candidate links in
/// the OpenStax philosophy book (eval/prerequisites, README there) and measured on the other half.
enum PrerequisiteLinks {
    /// At most this many links a topic: the few terms it leans on most.
    static let limit = 3

    /// A term the topic names once is mentioned, not built on ("the chapter on logic covers …").
    static let minimumUses = 2

    /// A term more than this share of the topics use is the course's vocabulary ("argument",
    /// "God", "ethics" in a philosophy book), weak evidence that one topic needs another.
    static let generalShare = 0.35

    /// The defining topic teaches the term: it names it in its title or uses it this often.
    /// A definition sentence met in passing ("This period is known as the Enlightenment") does
    /// not make a topic the place to learn the term.
    static let teachingUses = 5

    /// A term the topic leans on across its text: this many uses per 1,000 of its words.
    static let leaningDensity = 2.5

    /// An everyday word ("oughts that have no firm foundation") said fewer times than this is
    /// said in passing: it links only to the topic whose title names it, or from a topic whose
    /// title or objectives name it. A technical word ("momentum", "torque") or a phrase the
    /// source defines ("critical thinking", "cross product") links at `minimumUses`.
    static let passingUses = 3

    /// A one-word term is an everyday word when more than this share of the topics before the one
    /// that defines it (and at least two) say it: the philosophy book says "foundation" in 7 of
    /// the 40 topics before 8.3 defines it; OCW 8.01SC says "momentum" in 1 of the 83 topics
    /// before its week 5 and "torque" in 2 of 171.
    static let everydayShare = 0.1

    /// Only the source's glossary and definitions in the text's own words define a term; an
    /// emphasised word or a heading is no evidence that the topic explains it.
    static let definingBases: Set<KeyTermBasis> = [.glossary, .defined]

    /// The links of every topic that has any, keyed by the using topic's stable id. `topics` are
    /// in course order: a link points back, never to a later topic. A term is linked to the first
    /// topic that defines and teaches it; a topic that defines a term itself needs no link for
    /// it; each defining topic appears once, under the term the user uses most. The use must be
    /// substantive: an earlier section of the same unit that names the term as what it teaches
    /// (title or the source's objectives), or a topic that names the term in its own title or
    /// objectives or leans on it throughout (`leaningDensity`). In a philosophy book "virtue" and
    /// "statement" mean other things in other chapters; these are what tells the senses apart.
    /// `units`: each topic's unit (by index), when known; without it the topics are one unit.
    static func links(for topics: [Topic], units: [Int]? = nil) -> [String: [TopicLink]] {
        let unit = units ?? Array(repeating: 0, count: topics.count)
        // The topic's own text, without its glossary (which restates only its own terms) and
        // without the titles it lists: a week's overview naming "37.3 Angular Momentum of
        // Translation and Rotation" among its lessons does not use angular momentum.
        // Each passage's stems once, and again without its outline lines only where it has some.
        var wholeTexts: [[String]] = []
        let texts = topics.map { topic in
            var whole: [String] = []
            var read: [String] = []
            for passage in topic.passages where passage.kind != .glossary {
                let stems = TermMatcher.stems(passage.text)
                whole += stems
                read += hasOutlineLines(passage.text) ? TermMatcher.stems(withoutOutlineLines(passage.text)) : stems
            }
            wholeTexts.append(whole)
            return read
        }
        let titles = topics.map { TermMatcher.stems($0.title) }
        // What a topic says it teaches: its title and the source's own objectives.
        let taught = topics.map { topic in
            TermMatcher.stems(([topic.title] + topic.objectives.filter { $0.origin == .source }.map(\.statement)).joined(separator: ". "))
        }
        let aims = topics.map { topic in TermMatcher.stems(([topic.title] + topic.objectives.map(\.statement)).joined(separator: ". ")) }
        // The titles that hold each stem, in course order: whether an earlier title names a term
        // is asked of the few titles holding its first word, not of every earlier title.
        var titlesHolding: [String: [Int]] = [:]
        for (position, title) in titles.enumerated() {
            for stem in Set(title) { titlesHolding[stem, default: []].append(position) }
        }
        func namedInATitle(_ stems: [String], before position: Int) -> Bool {
            for index in titlesHolding[stems[0]] ?? [] {
                if index >= position { break }
                if TermMatcher.count(stems, in: titles[index]) > 0 { return true }
            }
            return false
        }
        // Each term's stems, and the first topic that defines and teaches it. A term an earlier
        // topic names in its title ("1.2 Position Vector in 1D") is that topic's to teach: a later
        // definition of it ("8.2 Circular Motion: Position and Velocity Vectors") is no place
        // to learn it, and the term links nothing.
        var definer: [[String]: (position: Int, term: String)] = [:]
        var taughtBefore: Set<[String]> = []
        var order: [[String]] = []
        for (position, topic) in topics.enumerated() {
            for keyTerm in topic.keyTerms where definingBases.contains(keyTerm.basis) {
                let stems = TermMatcher.stems(keyTerm.term)
                // A one-word term of one or two letters matches too much to mean anything.
                guard !stems.isEmpty, stems.joined().count > 2, definer[stems] == nil, !taughtBefore.contains(stems) else { continue }
                if namedInATitle(stems, before: position) {
                    taughtBefore.insert(stems)
                    continue
                }
                guard TermMatcher.count(stems, in: titles[position]) > 0 || TermMatcher.count(stems, in: texts[position]) >= teachingUses else { continue }
                definer[stems] = (position, keyTerm.term)
                order.append(stems)
            }
        }
        // A term said inside a longer defined term is not said ("momentum" in "angular momentum"):
        // each term's longer terms (by rank in `order`) and how often it is said in each.
        var termsHolding: [String: [Int]] = [:]
        var termsStartingWith: [String: [Int]] = [:]
        for (rank, stems) in order.enumerated() {
            for stem in Set(stems) { termsHolding[stem, default: []].append(rank) }
            termsStartingWith[stems[0], default: []].append(rank)
        }
        let longer: [[(rank: Int, inner: Int)]] = order.map { stems in
            (termsHolding[stems[0]] ?? []).compactMap { rank -> (rank: Int, inner: Int)? in
                let outer = order[rank]
                let inner = outer.count > stems.count ? TermMatcher.count(stems, in: outer) : 0
                return inner > 0 ? (rank, inner) : nil
            }
        }
        func said(_ rank: Int, in words: [String]) -> Int {
            var count = TermMatcher.count(order[rank], in: words)
            guard count > 0 else { return 0 }
            for outer in longer[rank] { count -= TermMatcher.count(order[outer.rank], in: words) * outer.inner }
            return max(0, count)
        }
        // How often each topic's text says each term (by rank; absent: never), counted in one
        // pass over its words: a term is looked for only where its first word is, not by reading
        // every topic's text once per term (terms × topics × words, a quarter of a book's build).
        let counts: [[Int: Int]] = texts.map { words in
            var found: [Int: Int] = [:]
            // TermMatcher.count's rule: a match's words are not the start of another.
            var nextAllowed: [Int: Int] = [:]
            for (index, word) in words.enumerated() {
                for rank in termsStartingWith[word] ?? [] {
                    let term = order[rank]
                    guard index >= nextAllowed[rank] ?? 0, index + term.count <= words.count,
                          words[index..<(index + term.count)].elementsEqual(term) else { continue }
                    found[rank, default: 0] += 1
                    nextAllowed[rank] = index + term.count
                }
            }
            return found
        }
        func timesSaid(_ rank: Int, byTopic topic: Int) -> Int {
            var count = counts[topic][rank] ?? 0
            guard count > 0 else { return 0 }
            for outer in longer[rank] { count -= (counts[topic][outer.rank] ?? 0) * outer.inner }
            return max(0, count)
        }
        // How many topics before its definer say each term (`everydayShare`).
        var saidBefore = Array(repeating: 0, count: order.count)
        for topic in topics.indices {
            for rank in counts[topic].keys where topic < definer[order[rank]]?.position ?? 0 && timesSaid(rank, byTopic: topic) > 0 {
                saidBefore[rank] += 1
            }
        }
        if topics.count >= 4 {
            var users = Array(repeating: 0, count: order.count)
            for topic in topics.indices {
                for rank in counts[topic].keys where timesSaid(rank, byTopic: topic) > 0 { users[rank] += 1 }
            }
            for (rank, stems) in order.enumerated() where Double(users[rank]) > generalShare * Double(topics.count) { definer[stems] = nil }
        }
        var result: [String: [TopicLink]] = [:]
        var sense: TermSense?  // weighed only when a link crosses units
        for (position, topic) in topics.enumerated() {
            let own = Set(topic.keyTerms.map { TermMatcher.stems($0.term) })
            var uses: [(target: Int, term: String, count: Int, rank: Int)] = []
            // A term the topic's text never says is not used (its count would be 0).
            for rank in counts[position].keys {
                let stems = order[rank]
                guard let defined = definer[stems], defined.position < position, !own.contains(stems) else { continue }
                let count = timesSaid(rank, byTopic: position)
                guard count >= minimumUses else { continue }
                let sameUnitLesson = unit[defined.position] == unit[position] && TermMatcher.count(stems, in: taught[defined.position]) > 0
                let leansOn = said(rank, in: aims[position]) > 0
                    || Double(count) * 1_000 >= leaningDensity * Double(max(1, texts[position].count))
                guard sameUnitLesson || leansOn else { continue }
                // An everyday word said in passing ("foundation", twice).
                let everyday = stems.count == 1 && saidBefore[rank] >= 2 && Double(saidBefore[rank]) > everydayShare * Double(defined.position)
                if everyday, count < passingUses, TermMatcher.count(stems, in: titles[defined.position]) == 0,
                   said(rank, in: aims[position]) == 0 { continue }
                // Across units a word may mean another thing ("monists" of value, not of substance).
                if unit[defined.position] != unit[position] {
                    // The whole text, titles listed too, is a term's context for its sense: a
                    // week's overview says what it teaches among its lessons' titles.
                    if sense == nil { sense = TermSense(texts: wholeTexts) }
                    let definition = topics[defined.position].keyTerms.first { TermMatcher.stems($0.term) == stems }?.definition ?? ""
                    guard sense!.same(stems, user: position, definer: defined.position, definition: definition) else { continue }
                }
                uses.append((defined.position, defined.term, count, rank))
            }
            // (count, rank) orders the uses wholly, whatever order they were found in.
            uses.sort { $0.count != $1.count ? $0.count > $1.count : $0.rank < $1.rank }
            var links: [TopicLink] = []
            for use in uses where links.count < limit {
                let target = topics[use.target].stableId
                if !links.contains(where: { $0.topicStableId == target }) { links.append(TopicLink(topicStableId: target, term: use.term)) }
            }
            if !links.isEmpty { result[topic.stableId] = links }
        }
        return result
    }

    /// `text` without its outline lines: a line of a list of lessons or sections ("35.1
    /// Translation and Rotation of a Wheel", "Lesson 37: Rolling Kinetic Energy", "Week 12:
    /// Rotations and Translation - Rolling", "DD.3.1 Gyroscopes 1 - …"), which its first or second
    /// word numbers (the second after a capitalised word that is no stopword) and which no full
    /// stop, question or exclamation mark ends. A numbered
    /// sentence ("1. Every premise is true.") stays. One pass over the lines, bytes only.
    static func withoutOutlineLines(_ text: String) -> String {
        guard text.contains("\n") else { return isOutlineLine(Substring(text)) ? "" : text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { !isOutlineLine($0) }.joined(separator: "\n")
    }

    /// Whether any line of `text` is an outline line, without copying it.
    static func hasOutlineLines(_ text: String) -> Bool {
        text.split(separator: "\n").contains { isOutlineLine($0) }
    }

    static func isOutlineLine(_ line: Substring) -> Bool {
        var line = line.drop { $0 == " " || $0 == "\t" }
        while let last = line.last, last == " " || last == "\t" || last == "\r" { line = line.dropLast() }
        guard let last = line.last, !".?!".contains(last) else { return false }
        let words = line.split(separator: " ", maxSplits: 2)
        // "35.1", "DD.3.1", "12:", "37:" — a numbering word: digits with dots, letters or a colon.
        func numbers(_ word: Substring) -> Bool {
            word.contains(where: \.isNumber) && word.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" || $0.isUppercase }
        }
        // "Week 12", "Lesson 37:", not "In 1651 Hobbes wrote …".
        return words.count >= 2 && (numbers(words[0]) || (words.count >= 3 && words[0].first?.isUppercase == true && numbers(words[1])
            && !ContentWords.stopwords.contains(words[0].lowercased())))
    }
}
