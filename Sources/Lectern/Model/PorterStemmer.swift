import Foundation

/// The Porter stemmer exactly as SQLite's FTS5 `porter` tokenizer applies it (the keyword
/// index's `tokenize='porter unicode61 remove_diacritics 2'`), so that a card's answer words
/// and the index agree on what "the same word" is. Works on the folded word's UTF-8 bytes, as
/// SQLite does: bytes outside a–z count as consonants; words under 3 or over 64 bytes pass.
enum PorterStemmer {
    static func stem(_ word: String) -> String {
        let bytes = Array(word.utf8)
        guard bytes.count >= 3, bytes.count <= 64 else { return word }
        var buffer = bytes
        step1(&buffer)
        applyFirst(step2Rules, &buffer)
        applyFirst(step3Rules, &buffer)
        applyFirst(step4Rules, &buffer)
        step5(&buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Folds and stems every word of `text` as the index would hold it.
    static func stems(_ text: String) -> [String] {
        foldedWords(text).map(cachedStem)
    }

    /// `WordTokenizer.words` then `WordTokenizer.fold`, with ASCII words (nearly all of an
    /// English text) taken on a fast path: the Foundation folding is for the others.
    static func foldedWords(_ text: String) -> [String] {
        var words: [String] = []
        var current: [UInt8] = []
        var ascii = true
        var pending = ""
        func flush() {
            if !current.isEmpty || !pending.isEmpty {
                if ascii {
                    words.append(String(decoding: current, as: UTF8.self))
                } else {
                    words.append(WordTokenizer.fold(pending))
                }
            }
            current.removeAll(keepingCapacity: true)
            pending = ""
            ascii = true
        }
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 128 {
                let byte = UInt8(value)
                let isWord = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
                if isWord {
                    let lower = byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte
                    current.append(lower)
                    if !ascii { pending.unicodeScalars.append(Unicode.Scalar(lower)) }
                } else {
                    flush()
                }
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar.properties.generalCategory == .nonspacingMark {
                if ascii {
                    ascii = false
                    pending = String(decoding: current, as: UTF8.self)
                }
                pending += scalar.properties.lowercaseMapping
            } else {
                flush()
            }
        }
        flush()
        return words
    }

    /// Stems by word, remembered: a book repeats its words, and every passage and answer
    /// is stemmed.
    static func cachedStem(_ word: String) -> String {
        if let known = cache.withLock({ $0[word] }) { return known }
        let made = stem(word)
        cache.withLock { $0[word] = made }
        return made
    }

    private static let cache = Locked<[String: String]>([:])

    private typealias Condition = @Sendable ([UInt8]) -> Bool
    private struct Rule: Sendable {
        let suffix: [UInt8]
        let condition: Condition
        let replacement: [UInt8]
        init(_ suffix: String, _ replacement: String, _ condition: @escaping Condition) {
            self.suffix = Array(suffix.utf8)
            self.replacement = Array(replacement.utf8)
            self.condition = condition
        }
    }

    private static func isVowel(_ c: UInt8, yIsVowel: Bool) -> Bool {
        c == 0x61 || c == 0x65 || c == 0x69 || c == 0x6F || c == 0x75 || (yIsVowel && c == 0x79)
    }

    /// The end of the first vowel-consonant run after `start`, or nil (SQLite's GobbleVC).
    private static func gobbleVC(_ stem: ArraySlice<UInt8>, previousConsonant: Bool) -> Int? {
        var consonant = previousConsonant
        var i = stem.startIndex
        while i < stem.endIndex {
            consonant = !isVowel(stem[i], yIsVowel: consonant)
            if !consonant { break }
            i += 1
        }
        i += 1
        while i < stem.endIndex {
            consonant = !isVowel(stem[i], yIsVowel: consonant)
            if consonant { return i + 1 }
            i += 1
        }
        return nil
    }

    private static func measureAbove0(_ stem: [UInt8]) -> Bool { gobbleVC(stem[...], previousConsonant: false) != nil }

    private static func measureAbove1(_ stem: [UInt8]) -> Bool {
        guard let n = gobbleVC(stem[...], previousConsonant: false) else { return false }
        return gobbleVC(stem[n...], previousConsonant: true) != nil
    }

    private static func measureIs1(_ stem: [UInt8]) -> Bool {
        guard let n = gobbleVC(stem[...], previousConsonant: false) else { return false }
        return gobbleVC(stem[n...], previousConsonant: true) == nil
    }

    /// *o: ends consonant-vowel-consonant, the last not w, x or y.
    private static func endsCVC(_ stem: [UInt8]) -> Bool {
        guard let last = stem.last, last != 0x77, last != 0x78, last != 0x79 else { return false }
        var mask = 0
        var consonant = false
        for c in stem {
            consonant = !isVowel(c, yIsVowel: consonant)
            mask = (mask << 1) + (consonant ? 1 : 0)
        }
        return mask & 7 == 5
    }

    private static func hasVowel(_ stem: [UInt8]) -> Bool {
        stem.indices.contains { isVowel(stem[$0], yIsVowel: $0 > 0) }
    }

    private static func endsWith(_ buffer: [UInt8], _ suffix: [UInt8]) -> Bool {
        buffer.count > suffix.count && buffer[(buffer.count - suffix.count)...].elementsEqual(suffix)
    }

    /// Applies the first rule whose suffix ends the word (with a non-empty stem), if its
    /// condition holds; returns whether a suffix matched and the condition held.
    @discardableResult
    private static func applyFirst(_ rules: [Rule], _ buffer: inout [UInt8]) -> Bool {
        for rule in rules where endsWith(buffer, rule.suffix) {
            let stem = Array(buffer[..<(buffer.count - rule.suffix.count)])
            guard rule.condition(stem) else { return false }
            buffer = stem + rule.replacement
            return true
        }
        return false
    }

    private static func step1(_ buffer: inout [UInt8]) {
        // 1a
        let n = buffer.count
        if buffer[n - 1] == 0x73 {
            if buffer[n - 2] == 0x65 {
                if (n > 4 && buffer[n - 4] == 0x73 && buffer[n - 3] == 0x73) || (n > 3 && buffer[n - 3] == 0x69) {
                    buffer.removeLast(2)
                } else {
                    buffer.removeLast()
                }
            } else if buffer[n - 2] != 0x73 {
                buffer.removeLast()
            }
        }
        // 1b: "eed" → "ee" does not go on to the clean-up; "ed" and "ing" do.
        if endsWith(buffer, Array("eed".utf8)) {
            let stem = Array(buffer.dropLast(3))
            if measureAbove0(stem) { buffer = stem + Array("ee".utf8) }
        } else if endsWith(buffer, Array("ed".utf8)) || endsWith(buffer, Array("ing".utf8)) {
            let length = buffer.last == 0x64 ? 2 : 3
            let stem = Array(buffer.dropLast(length))
            if hasVowel(stem) {
                buffer = stem
                if !applyFirst(step1bCleanUp, &buffer) {
                    let c = buffer[buffer.count - 1]
                    if !isVowel(c, yIsVowel: false), c != 0x6C, c != 0x73, c != 0x7A, buffer.count > 1, c == buffer[buffer.count - 2] {
                        buffer.removeLast()
                    } else if measureIs1(buffer), endsCVC(buffer) {
                        buffer.append(0x65)
                    }
                }
            }
        }
        // 1c
        if buffer.last == 0x79, hasVowel(Array(buffer.dropLast())) {
            buffer[buffer.count - 1] = 0x69
        }
    }

    private static func step5(_ buffer: inout [UInt8]) {
        if buffer.last == 0x65 {
            let stem = Array(buffer.dropLast())
            if measureAbove1(stem) || (measureIs1(stem) && !endsCVC(stem)) { buffer = stem }
        }
        if buffer.count > 1, buffer.last == 0x6C, buffer[buffer.count - 2] == 0x6C, measureAbove1(Array(buffer.dropLast())) {
            buffer.removeLast()
        }
    }

    private static let always: Condition = { _ in true }

    private static let step1bCleanUp: [Rule] = [
        Rule("at", "ate", always), Rule("bl", "ble", always), Rule("iz", "ize", always),
    ]

    private static let step2Rules: [Rule] = [
        ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"),
        ("logi", "log"), ("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"),
        ("ization", "ize"), ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("iveness", "ive"),
        ("fulness", "ful"), ("ousness", "ous"), ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"),
    ].map { Rule($0.0, $0.1, measureAbove0) }

    private static let step3Rules: [Rule] = [
        ("ical", "ic"), ("ness", ""), ("icate", "ic"), ("iciti", "ic"), ("ful", ""), ("ative", ""), ("alize", "al"),
    ].map { Rule($0.0, $0.1, measureAbove0) }

    private static let step4Rules: [Rule] = ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent"]
        .map { Rule($0, "", measureAbove1) }
        + [Rule("ion", "") { stem in (stem.last == 0x73 || stem.last == 0x74) && measureAbove1(stem) }]
        + ["ou", "ism", "ate", "iti", "ous", "ive", "ize"].map { Rule($0, "", measureAbove1) }
}
