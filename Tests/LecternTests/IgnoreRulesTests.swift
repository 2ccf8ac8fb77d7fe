import XCTest
@testable import Lectern

/// The `.lecternignore` matcher on the cases git's gitignore documentation (and its wildmatch
/// tests) give: what a line leaves out, what `!` takes back, and which line decides.
final class IgnoreRulesTests: XCTestCase {
    /// Whether `rules` leave `path` out (nil: no line matches).
    func ignored(_ rules: String, _ path: String, directory: Bool = false) -> Bool? {
        IgnoreRules(text: rules, origin: ".lecternignore").decision(for: path, isDirectory: directory)?.isIgnored
    }

    func testANameWithoutASlashMatchesAtAnyDepth() {
        XCTAssertEqual(ignored("hello.*", "hello.txt"), true)
        XCTAssertEqual(ignored("hello.*", "a/b/hello.c"), true)
        XCTAssertEqual(ignored("hello.*", "a/hello", directory: true), nil, "hello.* needs the dot")
        XCTAssertEqual(ignored("hello.*", "hello.d", directory: true), true, "a folder too")
        XCTAssertEqual(ignored("*.csv", "data/2024/marks.csv"), true)
        XCTAssertEqual(ignored("*.csv", "marks.csv.md"), nil)
    }

    func testASlashAnchorsToTheFolderHoldingTheRules() {
        // "doc/frotz/ matches doc/frotz directory, but not a/doc/frotz directory"
        XCTAssertEqual(ignored("doc/frotz/", "doc/frotz", directory: true), true)
        XCTAssertEqual(ignored("doc/frotz/", "a/doc/frotz", directory: true), nil)
        // "frotz/ matches frotz and a/frotz that is a directory"
        XCTAssertEqual(ignored("frotz/", "frotz", directory: true), true)
        XCTAssertEqual(ignored("frotz/", "a/frotz", directory: true), true)
        XCTAssertEqual(ignored("frotz/", "a/frotz"), nil, "a trailing slash matches folders only")
        // A leading slash anchors a plain name.
        XCTAssertEqual(ignored("/foo", "foo"), true)
        XCTAssertEqual(ignored("/foo", "a/foo"), nil)
        XCTAssertEqual(ignored("foo", "a/foo"), true)
    }

    func testStarAndQuestionMarkStopAtASlash() {
        // "foo/* matches foo/test.json and foo/bar, not foo/bar/hello.c"
        XCTAssertEqual(ignored("foo/*", "foo/test.json"), true)
        XCTAssertEqual(ignored("foo/*", "foo/bar", directory: true), true)
        XCTAssertEqual(ignored("foo/*", "foo/bar/hello.c"), nil)
        XCTAssertEqual(ignored("foo*bar", "foo/baz/bar"), nil)
        XCTAssertEqual(ignored("a?c", "abc"), true)
        XCTAssertEqual(ignored("a/?/c", "a/b/c"), true)
        XCTAssertEqual(ignored("a?c", "a/c"), nil)
        XCTAssertEqual(ignored("*/foo", "foo"), nil, "a star is one name, not none")
    }

    func testDoubleStarCrossesFolders() {
        // "**/foo matches file or directory foo anywhere"
        XCTAssertEqual(ignored("**/foo", "foo"), true)
        XCTAssertEqual(ignored("**/foo", "x/y/foo", directory: true), true)
        // "**/foo/bar matches bar anywhere that is directly under foo"
        XCTAssertEqual(ignored("**/foo/bar", "a/foo/bar"), true)
        XCTAssertEqual(ignored("**/foo/bar", "foo/x/bar"), nil)
        // "abc/** matches all files inside abc", not abc itself
        XCTAssertEqual(ignored("abc/**", "abc/x/y.txt"), true)
        XCTAssertEqual(ignored("abc/**", "abc", directory: true), nil)
        // "a/**/b matches a/b, a/x/b, a/x/y/b"
        for path in ["a/b", "a/x/b", "a/x/y/b"] { XCTAssertEqual(ignored("a/**/b", path), true, path) }
        XCTAssertEqual(ignored("a/**/b", "a/xb"), nil)
        // "Other consecutive asterisks are considered regular asterisks"
        XCTAssertEqual(ignored("foo**bar", "fooxbar"), true)
        XCTAssertEqual(ignored("foo**bar", "foo/bar"), nil)
    }

    func testBracketsNegationRangesAndClasses() {
        XCTAssertEqual(ignored("week[0-9].md", "week3.md"), true)
        XCTAssertEqual(ignored("week[0-9].md", "weekA.md"), nil)
        XCTAssertEqual(ignored("week[!0-9].md", "weekA.md"), true)
        XCTAssertEqual(ignored("week[^0-9].md", "week3.md"), nil)
        XCTAssertEqual(ignored("[]a]", "]"), true, "] first is a member")
        XCTAssertEqual(ignored("lecture[[:digit:]][[:digit:]].pdf", "lecture07.pdf"), true)
        XCTAssertEqual(ignored("a[/]b", "a/b"), nil, "a class never matches a slash")
        XCTAssertEqual(ignored("a[bc", "a[bc"), nil, "an unclosed class matches nothing, as in git")
    }

    func testTheLastMatchingLineDecidesAndBangTakesBack() {
        let rules = """
            # exercises are not notes
            *.txt
            !important.txt
            """
        XCTAssertEqual(ignored(rules, "scratch.txt"), true)
        XCTAssertEqual(ignored(rules, "important.txt"), false, "taken back")
        XCTAssertEqual(ignored(rules + "\nimp*.txt", "important.txt"), true, "a later line wins again")
        // git's example: everything except foo/bar.
        let onlyFooBar = "/*\n!/foo\n/foo/*\n!/foo/bar\n"
        XCTAssertEqual(ignored(onlyFooBar, "notes.md"), true)
        XCTAssertEqual(ignored(onlyFooBar, "foo", directory: true), false)
        XCTAssertEqual(ignored(onlyFooBar, "foo/baz.md"), true)
        XCTAssertEqual(ignored(onlyFooBar, "foo/bar", directory: true), false)
    }

    func testCommentsBlankLinesEscapesAndTrailingSpaces() {
        XCTAssertTrue(IgnoreRules(text: "# a comment\n\n   \n", origin: "x").isEmpty, "comments and blank lines are no patterns")
        XCTAssertEqual(ignored("\\#notes.md", "#notes.md"), true, "\\# is a literal hash")
        XCTAssertEqual(ignored("\\!draft.md", "!draft.md"), true, "\\! is a literal bang")
        XCTAssertEqual(ignored("draft.md   ", "draft.md"), true, "trailing spaces go")
        XCTAssertEqual(ignored("draft\\ ", "draft "), true, "an escaped trailing space stays")
        XCTAssertEqual(ignored("notes.md\r", "notes.md"), true, "a CRLF file reads the same")
        XCTAssertNil(IgnorePattern("/", origin: "x"))
        XCTAssertNil(IgnorePattern("!", origin: "x"))
    }

    func testTheLineThatDecidedIsNamedWithItsFileAndNumber() {
        let rules = IgnoreRules(text: "*.log\n\n# tables\n*.csv\n", origin: "notes/.lecternignore")
        XCTAssertEqual(rules.decision(for: "marks.csv", isDirectory: false)?.pattern.described, "*.csv (notes/.lecternignore:4)")
    }

    func testTheDefaultListMatchesInAnyCaseWhereItSaysSo() {
        let rules = InputSelection.defaultRules
        for name in ["README.md", "readme.txt", "Readme", "LICENSE", "license.txt", "LICENSE-MIT", "COPYING", "CHANGELOG.md",
                     "changelog", "CHANGES.rst", "HISTORY.md", "marks.csv", "MARKS.TSV", ".DS_Store"] {
            XCTAssertEqual(rules.decision(for: "course/" + name, isDirectory: false)?.isIgnored, true, name)
        }
        XCTAssertEqual(rules.decision(for: ".git", isDirectory: true)?.isIgnored, true)
        for name in ["history.md", "changes-in-climate.pdf", "readmeasure.md", "licensing-law.pdf", "notes.md", "lecture.json"] {
            XCTAssertNil(rules.decision(for: name, isDirectory: false), "\(name) is notes")
        }
    }

    func testAPathologicalPatternDoesNotTakeExponentialTime() {
        let started = Date()
        let pattern = String(repeating: "*a", count: 20) + "b"
        XCTAssertEqual(ignored(pattern, String(repeating: "a", count: 60)), nil)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
    }
}
