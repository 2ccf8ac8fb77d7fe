import Foundation

/// Mathematics in card and summary text. Cards keep it as LaTeX between `\(` and `\)`, which
/// Anki renders with MathJax; where no MathJax runs (`cards list`, Markdown, a topic's summary)
/// it is written with Unicode so a learner reads "p = m·v", "F = dp/dt", "Δr⃗ = r⃗(t₂) − r⃗(t₁)"
/// instead of markup. (Here in Summarize, not Cards: summaries and cards both write it.)
public enum MathText {
    /// `text` with every `\( … \)` span written in Unicode; the rest unchanged.
    public static func readable(_ text: String) -> String {
        guard text.contains("\\(") else { return text }
        var out = ""
        var rest = text[...]
        while let open = rest.range(of: "\\("), let close = rest.range(of: "\\)", range: open.upperBound..<rest.endIndex) {
            out += rest[..<open.lowerBound]
            out += unicode(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    /// Prose as a reader should see it: inline `\( … \)` and display `\[ … \]` formulas (an OCW
    /// page's MathJax) in Unicode, and the glyphs a PDF's TeX math font loses written as the
    /// symbols they print (`repairingGlyphs`).
    static func readableProse(_ text: String) -> String {
        var text = repairingGlyphs(readable(text))
        while let open = text.range(of: "\\["), let close = text.range(of: "\\]", range: open.upperBound..<text.endIndex) {
            text.replaceSubrange(open.lowerBound..<close.upperBound, with: unicode(String(text[open.upperBound..<close.lowerBound])))
        }
        return text
    }

    /// `text` with the glyphs a TeX math font loses in a PDF's text layer written as the symbols
    /// they print: its negation slash comes out as "6" ("x 6= y" is x ≠ y, "x 6∈ A" is x ∉ A),
    /// the bar of ↦ as "7" ("x 7→ [x]"). A "6" or "7" glued to the symbol after it is never a
    /// number. (The cards' `StatementBlocks.repairingGlyphs` does the same for statements.)
    static func repairingGlyphs(_ text: String) -> String {
        var text = text
        for (broken, symbol) in brokenGlyphs where text.contains(broken) {
            text = text.replacingOccurrences(of: #"(?<=[\s(])"# + broken + #"(?=\s)"#, with: symbol, options: .regularExpression)
        }
        return text
    }

    /// Whether `text`'s mathematics reads as the source printed it: no glyph a PDF's math font
    /// lost is left (`hasLostGlyph`, or "x 6= y" unrepaired, "∅ = G" for a lost ≠).
    static func isIntact(_ text: String) -> Bool {
        !hasLostGlyph(text) && !text.contains("6=") && !text.contains("∅ = ")
    }

    /// The glyph losses every reader of PDF mathematics turns a statement away for (summaries
    /// here, the cards' `StatementBlocks.isReadable`): a private-use, replacement or control
    /// character (where the font's bracket or bar was), "z 7→" for ↦, "∪˙" for a disjoint union,
    /// "ϕ−1 i i" for an index set apart twice, "γ 0 (0)" for a lost prime, "R+ 0" for an index
    /// under a superscript.
    static func hasLostGlyph(_ text: String) -> Bool {
        if text.unicodeScalars.contains(where: { $0 == "\u{FFFD}" || (0xE000...0xF8FF).contains($0.value) || ($0.value < 0x20 && $0 != "\n" && $0 != "\t") }) { return true }
        if text.contains("7→") || text.contains("˙") { return true }
        return lostGlyphPatterns.contains { text.range(of: $0, options: .regularExpression) != nil }
    }

    private static let lostGlyphPatterns = [#"(?<![\p{L}\p{N}])(\p{L}) \1(?![\p{L}\p{N}])"#, #"(?<![\p{L}\p{N}])\p{L} 0{1,2}(?=[ ,)(]|$)"#, #"\+ 0\b|\+,0\b"#]

    private static let brokenGlyphs = [("6=", "≠"), ("6∈", "∉"), ("6⊂", "⊄"), ("6⊆", "⊈"), ("6≡", "≢"), ("7→", "↦")]

    private static let symbols: [String: String] = [
        "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "Delta": "Δ", "theta": "θ", "omega": "ω", "Omega": "Ω",
        "tau": "τ", "mu": "μ", "lambda": "λ", "phi": "φ", "rho": "ρ", "sigma": "σ", "Sigma": "Σ", "pi": "π",
        "cdot": "·", "times": "×", "leq": "≤", "geq": "≥", "lt": "<", "gt": ">", "neq": "≠", "approx": "≈",
        "infty": "∞", "int": "∫", "sum": "∑", "partial": "∂", "to": "→", "Longrightarrow": "⟹", "Rightarrow": "⇒",
    ]
    private static let superscripts: [Character: Character] = [
        "0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵", "6": "⁶", "7": "⁷", "8": "⁸", "9": "⁹", "-": "⁻", "n": "ⁿ",
    ]
    private static let subscripts: [Character: Character] = [
        "0": "₀", "1": "₁", "2": "₂", "3": "₃", "4": "₄", "5": "₅", "6": "₆", "7": "₇", "8": "₈", "9": "₉",
        "i": "ᵢ", "j": "ⱼ", "k": "ₖ", "x": "ₓ", "e": "ₑ", "o": "ₒ", "a": "ₐ", "n": "ₙ", "m": "ₘ", "s": "ₛ", "t": "ₜ",
    ]

    /// One LaTeX formula in Unicode, as far as its commands have a character: the rest stays
    /// LaTeX, which is still readable.
    static func unicode(_ latex: String) -> String {
        var text = latex.replacingOccurrences(of: "\\displaystyle", with: "")
            .replacingOccurrences(of: "\\,", with: "·").replacingOccurrences(of: "\\left", with: "")
            .replacingOccurrences(of: "\\right", with: "")
        // Named symbols first, so a fraction's sides are read as what they show.
        for (name, symbol) in symbols {
            text = text.replacingOccurrences(of: "\\\\" + name + #"(?![A-Za-z])"#, with: symbol, options: .regularExpression)
        }
        // \frac{a}{b} → a/b, with brackets where a side is a sum or a product.
        while let match = text.firstMatch(of: /\\d?frac\{([^{}]*)\}\{([^{}]*)\}/) {
            func side(_ s: Substring) -> String { s.contains(where: { " +-−/·".contains($0) }) ? "(\(s))" : String(s) }
            var fraction = "\(side(match.1))/\(side(match.2))"
            // "r\frac{d\theta}{dt}\hat{\theta}" → "r(dθ/dt)θ̂": a fraction among other factors in brackets.
            let before = text[..<match.range.lowerBound].last, after = text[match.range.upperBound...].first
            if before.map({ $0.isLetter || $0.isNumber || $0 == ")" }) == true || after.map({ $0.isLetter || $0 == "\\" || $0 == "(" }) == true {
                fraction = "(\(fraction))"
            }
            text.replaceSubrange(match.range, with: fraction)
        }
        // \vec{r} → r⃗, \hat{i} → î.
        while let match = text.firstMatch(of: /\\(vec|hat)\{([^{}]*)\}/) {
            // "a_r\hat{r}" → "a_r r̂": a unit vector is a factor of its own.
            let before = text[..<match.range.lowerBound].last
            let gap = before.map { $0.isLetter || $0.isNumber || $0 == "}" } == true ? " " : ""
            text.replaceSubrange(match.range, with: gap + match.2 + (match.1 == "vec" ? "\u{20D7}" : "\u{0302}"))
        }
        while let match = text.firstMatch(of: /\\([A-Za-z]+)/) {
            let name = String(match.1)
            text.replaceSubrange(match.range, with: symbols[name] ?? name)
        }
        text = scripts(text, marker: "^", table: superscripts)
        text = scripts(text, marker: "_", table: subscripts)
        // "Δ r⃗" is one quantity.
        text = text.replacingOccurrences(of: "Δ ", with: "Δ").replacingOccurrences(of: " - ", with: " − ").replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")
        return TextCleanup.collapseWhitespace(text).trimmingCharacters(in: .whitespaces)
    }

    /// "t^2" → "t²", "t_{12}" → "t₁₂" where every character has a raised or lowered form;
    /// otherwise the marker stays ("a_{cm}" → "a_cm").
    private static func scripts(_ text: String, marker: Character, table: [Character: Character]) -> String {
        var out = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            guard character == marker, text.index(after: index) < text.endIndex else {
                out.append(character)
                index = text.index(after: index)
                continue
            }
            var start = text.index(after: index)
            var end: String.Index
            if text[start] == "{", let close = text[start...].firstIndex(of: "}") {
                start = text.index(after: start)
                end = close
            } else {
                end = text.index(after: start)
            }
            let body = text[start..<end]
            let next = end < text.endIndex && text[end] == "}" ? text.index(after: end) : end
            if body.allSatisfy({ table[$0] != nil }) {
                out += String(body.map { table[$0]! })
            } else {
                out += "\(marker)\(body)"
            }
            index = next
        }
        return out
    }
}
