import Foundation

/// The text a topic's summary is made from (by the offline extractive method or a model): its
/// passages of prose and speech, not its lists of objectives, glossary entries or exercises,
/// nor captions or a recording's credit line; formulas written as a reader sees them (an OCW
/// page's `\(\displaystyle m\)` as "m", a PDF's broken "x 7→ [x]" as "x ↦ [x]"), a problem's
/// statement left out beside other text, and a lecture's speech as what it teaches, without
/// fillers, false starts, remarks to the audience, the lecturer's plan and working at the board,
/// or derivations read aloud (`SpokenSentences.Reading`).
enum TopicSummaryText {
    static func paragraphs(of passages: [Passage]) -> [String] {
        var chosen = passages.filter { ![.objective, .glossary, .exercise, .caption].contains($0.kind) }
        if chosen.isEmpty { chosen = passages }
        // A problem's statement (its givens and what to find: "Block 1 of mass 3m is sliding …
        // Determine the initial speed") says what is asked, not what is taught: left out where
        // other text is there to summarise.
        let unasked = chosen.filter { $0.kind == .transcript || !asks($0.text) }
        if !unasked.isEmpty { chosen = unasked }
        let texts = chosen.map { MathText.readableProse(withoutCredits($0.text)) }
        // Sentences of the lecture that pass (a topic's other text does not count, nor the
        // lecture's announcement, "The lecture talks about …", which says nothing it teaches).
        func spoken(_ reading: SpokenSentences.Reading) -> ([String], Int) {
            var count = 0
            // The lecture's opening (where it announces its subject) is its first passage's.
            let first = chosen.firstIndex { $0.kind == .transcript }
            let paragraphs = zip(chosen.indices, texts).map { index, text -> String in
                guard chosen[index].kind == .transcript else { return text }
                let written = SpokenSentences.written(text, reading: reading, opening: index == first ? 3 : 0)
                if !written.isEmpty { count += SentenceSplitter.split(written).filter { !$0.text.hasPrefix("The lecture ") }.count }
                return written
            }.filter { !$0.isEmpty }
            return (paragraphs, count)
        }
        var (readable, count) = spoken(.taught)
        // A lecture is read by what it teaches where a sentence of it besides its announcement
        // says that; else by its statements where three do; else leniently (its whole sentences,
        // fillers, openers and derivations out): one sentence says too little of it.
        if chosen.contains(where: { $0.kind == .transcript }), count < 1 {
            let statements = spoken(.statements)
            let whole = statements.1 < 3 ? spoken(.spoken) : statements
            readable = whole.1 > 0 ? whole.0 : statements.0
        }
        // A lecture none of whose sentences reads as a statement is summarised as spoken (an
        // empty summary tells the learner less).
        return readable.isEmpty ? texts : readable
    }

    /// A lecture's offline summary led by what the lecture does (#31): "The lecture defines
    /// impulse and applies Newton's second law." from its objectives, or "A worked example:
    /// Gravity Superposition." from a worked example's title, then at most two sentences of what
    /// it teaches (`taught`). A summary already saying what the lecture does ("The lecture
    /// talks about …") opens on that sentence instead; text that is no lecture is left as it is.
    /// `paragraphs` is the text the summary was made from, `terms` the topic's key terms.
    static func led(_ summary: String, title: String, objectives: [String], passages: [Passage], paragraphs: [String] = [],
                    terms: [String] = []) -> String {
        guard !summary.isEmpty, passages.contains(where: { $0.kind == .transcript }) else { return summary }
        var sentences = SentenceSplitter.split(summary, symbols: true).map(\.text)
        let subject = lectureSubject(title: title, objectives: objectives, terms: terms)
        let titled = ExtractiveSummarizer.subjectWords(title)
        if let own = sentences.firstIndex(where: { $0.hasPrefix("The lecture ") }) {
            let sentence = sentences.remove(at: own)
            // "The lecture talks about kinetic energy." says what the lecture states of it too.
            if let formula = statedFormula(lead: sentence, passages: passages, title: title) {
                return ([sentence, formula] + taught(sentences, paragraphs: paragraphs, passages: passages, subject: subject, titled: titled).prefix(1)).joined(separator: " ")
            }
            return ([sentence] + taught(sentences, paragraphs: paragraphs, passages: passages, subject: subject, titled: titled)).joined(separator: " ")
        }
        // A summary whose first sentence names the title's subject ("The idea of transfer
        // learning is to …" on "What is transfer learning?") already says what the lecture is about.
        if let first = sentences.first, !titled.isEmpty {
            let named = Set(WordTokenizer.words(first).map(WordTokenizer.fold)).intersection(titled).count
            if 3 * named >= 2 * titled.count {
                // (And the kinds of its subject it walks through, in place of its third sentence.)
                guard let kinds = walkedKinds(titled, passages) else { return summary }
                return (sentences.prefix(2) + [kinds]).joined(separator: " ")
            }
        }
        guard let lead = lectureLead(title: title, objectives: objectives, passages: passages) else { return summary }
        // A worked example says what it works out, from its problem's statement.
        if lead.hasPrefix("A worked example: ") {
            // The principles its speech says it applies ("The example applies the momentum principle.").
            let principles = appliedPrinciples(passages)
            if let question = workedQuestion(passages) {
                // (Not where the question names its principle: "The example uses the conservation of energy principle to …".)
                let rest = principles.flatMap { namesAPrinciple(question) ? nil : [$0] }
                    ?? Array(taught(sentences, paragraphs: paragraphs, passages: passages, subject: subject, titled: titled).prefix(1))
                return ([lead, question] + rest).joined(separator: " ")
            }
            if let principles { return [lead, principles].joined(separator: " ") }
            // Without its question, the principle it applies, never a step of its working ("The
            // normal force is directed towards the center of mass."): its lead alone says more.
            let applied = taught(sentences, paragraphs: paragraphs, passages: passages, subject: subject, titled: titled).filter(namesAPrinciple)
            return ([lead] + applied.prefix(1)).joined(separator: " ")
        }
        // A lecture that defines a quantity says the formula it states for it.
        if let formula = statedFormula(lead: lead, passages: passages, title: title) {
            // (The lecture's own sentence may follow: "Torque is defined as the cross product, R cross
            // F, which we can also write as R times F times the sine of theta.")
            return ([lead, formula] + taught(sentences, paragraphs: paragraphs, passages: passages, subject: subject, titled: titled).prefix(1)).joined(separator: " ")
        }
        return ([lead] + taught(sentences, paragraphs: paragraphs, passages: passages, subject: subject, titled: titled)).joined(separator: " ")
    }

    /// "Kinetic energy is K = 1/2 m v².", "Momentum, for a point-like mass, is p = m·v (m: the
    /// mass; v: the velocity).": the relation a lecture led by "The lecture defines kinetic
    /// energy." (or "… is about …", "… introduces …", "… talks about …") states for what it defines, read as the
    /// cards read a formula (`FormulaStatements`) and written as their backs are, in Unicode.
    /// Only a relation named for that very subject, from the lecture's own text (not a
    /// problem's statement); nil where it states none.
    static func statedFormula(lead: String, passages: [Passage], title: String = "") -> String? {
        var defined = ledSubjects(lead)
        // The quantity the title names ("8.3 Angular Velocity") after a lead about something else
        // ("The lecture applies the right hand rule.").
        let named = OfflineObjectives.withoutNumber(title).lowercased()
        if !named.isEmpty, named.split(separator: " ").count <= 4 { defined.insert(named) }
        guard !defined.isEmpty else { return nil }
        // A relation is its first name's, as on the cards: "Newton's second law in its rotational
        // form, tau is equal to I alpha" is the law's, not a definition of torque said after it.
        var seen = Set<String>()
        for passage in passages where ![.objective, .glossary, .exercise, .caption].contains(passage.kind) && !asks(passage.text) {
            for statement in FormulaStatements.statements(in: passage.text) where seen.insert(FormulaStatements.relationKey(statement)).inserted {
                guard !statement.fromSummaryLine else { continue }
                // "momentum (for a point-like mass)": the name and where the relation holds.
                var name = statement.name, qualifier = ""
                if let open = name.range(of: " ("), name.hasSuffix(")") {
                    qualifier = String(name[open.upperBound..<name.index(before: name.endIndex)])
                    name = String(name[..<open.lowerBound])
                }
                guard defined.contains(name.lowercased()) else { continue }
                let spoken = name.prefix(1).uppercased() + name.dropFirst() + (qualifier.isEmpty ? "" : ", \(qualifier),")
                let meanings = statement.meanings.isEmpty ? "" : " (\(statement.meanings.joined(separator: "; ")))"
                return MathText.readable("\(spoken) is \(statement.display)\(meanings).")
            }
        }
        return nil
    }

    /// How a lecture's lead names what it is about: a relation stated for that may follow it.
    static let ledOpenings = [
        "The lecture defines ", "The lecture is about ", "The lecture introduces ", "The lecture talks about ", "The lecture discusses ",
        "The lecture explains ", "The lecture covers ", "The lecture studies ", "The lecture looks at ",
    ]

    /// What a lead says the lecture defines, is about or introduces, each in lower case:
    /// "The lecture defines work and joule and applies …" → work, joule.
    static func ledSubjects(_ lead: String) -> Set<String> {
        guard let opening = ledOpenings.first(where: lead.hasPrefix) else { return [] }
        var what = String(lead.dropFirst(opening.count).dropLast())
        // "introduces the concept of work", "talks about kinetic energy again": the thing named.
        for prefix in ["the concept of ", "the idea of ", "the notion of ", "the "] where what.hasPrefix(prefix) {
            what = String(what.dropFirst(prefix.count))
            break
        }
        if what.hasSuffix(" again") { what = String(what.dropLast(6)) }
        // The first clause only: "defines impulse and applies Newton's second law".
        for verb in leadVerbs.values {
            if let other = what.range(of: " and \(verb) ") { what = String(what[..<other.lowerBound]) }
        }
        let items = what.replacingOccurrences(of: " and ", with: ", ").components(separatedBy: ", ")
        return Set(items.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty })
    }

    /// At most two sentences after a lecture's lead that say what it teaches: first what it
    /// defines or states about its subject ("Hooke's law is the statement that …", "Torque is
    /// defined as …"), from anywhere in its speech (`definitions`) or `paragraphs`, then the
    /// summary's sentences that name its subject or state something whole. A sentence about
    /// none of the lecture's subject (its title's words, its objectives' and key terms') is a
    /// step at the board ("The object, a little bit later, has moved."): the lead alone says
    /// more. Nor a short remark ("The m's fall out."): seven words or more.
    static func taught(_ sentences: [String], paragraphs: [String], passages: [Passage] = [], subject: Set<String>,
                       titled: Set<String> = []) -> [String] {
        let misheard = misheardWords(passages)
        // (The word lookups first: reading a sentence as speech costs several regular expressions.)
        func about(_ sentence: String) -> Bool {
            WordTokenizer.words(sentence).contains(where: { subject.contains(WordTokenizer.fold($0)) }) && readsAlone(sentence)
        }
        func readsAlone(_ sentence: String) -> Bool {
            // ("Second: Describe the motion …", "Part II: Constraint condition - find …": a step of a problem.)
            guard sentence.split(separator: " ").count >= 7, sentence.split(separator: " ").first?.hasSuffix(":") != true, !sentence.hasPrefix("The lecture "),
                  !namesUnsaid(sentence), !hears(sentence, misheard),
                  ExtractiveSummarizer.standsAlone(sentence), SpokenSentences.written(sentence: sentence, reading: .statements, opening: false) != nil else {
                return false
            }
            // A lecture short of statements is read leniently, so its paragraphs may hold lines
            // said to the audience or at the board; nor the working said as "we" or "our" ("We'd like to go to …", "we will write down …",
            // "what we need is …", "We can now apply …"); "we call", "we define" and "…, which we can
            // also write as …" say what a thing is.
            let words = WordTokenizer.words(sentence)
            for (index, word) in words.enumerated() where word == "we" || word == "our" {
                guard word == "we", index + 1 < words.count,
                      SpokenSentences.definingVerbs.contains(words[index + 1]) || words[index + 1] == "can" && index > 0 && words[index - 1] == "which" else {
                    return false
                }
            }
            return true
        }
        var chosen: [String] = []
        // The paragraphs' sentences, without the heading lines a merged passage carries; one of
        // more than 45 words is a stretch of speech the splitter did not cut.
        let lines = paragraphs.flatMap { $0.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) } }
        let statements: [String] = lines.filter { !ExtractiveSummarizer.isHeadingLine($0) }
            .flatMap { SentenceSplitter.split($0, symbols: true).map(\.text) }.filter { $0.split(separator: " ").count <= 45 }
        for sentence in definitions(passages) + statements.filter({ mayState($0) && ExtractiveSummarizer.statesSomething($0) })
        where chosen.count < 2 && sentence.split(separator: " ").count <= 45 && !chosen.contains(sentence) && about(sentence) {
            chosen.append(sentence)
        }
        // The summary's own sentences where they name the subject, or say a whole statement of
        // ten words or more without the working's "we" ("The Third Estate declared itself the
        // National Assembly …"; not "The object, a little bit later, has moved.", "Ds dt is just
        // the velocity of the object.").
        func states(_ sentence: String) -> Bool {
            sentence.split(separator: " ").count >= 10 && sentence.split(separator: " ").first?.hasSuffix(":") != true && !namesUnsaid(sentence)
                && !hears(sentence, misheard) && ExtractiveSummarizer.standsAlone(sentence)
                && SpokenSentences.written(sentence: sentence, reading: .taught, opening: false) != nil
        }
        for sentence in sentences where chosen.count < 2 && !sentence.hasPrefix("The lecture ") && (about(sentence) || states(sentence))
            && !chosen.contains(sentence) {
            chosen.append(sentence)
        }
        // Else what the lecture says its title's subject does, as that sentence's subject ("The
        // encoder outputs exactly one sequence of numbers per input word." in "The encoder
        // architecture"), unless a chosen sentence says it already ("We call capital omega the
        // precessional angular velocity." beside "The precessional angular velocity is capital omega.").
        if !titled.isEmpty {
            for sentence in statements where chosen.count < 2 && opensOnTitle(sentence, titled) && !chosen.contains(where: { repeats(sentence, $0) })
                && about(sentence) {
                chosen.append(sentence)
            }
        }
        // Else a sentence whose subject is the lecture's ("The scalar product is …"): its words
        // before its verb name it.
        for sentence in statements where chosen.count < 1 && opensOnSubject(sentence, subject) && about(sentence) {
            chosen.append(sentence)
        }
        // Else the summary's first sentence that reads alone and says a whole statement: a lead
        // alone says only what the lecture is about.
        if chosen.isEmpty, let first = sentences.first(where: { readsAlone($0) && states($0) }) { chosen.append(first) }
        // A short statement the lecture goes on about with "It …" ("The decoder is similar to the
        // encoder. It can also accept text inputs. … It differs from the encoder due to its
        // uni-directional feature …"): the longest of what it goes on to say, with its subject.
        if chosen.contains(where: { $0.split(separator: " ").count < 10 }) {
            let continued = continuations(passages)
            chosen = chosen.map { sentence in
                guard sentence.split(separator: " ").count < 10,
                      let next = continued[sentence]?.filter({ readsAlone($0) && !chosen.contains($0) }).max(by: { $0.count < $1.count }) else { return sentence }
                return next
            }
        }
        // And what the lecturer says matters most ("No, and that is the key point. Glycolysis is
        // anaerobic; …"), where it is not among them already.
        if let claim = stressed(passages).first(where: { readsAlone($0) }), !chosen.contains(where: { repeats(claim, $0) }) { chosen.append(claim) }
        return chosen
    }

    /// A lecture's sentences its speaker marks as what matters: what follows "the key point is
    /// that", "the important thing (to keep in mind) is that", "the main point is that", "what
    /// matters is that", and the sentence after a short one that says so of what was just said
    /// ("No, and that is the key point."); as written statements (`SpokenSentences`), the
    /// working's "we" out.
    static func stressed(_ passages: [Passage]) -> [String] {
        var claims: [String] = []
        for passage in passages where passage.kind == .transcript {
            let text = TextCleanup.collapseWhitespace(withoutCredits(passage.text))
            let lowered = text.lowercased()
            guard stressMarks.contains(where: { lowered.contains($0) }) else { continue }
            let sentences = stops(text)
            for (index, sentence) in sentences.enumerated() {
                let lower = sentence.lowercased()
                guard stressMarks.contains(where: { lower.contains($0) }) else { continue }
                var claim: String?
                if let said = sentence.range(of: #"\b(the (key|main) point|the (most )?important thing( to keep in mind| to remember)?|what matters) (here )?is that "#,
                                             options: [.regularExpression, .caseInsensitive]) {
                    let rest = sentence[said.upperBound...]
                    claim = rest.prefix(1).uppercased() + rest.dropFirst()
                } else if sentence.split(separator: " ").count <= 8, index + 1 < sentences.count,
                          lower.range(of: #"\b(that|this)('s| is) (the|a|an) (key|main|important|crucial) (point|thing|idea)\b"#, options: .regularExpression) != nil {
                    claim = sentences[index + 1]
                }
                if let claim, let written = SpokenSentences.written(sentence: claim, reading: .taught, opening: false) { claims.append(written) }
            }
        }
        return claims
    }

    /// `sentence` opens on a word of `titled` (a title's folded words, as a plural too), after an
    /// article at most, as its subject: the word after it is no preposition ("Encoders can be
    /// used …", "The encoder outputs …"; not "The encoder of a model …").
    static func opensOnTitle(_ sentence: String, _ titled: Set<String>) -> Bool {
        var words = WordTokenizer.words(sentence).prefix(3).map(WordTokenizer.fold)
        if let first = words.first, ["the", "a", "an"].contains(first) { words.removeFirst() }
        guard words.count >= 2, titled.contains(words[0]) || words[0].hasSuffix("s") && titled.contains(String(words[0].dropLast())) else { return false }
        return !ContentWords.prepositions.contains(words[1]) && words[1].count > 2
    }

    /// `sentence` says mostly what `other` says: most of the shorter one's words of four letters or
    /// more are the other's.
    static func repeats(_ sentence: String, _ other: String) -> Bool {
        let words = Set(WordTokenizer.words(sentence).map(WordTokenizer.fold).filter { $0.count > 3 })
        let others = Set(WordTokenizer.words(other).map(WordTokenizer.fold).filter { $0.count > 3 })
        guard !words.isEmpty, !others.isEmpty else { return sentence == other }
        return 3 * words.intersection(others).count >= 2 * min(words.count, others.count)
    }

    /// What a lecture goes on to say of a sentence's subject with "It …": "The decoder is similar
    /// to the encoder." → ["The decoder can also accept text inputs.", "The decoder differs from
    /// …"], keyed by the sentence as written (`SpokenSentences`). Only a subject of an article and
    /// one word before a verb ("The decoder is", "The encoder accepts"), and only the sentences
    /// opening "It " straight after it ("It's …" is not one).
    static func continuations(_ passages: [Passage]) -> [String: [String]] {
        var found: [String: [String]] = [:]
        for passage in passages where passage.kind == .transcript {
            let sentences = stops(TextCleanup.collapseWhitespace(withoutCredits(passage.text)))
            var index = 0
            while index < sentences.count {
                defer { index += 1 }
                guard index + 1 < sentences.count, sentences[index + 1].hasPrefix("It "),
                      let written = SpokenSentences.written(sentence: sentences[index], reading: .statements, opening: false) else { continue }
                let words = written.split(separator: " ")
                guard words.count >= 3, ["The", "A", "An"].contains(words[0]), words[1].allSatisfy({ $0.isLowercase || $0 == "-" }),
                      continuingVerbs.contains(String(words[2])) || words[2].hasSuffix("s") && !words[2].hasSuffix("ss") else { continue }
                let subject = "\(words[0]) \(words[1])"
                var next = index + 1
                while next < sentences.count, sentences[next].hasPrefix("It ") {
                    let said = subject + sentences[next].dropFirst(2)
                    if let statement = SpokenSentences.written(sentence: said, reading: .taught, opening: false) { found[written, default: []].append(statement) }
                    next += 1
                }
            }
        }
        return found
    }

    /// Verbs after a subject that do not end on "s".
    static let continuingVerbs: Set<String> = ["can", "will", "may", "must", "should", "could", "would", "has", "had", "was", "were", "are"]

    /// "The lecture walks through the sentiment analysis, zero-shot classification, text generation,
    /// fill mask and summarization pipelines.": the kinds of its title's subject a lecture names
    /// one by one, each as "the <one or two words> <a title word>", three or more of them (not
    /// "the same pipeline", "the first pipeline": words that say which, not what kind); nil where
    /// fewer.
    static func walkedKinds(_ titled: Set<String>, _ passages: [Passage]) -> String? {
        let text = passages.filter { $0.kind == .transcript }.map { TextCleanup.collapseWhitespace($0.text) }.joined(separator: " ")
        guard !text.isEmpty else { return nil }
        for head in titled.sorted() where head.count > 3 && head.allSatisfy(\.isLetter) {
            guard let pattern = try? NSRegularExpression(pattern: #"\bthe ((?:[a-z][a-z-]* ){1,2})"# + head + #"\b(?!-)"#, options: [.caseInsensitive]) else { continue }
            var kinds: [String] = []
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range(at: 1), in: text) else { continue }
                let kind = text[range].lowercased().trimmingCharacters(in: .whitespaces)
                let words = kind.split(separator: " ").map(String.init)
                // (An adjective says of what sort, not which kind: "the kinetic energy", "the internal forces".)
                guard !words.contains(where: { ContentWords.stopwords.contains($0) || whichWords.contains($0) || titled.contains($0) }),
                      !(words.count == 1 && ["al", "ic", "ive", "ous"].contains(where: { kind.hasSuffix($0) })), !kinds.contains(kind) else { continue }
                kinds.append(kind)
            }
            // Kinds walked through are each named apart: kinds sharing a word ("the total force", "the
            // total internal force") are a quantity's qualifiers, not a list.
            let shared = kinds.flatMap { $0.split(separator: " ") }
            guard kinds.count >= 3, Set(shared).count == shared.count else { continue }
            let plural = head.hasSuffix("y") && !"aeiou".contains(head.dropLast().last ?? "a") ? head.dropLast() + "ies" : head + "s"
            return "The lecture walks through the \(OfflineObjectives.list(kinds)) \(plural)."
        }
        return nil
    }

    /// Words that say which one of a kind, not what kind.
    static let whichWords: Set<String> = [
        "same", "other", "first", "second", "third", "last", "next", "previous", "whole", "default", "original", "general", "new", "old",
        "entire", "following", "above", "given", "particular", "specific", "actual", "main", "simple", "basic", "final", "initial",
    ]

    /// What a speaker says to mark a claim as what matters (lower case).
    static let stressMarks = ["key point", "main point", "important thing", "what matters is"]

    /// "Combining the two parts results in …": a sentence whose opening counts off things by the
    /// definite article ("the two parts", "both parts", "the former", "the latter") points back at
    /// what the sentences before it named.
    static func namesUnsaid(_ sentence: String) -> Bool {
        let words = WordTokenizer.words(sentence.lowercased()).prefix(6)
        for (index, word) in words.enumerated() {
            if word == "former" || word == "latter" { return true }
            if word == "both", index + 1 < words.count, !["of", "the", "a", "an"].contains(words[words.index(after: index)]) { return true }
            if word == "the", index + 1 < words.count, ["two", "three", "four"].contains(words[words.index(after: index)]) { return true }
        }
        return false
    }

    /// Words of a lecture's speech the recognition misheard: an acronym said once ("BURT") where
    /// one spelt like it but for one letter is said more often ("BERT", four times). A summary
    /// leaves a sentence holding one out rather than quote it. Only words of three or more
    /// capitals are counted: a lecture's other words are left as they are.
    static func misheardWords(_ passages: [Passage]) -> Set<String> {
        var counts: [String: Int] = [:]
        for passage in passages where passage.kind == .transcript {
            for word in passage.text.split(whereSeparator: { !$0.isLetter }) where word.count >= 3 && word.allSatisfy(\.isUppercase) {
                counts[String(word), default: 0] += 1
            }
        }
        guard counts.count > 1 else { return [] }
        return Set(counts.keys.filter { word in
            counts[word] == 1 && counts.contains { other, count in
                count >= 2 && other.count == word.count && zip(other, word).filter { $0 != $1 }.count == 1
            }
        })
    }

    /// `sentence` holds one of the `misheard` words.
    static func hears(_ sentence: String, _ misheard: Set<String>) -> Bool {
        !misheard.isEmpty && sentence.split(whereSeparator: { !$0.isLetter }).contains { misheard.contains(String($0)) }
    }

    /// A lecture's sentences that define or state something ("Torque is defined as the cross
    /// product, R cross F, which we can also write as …"), read as statements: its paragraphs are
    /// read by what it teaches, which leaves out a definition said with "we can also write".
    /// Only a sentence `statesSomething` finds is read.
    /// (Speech has no abbreviations to keep whole: its sentences end at ".", "?" or "!" before a
    /// space and a capital, found in one pass, not by `SentenceSplitter`, which a lecture's every
    /// sentence would cost again.)
    static func definitions(_ passages: [Passage]) -> [String] {
        passages.filter { $0.kind == .transcript }.flatMap { passage -> [String] in
            stops(TextCleanup.collapseWhitespace(withoutCredits(passage.text))).compactMap { sentence in
                mayState(sentence) && ExtractiveSummarizer.statesSomething(sentence)
                    ? SpokenSentences.written(sentence: sentence, reading: .statements, opening: false) : nil
            }
        }
    }

    /// `text` cut after every ".", "?" or "!" before a space and a capital, in one pass: a
    /// symbol's full stop too ("… the velocity v. Determine …"), which `SentenceSplitter` keeps
    /// inside a sentence as it would an initial's.
    static func stops(_ text: String) -> [String] {
        var sentences: [String] = []
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            if ".?!".contains(text[index]), next < text.endIndex, text[next] == " " {
                let after = text.index(after: next)
                if after < text.endIndex, text[after].isUppercase {
                    sentences.append(String(text[start...index]))
                    start = after
                }
            }
            index = next
        }
        if start < text.endIndex { sentences.append(String(text[start...])) }
        return sentences
    }

    /// "The example applies the momentum principle and conservation of momentum.": the laws and
    /// principles a worked example's speech names (at most two, the most named first; "momentum is
    /// conserved" is conservation of momentum), never from a sentence that denies one ("we can't
    /// use conservation of energy"); nil where it names none.
    static func appliedPrinciples(_ passages: [Passage]) -> String? {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for passage in passages where passage.kind == .transcript {
            let text = TextCleanup.collapseWhitespace(withoutCredits(passage.text))
            guard text.contains("law") || text.contains("conserv") || text.contains("principle") || text.contains("theorem") || text.contains("equation") else { continue }
            for sentence in stops(text) {
                let lowered = sentence.lowercased()
                guard !lowered.hasSuffix("?"), principleNames.firstMatch(in: lowered, range: NSRange(lowered.startIndex..., in: lowered)) != nil,
                      !WordTokenizer.words(lowered).contains(where: { ["not", "can't", "cannot", "don't", "isn't", "won't", "doesn't", "if"].contains($0) })
                else { continue }
                for match in principleNames.matches(in: lowered, range: NSRange(lowered.startIndex..., in: lowered)) {
                    guard let range = Range(match.range, in: lowered) else { continue }
                    var name = String(lowered[range])
                    if let conserved = name.range(of: " is conserved") {
                        let quantity = name[..<conserved.lowerBound].replacingOccurrences(of: " of the system", with: "")
                            .replacingOccurrences(of: "the ", with: "").replacingOccurrences(of: "total ", with: "")
                        name = "conservation of " + quantity
                    }
                    name = name.replacingOccurrences(of: "newton's", with: "Newton's").replacingOccurrences(of: "hooke's", with: "Hooke's")
                        .replacingOccurrences(of: " 2nd ", with: " second ").replacingOccurrences(of: " 3rd ", with: " third ")
                    if counts[name] == nil { order.append(name) }
                    counts[name, default: 0] += 1
                }
            }
        }
        let chosen = order.sorted { counts[$0]! > counts[$1]! }.prefix(2)
        guard !chosen.isEmpty else { return nil }
        return "The example applies \(chosen.joined(separator: " and "))."
    }

    private static let principleNames = try! NSRegularExpression(pattern:
        #"conservation of (?:linear |angular )?(?:momentum|energy|mechanical energy)|(?:the )?(?:total |linear |angular |mechanical )?(?:momentum|energy|angular momentum|mechanical energy) (?:of the system )?is conserved|newton's (?:first|second|third|2nd|3rd) law|the (?:work-energy|work energy|work-kinetic energy|parallel axis) (?:theorem|principle)|the (?:momentum|energy) principle|the (?:rocket|energy|momentum) equation|hooke's law|the universal law of gravitation"#)

    /// `sentence` names a law, principle or conservation a worked example applies ("The total
    /// momentum of the system is conserved.", "Newton's second law in its rotational form …").
    static func namesAPrinciple(_ sentence: String) -> Bool {
        sentence.split(whereSeparator: { !$0.isLetter }).contains { principleWords.contains($0.lowercased()) }
    }

    static let principleWords: Set<String> = [
        "law", "laws", "principle", "theorem", "conserved", "conservation", "conserve", "constant", "satz", "gesetz",
    ]

    /// `sentence` holds a word `ExtractiveSummarizer.statesSomething` looks for: one pass of word
    /// lookups before its regular expression, which most of a lecture's sentences fail.
    static func mayState(_ sentence: String) -> Bool {
        sentence.split(whereSeparator: { !$0.isLetter }).contains { stateWords.contains($0.lowercased()) }
    }

    static let stateWords: Set<String> = [
        "defined", "define", "defines", "known", "termed", "call", "calls", "called", "states", "law", "principle", "theorem", "conclude",
        "follows", "means", "refers", "heißt", "heißen", "nennt", "besagt",
    ]

    /// The words of `sentence` before its first "is", "are" or "means" (at most six) hold one of `subject`.
    static func opensOnSubject(_ sentence: String, _ subject: Set<String>) -> Bool {
        let words = WordTokenizer.words(sentence).prefix(7).map { $0.lowercased() }
        guard let verb = words.firstIndex(where: { ["is", "are", "means", "equals"].contains($0) }), verb > 0 else { return false }
        return words[..<verb].contains { subject.contains(WordTokenizer.fold($0)) }
    }

    /// What a worked example works out, from its problem's statement: "The goal of the problem is
    /// to find …" as written, a task ("Find the acceleration of the objects.") or a question
    /// ("What is the speed v at which the car can turn safely?") as "The example finds …", any
    /// other question as "The example asks: …". Nil where the statement has none a reader can
    /// take alone (formulas lost, a prompt to draw).
    static func workedQuestion(_ passages: [Passage]) -> String? {
        // (A worked example's text beside its recording is its problem, whether or not `asks` finds the task.)
        let statements = passages.filter { $0.kind != .transcript }
        var candidates: [String] = []
        for passage in statements {
            for line in MathText.readableProse(withoutCredits(passage.text)).split(separator: "\n") {
                // (Cut at every full stop: "… a radius r. What is …?", "… about point S. Express your answer …".)
                for sentence in stops(TextCleanup.collapseWhitespace(String(line))) {
                    var text = sentence.replacingOccurrences(of: #"^\((Part|Teil) \w{1,3}\)\.?\s*"#, with: "", options: .regularExpression)
                    text = text.trimmingCharacters(in: .whitespaces)
                    guard text.split(separator: " ").count >= 4, text.split(separator: " ").count <= 40,
                          !ExtractiveSummarizer.lostItsMarkup(text), !text.contains("\\"), !text.contains("_text"), !text.contains("(eq"),
                          !text.hasPrefix("Express") else { continue }
                    if text.range(of: #"^The goal of (the|this) problem is to \w+"#, options: .regularExpression) != nil {
                        return text.hasSuffix("?") ? String(text.dropLast()) + "." : text
                    }
                    candidates.append(text)
                }
            }
        }
        for text in candidates {
            let first = String(text.prefix { $0.isLetter })
            if let verb = questionVerbs[first], text.hasSuffix(".") {
                return "The example \(verb)" + text.dropFirst(first.count)
            }
            if text.hasSuffix("?") {
                for opening in ["What is ", "What are "] where text.hasPrefix(opening) {
                    return "The example finds " + text.dropFirst(opening.count).dropLast() + "."
                }
                guard !text.hasPrefix("How do your"), !text.hasPrefix("Why") else { continue }
                return "The example asks: \(text)"
            }
        }
        return nil
    }

    /// A problem's task verbs and how a sentence about the example says them.
    static let questionVerbs: [String: String] = [
        "Find": "finds", "Determine": "determines", "Calculate": "calculates", "Compute": "computes", "Derive": "derives",
        "Show": "shows", "Solve": "solves", "Estimate": "estimates", "Evaluate": "evaluates", "Use": "uses",
    ]

    /// A lecture's subject as folded words: its title's (`ExtractiveSummarizer.subjectWords`),
    /// and those of what its objectives name ("Define spring constant": spring, constant) and of
    /// its key terms.
    static func lectureSubject(title: String, objectives: [String], terms: [String]) -> Set<String> {
        let named = objectives.compactMap { $0.split(separator: " ", maxSplits: 1).dropFirst().first.map(String.init) } + terms
        return named.reduce(into: ExtractiveSummarizer.subjectWords(OfflineObjectives.withoutNumber(title))) { words, text in
            words.formUnion(ExtractiveSummarizer.subjectWords(text))
        }
    }

    /// "The lecture defines work and applies the work-energy theorem.", "A worked example:
    /// Collision and Sliding on a Rough Surface.", or nil where neither the title nor an
    /// objective says what the lecture does.
    static func lectureLead(title: String, objectives: [String], passages: [Passage] = []) -> String? {
        var name = OfflineObjectives.withoutNumber(title)
        // An OCW page's own numbering: "PS.7.1", "DD.2.4".
        if let first = name.split(separator: " ").first, first.contains("."), first.contains(where: \.isNumber) {
            name = String(name.dropFirst(first.count)).trimmingCharacters(in: .whitespaces)
        }
        // A course's numbering before the subject: "Biology 101, lecture 7: cellular respiration".
        if let numbered = name.range(of: #"^.{0,40}\b(lecture|lesson|session) \d+\s*[:–-]\s*"#, options: [.regularExpression, .caseInsensitive]),
           numbered.upperBound < name.endIndex {
            name = String(name[numbered.upperBound...])
        }
        if let kind = name.range(of: #"\bworked examples?\b"#, options: [.regularExpression, .caseInsensitive]) {
            let asked = name[kind.upperBound...].trimmingCharacters(in: CharacterSet(charactersIn: " -–—:,."))
            guard asked.split(separator: " ").count >= 2 else { return nil }
            return "A worked example: \(asked)."
        }
        // What each objective does, said of the lecture; "Describe …" (a key phrase's) says too
        // little to lead with.
        // At most two, by different verbs, and one alone where it lists things itself ("Define
        // work and joule"), so that the sentence reads as one clause or two; none that ends on a
        // word left hanging ("the torque about the center of mass due").
        var clauses: [(verb: String, what: String)] = []
        // What an objective says the lecture defines and its speech only names: said as talked about where nothing else leads.
        var named: [String] = []
        for statement in objectives.prefix(4) {
            let words = statement.split(separator: " ", maxSplits: 1)
            guard words.count == 2, let verb = leadVerbs[String(words[0])], !clauses.contains(where: { $0.verb == verb }) else { continue }
            var what = String(words[1])
            // A lecture "defines" only what its speech defines ("The lecture defines embeddings and
            // encoder-decoder." of a video that only names them is wrong).
            if verb == "defines", passages.contains(where: { $0.kind == .transcript }) {
                let items = what.replacingOccurrences(of: " and ", with: ", ").components(separatedBy: ", ").filter { !$0.isEmpty }
                let kept = items.filter { defines($0, passages) }
                named += items.filter { !kept.contains($0) && !named.contains($0) }
                guard !kept.isEmpty else { continue }
                what = OfflineObjectives.list(kept)
            }
            // Nor one about a symbol ("Define Xcm and angular speed", not "Define NLP") or one word
            // that names no thing ("Define nonconservative").
            let whatWords = what.split(separator: " ")
            guard let last = whatWords.last, !hanging.contains(last.lowercased()),
                  !whatWords.contains(where: { $0 != "a" && SymbolLabel.isLabel(String($0)) }),
                  !(whatWords.count == 1 && (what.hasSuffix("ive") || what.hasSuffix("ous"))) else { continue }
            if let first = clauses.first {
                guard !first.what.contains(" and "), !what.contains(" and ") else { break }
            }
            clauses.append((verb, what))
            if clauses.count == 2 || what.contains(" and ") { break }
        }
        // The first thing it only names, beside what else it does ("The lecture talks about uniform
        // circular motion and applies the chain rule."), where that reads as two clauses.
        if clauses.count == 1, let first = named.first, !clauses[0].what.contains(" and ") {
            clauses.insert(("talks about", first), at: 0)
        }
        if !clauses.isEmpty { return "The lecture \(OfflineObjectives.list(clauses.map { "\($0.verb) \($0.what)" }))." }
        if let titled = titleLead(name) { return titled }
        return named.isEmpty ? nil : "The lecture talks about \(OfflineObjectives.list(named))."
    }

    /// "The lecture is about work by a non-constant force.", from a lecture's title where it
    /// reads as a subject; nil for one that does not.
    static func titleLead(_ name: String) -> String? {
        // Else its title, where the title reads as a subject ("Work by a Non-Constant Force";
        // not "Pulley Problem - Part II, Constraint Condition").
        // ("Week 12 Introduction" names no subject.)
        guard !name.contains(where: { ":(),;?".contains($0) }), name.split(separator: " ").count <= 10, !name.hasPrefix("Welcome"),
              !ExtractiveSummarizer.subjectWords(name).isEmpty else { return nil }
        let parts = name.components(separatedBy: " - ")
        guard parts.count <= 2, !parts.contains(where: { $0.range(of: #"\bpart\b"#, options: [.regularExpression, .caseInsensitive]) != nil }) else { return nil }
        var words = parts.joined(separator: ": ").split(separator: " ").map { inSentence(String($0)) }
        guard words.count >= 2 else { return nil }
        // A title that is a task ("Solve for Velocity in the Ground Frame") says how.
        if let task = OfflineObjectives.taskVerbs[words[0]] {
            return "The lecture shows how to \(([task.lowercased()] + words.dropFirst()).joined(separator: " "))."
        }
        // A title that is a clause ("Torque Causes Angular Momentum to Change") is no subject.
        if words.dropFirst().contains(where: { KeyTermExtraction.verbs.contains($0) || titleVerbs.contains($0) }) { return nil }
        for (opening, verb) in [(["introduction", "to"], "introduces"), (["summary", "of"], "sums up"), (["review", "of"], "reviews")]
            where words.starts(with: opening) {
            words.removeFirst(2)
            return "The lecture \(verb) \(words.joined(separator: " "))."
        }
        return "The lecture is about \(words.joined(separator: " "))."
    }

    /// Whether a lecture's speech defines `term`: a sentence opens on it as its subject ("Kinetic
    /// energy is …", "The angular velocity, omega, is …", after an opener) or says it is defined
    /// ("we define the torque as …", "… is the definition of work"), or the lecture states a
    /// relation named for it. Naming it ("These representations can also be called embeddings")
    /// is not defining it.
    static func defines(_ term: String, _ passages: [Passage]) -> Bool {
        let wanted = WordTokenizer.words(term.lowercased())
        guard !wanted.isEmpty else { return false }
        for passage in passages where passage.kind == .transcript {
            let text = passage.text.lowercased()
            guard text.contains(wanted[0]) else { continue }
            for sentence in stops(TextCleanup.collapseWhitespace(withoutCredits(passage.text))) {
                // (A look for the term's first word before the sentence's words are cut.)
                let lowered = sentence.lowercased()
                guard lowered.contains(wanted[0]) else { continue }
                let words = WordTokenizer.words(lowered)
                guard let start = (0..<max(0, words.count - wanted.count + 1)).first(where: { Array(words[$0..<($0 + wanted.count)]) == wanted })
                else { continue }
                // "We define the torque as …", "… is the definition of work", "What we mean by terminal
                // velocity is …", "Kinetic energy is defined as …": a defining word next to the term.
                // Not a mention ("We'll use a method called differential analysis", "This is called
                // rolling resistance": the term named once, not said what it is), nor another name
                // it "can also be called".
                if !words.contains("also"), definesNextTo(words, start: start, count: wanted.count) { return true }
                // The term as the sentence's subject: after at most four opening words ("and so now the").
                let before = words[..<start]
                let after = words[(start + wanted.count)...].prefix(4)
                if before.count <= 4, before.allSatisfy({ definitionOpeners.contains($0) }),
                   after.contains(where: { ["is", "are", "means", "refers"].contains($0) }) { return true }
            }
            if FormulaStatements.statements(in: passage.text).contains(where: { $0.name.lowercased().hasPrefix(term.lowercased()) }) { return true }
        }
        return false
    }

    /// The term at `start` (of `count` words) is what `words` defines: "define(s) [the] X",
    /// "definition of [the] X", "mean by [the] X", "what we call [the] X is", "X is/are defined",
    /// "The rate of change of velocity is called X" (a subject that says what it is). "… a
    /// method called X" and "This is called X" only name it.
    static func definesNextTo(_ words: [String], start: Int, count: Int) -> Bool {
        var before = start - 1
        while before >= 0, ["the", "a", "an"].contains(words[before]) { before -= 1 }
        if before >= 0 {
            let word = words[before]
            if ["define", "defines", "defined"].contains(word) { return true }
            if word == "of", before > 0, words[before - 1] == "definition" { return true }
            if word == "by", before > 0, words[before - 1] == "mean" { return true }
            if word == "call", before > 1, words[before - 1] == "we", words[before - 2] == "what" { return true }
            // "We refer to this case as uniform circular motion": the case just described named.
            if word == "as", words[max(0, before - 5)..<before].contains("refer") { return true }
            if word == "called", before > 1, ["is", "are"].contains(words[before - 1]),
               !["this", "that", "it", "which", "what", "thing", "something"].contains(words[before - 2]) { return true }
        }
        let after = start + count
        if after + 1 < words.count, ["is", "are"].contains(words[after]), words[after + 1] == "defined" { return true }
        return false
    }

    /// Words a sentence may open on before the term it defines.
    static let definitionOpeners: Set<String> = ["and", "so", "now", "the", "a", "an", "then", "well", "ok", "okay", "but", "our", "this", "in", "general"]

    /// A title's word inside a sentence: lower case but for an acronym ("CM"), a word with a
    /// digit ("2D") and a name's possessive ("Newton's").
    static func inSentence(_ word: String) -> String {
        let letters = word.filter(\.isLetter)
        if letters.count > 1 && letters.allSatisfy(\.isUppercase) || word.contains(where: \.isNumber) { return word }
        if word.first?.isUppercase == true, word.hasSuffix("'s") || word.hasSuffix("’s") { return word }
        return word.lowercased()
    }

    /// Finite verbs of a title that states something ("… Causes …", "… Is …"), besides
    /// `KeyTermExtraction.verbs`.
    static let titleVerbs: Set<String> = ["is", "are", "cause", "causes", "equals", "means", "depends", "determines", "makes", "gives"]

    /// Words an objective's subject does not end on.
    static let hanging: Set<String> = ["due", "of", "to", "for", "with", "by", "and", "or", "the", "a", "an", "in", "on", "at", "from"]

    /// An objective's verb and how a sentence about a lecture says it.
    static let leadVerbs: [String: String] = [
        "Define": "defines", "Apply": "applies", "Explain": "explains", "Distinguish": "distinguishes", "Relate": "relates",
        "Identify": "identifies", "State": "states", "Calculate": "calculates", "Derive": "derives", "Compare": "compares",
    ]

    /// `text` is a problem's statement: it has a sentence that sets the reader a task ("Find …",
    /// "Determine …", "Express your answer …") and is short or ends on its tasks and questions
    /// ("(Part a) What is …?"); a worked solution or a proof after the task is text to
    /// summarise. One pass over its words, a word looked up where a sentence starts.
    static func asks(_ text: String) -> Bool {
        var starts = true, asked = false, words = 0, afterTask = 0
        for word in text.split(whereSeparator: \.isWhitespace) {
            words += 1
            afterTask += 1
            if starts, let first = word.split(whereSeparator: { !$0.isLetter }).first, problemVerbs.contains(String(first)) {
                asked = true
                afterTask = 0
            }
            if word.last == "?" { afterTask = 0 }
            starts = word.last.map { ".?!:".contains($0) } ?? false
        }
        return asked && (words <= statementWords || afterTask <= statementWords / 4)
    }

    /// The most words of a problem's statement with text after its task (a short one's is a
    /// note or a link, not a solution).
    static let statementWords = 80

    /// What a problem asks for (not "Consider" or "Imagine", which a text's argument says too).
    static let problemVerbs: Set<String> = [
        "Find", "Determine", "Express", "Calculate", "Compute", "Show", "Prove", "Derive", "Solve", "Estimate", "Evaluate", "Sketch",
        "Beweisen", "Zeigen", "Bestimmen", "Berechnen",
    ]

    /// `text` without the lines that credit a recording ("Instructor: Dr. Peter Dourmashkin",
    /// which OCW puts before every lecture's transcript).
    static func withoutCredits(_ text: String) -> String {
        guard text.contains(":") else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { $0.range(of: #"^\s*(Instructors?|Lecturers?|Speakers?|Presenters?|Dozent(in)?):[^\n]{0,80}$"#, options: .regularExpression) == nil }
            .joined(separator: "\n")
    }

    /// The offline summary: notes written as definitions and theorems by what they define and
    /// state (`StructuralSummary`), a page that only lists things (an OCW problem set's
    /// problems) by its list, other text by the extractive method; empty for text with no
    /// sentence at all.
    static func offline(_ input: SummaryInput, passages: [Passage]) -> Summary {
        if let structural = StructuralSummary.summary(of: passages, title: input.title) ?? listing(passages) { return Summary(text: structural, keyPoints: []) }
        return (try? ExtractiveSummarizer().summarize(input)) ?? Summary(text: "", keyPoints: [])
    }

    /// A short page that introduces a list and lists ("Problem Set 7 contains the following
    /// problems:" and the problems' titles) as one sentence: the lead-in and its items, without
    /// the file links after them. Nil for a page with prose beside its list.
    static func listing(_ passages: [Passage]) -> String? {
        let lines = passages.filter { $0.kind != .transcript }.flatMap { $0.text.split(separator: "\n") }
            .map { TextCleanup.collapseWhitespace(String($0)) }.filter { !$0.isEmpty }
        guard let lead = lines.firstIndex(where: { $0.hasSuffix(":") && $0.split(separator: " ").count >= 3 }) else { return nil }
        var items: [String] = []
        for line in lines[(lead + 1)...] {
            let words = line.split(separator: " ").count
            guard words <= 12, !line.hasSuffix("."), !line.hasSuffix(":") else { break }
            if ExtractiveSummarizer.isFurniture(line) { continue }
            if !items.contains(line) { items.append(line) }
        }
        let prose = lines.filter { !items.contains($0) && $0 != lines[lead] && !ExtractiveSummarizer.isFurniture($0) }
        guard items.count >= 2, prose.reduce(0, { $0 + $1.split(separator: " ").count }) < 30 else { return nil }
        return lines[lead] + " " + items.joined(separator: "; ") + "."
    }
}
