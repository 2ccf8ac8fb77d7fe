import CCurl
import CLibXML2
import CPoppler
import CPostgres
import CTesseract
import Foundation
import XCTest

/// The dlopen shims (CPoppler, CLibXML2, CCurl, CTesseract, CPostgres) declare the types, struct layouts and
/// constants Lectern uses themselves, so that the package builds without the -dev packages'
/// include paths. Those copies must stay what the libraries really are: each test writes one C
/// program that prints sizeof, offsetof (a bit position for bitfields) and value of everything
/// the shim declares, compiles it against the shim and again against the real headers
/// (`pkg-config --cflags`; the shim's function declarations are then checked against the real
/// prototypes by the compiler), and fails naming every difference. A library upgrade that moves a
/// field, renumbers a constant or changes a signature fails here, not as garbage at run time.
final class ShimLayoutTests: XCTestCase {
    func testPopplerDeclarationsMatchPopplerGlibHeaders() throws {
        let real = try compareWithRealHeaders(shim: "CPoppler", package: "poppler-glib", mustDeclare: [
            "struct _GError", "struct _GList", "struct _PopplerRectangle", "struct _PopplerImageMapping", "struct _PopplerColor",
            "struct _PopplerTextAttributes", "struct _PopplerDest", "struct _PopplerActionAny",
            "struct _PopplerActionGotoDest", "union _PopplerAction",
        ])
        // What Swift reads through the same declarations.
        try expect(real, "sizeof(struct _GError)", MemoryLayout<GError>.stride)
        try expect(real, "offsetof(struct _GError, message)", MemoryLayout<GError>.offset(of: \.message))
        try expect(real, "sizeof(struct _GList)", MemoryLayout<GList>.stride)
        try expect(real, "offsetof(struct _GList, next)", MemoryLayout<GList>.offset(of: \.next))
        try expect(real, "sizeof(struct _PopplerRectangle)", MemoryLayout<PopplerRectangle>.stride)
        try expect(real, "offsetof(struct _PopplerRectangle, y2)", MemoryLayout<PopplerRectangle>.offset(of: \.y2))
        try expect(real, "sizeof(struct _PopplerTextAttributes)", MemoryLayout<PopplerTextAttributes>.stride)
        let attributes: [(String, PartialKeyPath<PopplerTextAttributes>)] = [
            ("font_name", \.font_name), ("font_size", \.font_size), ("start_index", \.start_index), ("end_index", \.end_index),
        ]
        for (field, path) in attributes {
            try expect(real, "offsetof(struct _PopplerTextAttributes, \(field))", MemoryLayout<PopplerTextAttributes>.offset(of: path))
        }
    }

    func testTesseractDeclarationsMatchTesseractHeader() throws {
        let real = try compareWithRealHeaders(shim: "CTesseract", package: "tesseract", mustDeclare: [])
        try expect(real, "RIL_WORD", Int(RIL_WORD.rawValue))
        try expect(real, "PSM_AUTO", Int(PSM_AUTO.rawValue))
        try expect(real, "sizeof(TessPageIteratorLevel)", MemoryLayout<TessPageIteratorLevel>.size)
    }

    func testPostgresDeclarationsMatchLibpqHeader() throws {
        let real = try compareWithRealHeaders(shim: "CPostgres", package: "libpq", mustDeclare: [])
        // What PostgresConnection tests a connection and a result against, and the field codes it reads.
        try expect(real, "CONNECTION_OK", Int(CONNECTION_OK.rawValue))
        try expect(real, "PGRES_TUPLES_OK", Int(PGRES_TUPLES_OK.rawValue))
        try expect(real, "PGRES_FATAL_ERROR", Int(PGRES_FATAL_ERROR.rawValue))
        try expect(real, "PG_DIAG_SQLSTATE", Int(lectern_pq_diag_sqlstate))
        try expect(real, "sizeof(Oid)", MemoryLayout<Oid>.size)
    }

    func testLibXML2DeclarationsMatchLibXML2Headers() throws {
        let real = try compareWithRealHeaders(shim: "CLibXML2", package: "libxml-2.0", mustDeclare: [
            "struct _xmlNode", "struct _xmlEntity", "struct _xmlError",
        ])
        try expect(real, "sizeof(struct _xmlNode)", MemoryLayout<xmlNode>.stride)
        let node: [(String, PartialKeyPath<xmlNode>)] = [
            ("type", \.type), ("name", \.name), ("children", \.children), ("parent", \.parent), ("next", \.next),
            ("doc", \.doc), ("content", \.content),
        ]
        for (field, path) in node {
            try expect(real, "offsetof(struct _xmlNode, \(field))", MemoryLayout<xmlNode>.offset(of: path))
        }
        try expect(real, "offsetof(struct _xmlEntity, content)", MemoryLayout<xmlEntity>.offset(of: \.content))
        try expect(real, "offsetof(struct _xmlEntity, etype)", MemoryLayout<xmlEntity>.offset(of: \.etype))
        try expect(real, "offsetof(struct _xmlError, message)", MemoryLayout<xmlError>.offset(of: \.message))
        try expect(real, "offsetof(struct _xmlError, line)", MemoryLayout<xmlError>.offset(of: \.line))
    }

    func testCurlDeclarationsMatchLibcurlHeaders() throws {
        let real = try compareWithRealHeaders(shim: "CCurl", package: "libcurl", mustDeclare: ["struct curl_slist"])
        try expect(real, "sizeof(struct curl_slist)", MemoryLayout<curl_slist>.stride)
        try expect(real, "sizeof(curl_off_t)", MemoryLayout<curl_off_t>.size)
        try expect(real, "CURLOPT_WRITEFUNCTION", Int(CURLOPT_WRITEFUNCTION.rawValue))
    }

    /// The parser below reads every kind of declaration the shims use, bitfields and partial
    /// unions included, and names a member it cannot measure rather than skip it.
    func testDeclarationParserReadsEveryKind() {
        let text = """
            #ifdef LECTERN_SHIM_SYSTEM_HEADERS
            #include <real.h>
            #else
            typedef unsigned int guint;
            typedef void *gpointer;
            struct _Box { /* one */
                double x1;
                char *names[4];
                guint flag : 1;
                void (*callback)(int);
            };
            union _Any { /* partial: the real one is larger */
                int type;
            };
            typedef enum { A_ONE = 1, A_MASK = ~(1 << 0) } AKind;
            #define A_SIZE 256
            #endif /* LECTERN_SHIM_SYSTEM_HEADERS */
            typedef enum { NOT_MINE = 2 } Outside;
            """
        let declarations = ShimDeclarations(shimText: text)
        XCTAssertEqual(declarations.unreadable, ["struct _Box: void (*callback)(int)"])
        XCTAssertEqual(declarations.checks, [
            "sizeof(guint)", "signed(guint)",
            "sizeof(struct _Box)", "offsetof(struct _Box, x1)", "sizeof(((struct _Box *)0)->x1)",
            "offsetof(struct _Box, names)", "sizeof(((struct _Box *)0)->names)", "bit(struct _Box, flag)",
            "offsetof(union _Any, type)", "sizeof(((union _Any *)0)->type)",
            "sizeof(AKind)", "signed(AKind)", "A_ONE", "A_MASK", "A_SIZE",
        ])
    }

    // MARK: - The comparison

    /// The value a key has in the real headers' program, compared with what Swift reports.
    private func expect(_ real: [String: Int], _ key: String, _ swift: Int?, file: StaticString = #filePath, line: UInt = #line) throws {
        let value = try XCTUnwrap(real[key], "\(key) was not measured", file: file, line: line)
        XCTAssertEqual(swift, value, "Swift sees \(key) = \(swift.map(String.init) ?? "nil"), the real headers \(value)", file: file, line: line)
    }

    /// Compiles and runs the measuring program against the shim and against the real headers,
    /// fails on every difference, and returns the real values.
    private func compareWithRealHeaders(shim: String, package: String, mustDeclare: [String]) throws -> [String: Int] {
        let header = TestPaths.packageRoot.appendingPathComponent("Sources/\(shim)/shim.h")
        let declarations = ShimDeclarations(shimText: try String(contentsOf: header, encoding: .utf8))
        XCTAssertEqual(declarations.unreadable, [], "\(shim)/shim.h: members this test cannot measure (declare a typedef for a function pointer; no nested struct or union)")
        XCTAssertFalse(declarations.checks.isEmpty, "\(shim)/shim.h: no declarations found between `#else` and `#endif /* LECTERN_SHIM_SYSTEM_HEADERS */`")
        for aggregate in mustDeclare {
            XCTAssertTrue(declarations.checks.contains { $0.contains(aggregate + ",") || $0.contains(aggregate + ")") },
                          "\(shim)/shim.h: \(aggregate) is not among the declarations checked")
        }

        let compiler = try tool(["gcc", "cc", "clang"], what: "a C compiler (gcc)")
        let pkgConfig = try tool(["pkg-config"], what: "pkg-config")
        let cflags = try run(pkgConfig, ["--cflags", package])
        guard cflags.status == 0 else {
            let reason = cflags.stderr.split(separator: "\n").first.map(String.init) ?? "exit \(cflags.status)"
            throw Failure("pkg-config finds no \(package) headers (\(reason)): run `make setup`")
        }
        let version = try run(pkgConfig, ["--modversion", package]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)

        let folder = try TemporaryFolder()
        let source = try folder.write("measure.c", declarations.program(including: header.path))
        let flags = ["-std=gnu11", "-Wall", "-Wextra", "-Werror", "-Wno-unused-function", "-Wno-type-limits"]
        let own = try measure(compiler, flags + [source.path, "-o", folder.file("own").path, "-ldl"], folder.file("own"),
                              what: "\(shim)/shim.h's own declarations")
        // -isystem: warnings inside the libraries' own headers are theirs; the shim's code and a
        // declaration of it that conflicts with the real one still fail.
        let realFlags = ["-DLECTERN_SHIM_SYSTEM_HEADERS"] + cflags.stdout.split(whereSeparator: \.isWhitespace).map { flag in
            flag.hasPrefix("-I") ? "-isystem" + flag.dropFirst(2) : String(flag)
        }
        let real = try measure(compiler, flags + realFlags + [source.path, "-o", folder.file("real").path, "-ldl"], folder.file("real"),
                               what: "\(shim)/shim.h with \(package) \(version)'s headers (the shim declares something they do not have, or differently)")

        XCTAssertEqual(own.map(\.key), declarations.checks, "the program measured something else than was declared")
        let realValues = Dictionary(real, uniquingKeysWith: { first, _ in first })
        var differences: [String] = []
        for (key, value) in own where realValues[key] != value {
            differences.append("  \(key): \(shim) says \(value), \(package) \(version) says \(realValues[key].map(String.init) ?? "(nothing)")")
        }
        XCTAssertTrue(differences.isEmpty, """
            \(shim)/shim.h no longer matches \(package) \(version)'s headers; update its declarations:
            \(differences.joined(separator: "\n"))
            """)
        return realValues
    }

    private struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The first of `names` on PATH.
    private func tool(_ names: [String], what: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in names {
            for folder in path.split(separator: ":") {
                let candidate = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        throw Failure("\(what) is not installed (looked for \(names.joined(separator: ", ")) on PATH): install it, and run `make setup` for the libraries' headers")
    }

    private func measure(_ compiler: String, _ arguments: [String], _ program: URL, what: String) throws -> [(key: String, value: Int)] {
        let build = try run(compiler, arguments)
        guard build.status == 0 else { throw Failure("compiling against \(what) failed:\n\(build.stderr)") }
        let result = try run(program.path, [])
        guard result.status == 0 else { throw Failure("\(program.lastPathComponent) exited \(result.status): \(result.stderr)") }
        return try result.stdout.split(separator: "\n").map { line in
            guard let tab = line.lastIndex(of: "\t"), let value = Int(line[line.index(after: tab)...]) else {
                throw Failure("unreadable line from \(program.lastPathComponent): \(line)")
            }
            return (String(line[..<tab]), value)
        }
    }

    private func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        // Files, not pipes: a compiler's long error output cannot fill a pipe nobody reads yet.
        let folder = try TemporaryFolder()
        try folder.write("out", "")
        try folder.write("err", "")
        let out = try FileHandle(forWritingTo: folder.file("out"))
        let err = try FileHandle(forWritingTo: folder.file("err"))
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return (process.terminationStatus, try String(contentsOf: folder.file("out"), encoding: .utf8),
                try String(contentsOf: folder.file("err"), encoding: .utf8))
    }
}

/// What a shim declares itself (the part of shim.h between `#else` and
/// `#endif /* LECTERN_SHIM_SYSTEM_HEADERS */`), as the C expressions to measure: each scalar
/// typedef's and enum's size and signedness, each struct's and union's size (not for one marked
/// `/* partial`), each field's offset and size (a bitfield's bit position), each enumerator's
/// and `#define`'s value.
struct ShimDeclarations {
    /// C expressions, each printed with its value.
    let checks: [String]
    /// Struct or union members the checks cannot name (a function pointer, a nested aggregate).
    let unreadable: [String]

    init(shimText: String) {
        let section = Self.ownSection(of: shimText)
        var checks: [String] = []
        var unreadable: [String] = []
        // In order of appearance, whatever the kind.
        var found: [(position: Int, checks: [String])] = []
        func offset(_ range: Range<String.Index>) -> Int { section.distance(from: section.startIndex, to: range.lowerBound) }

        for match in section.matches(of: /typedef\s+([A-Za-z_][\w ]*?)\s+(\w+)\s*;/) {
            let type = String(match.1)
            if type.hasPrefix("struct ") || type.hasPrefix("union ") || type.hasPrefix("enum ") || type == "void" { continue }
            found.append((offset(match.range), ["sizeof(\(match.2))", "signed(\(match.2))"]))
        }
        for match in section.matches(of: /(struct|union)\s+(\w+)\s*\{([^}]*)\}/) {
            let aggregate = "\(match.1) \(match.2)"
            let body = String(match.3)
            var measured = body.contains("/* partial") ? [] : ["sizeof(\(aggregate))"]
            for member in Self.withoutComments(body).split(separator: ";") {
                let member = member.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !member.isEmpty else { continue }
                if member.contains("(") || member.contains("{") {
                    unreadable.append("\(aggregate): \(member)")
                } else if let bitfield = member.firstMatch(of: /(\w+)\s*:\s*\d+$/) {
                    measured.append("bit(\(aggregate), \(bitfield.1))")
                } else if let field = member.firstMatch(of: /(\w+)\s*(\[\w*\])?$/) {
                    measured.append("offsetof(\(aggregate), \(field.1))")
                    measured.append("sizeof(((\(aggregate) *)0)->\(field.1))")
                }
            }
            found.append((offset(match.range), measured))
        }
        for match in section.matches(of: /\benum(?:\s+\w+)?\s*\{([^}]*)\}\s*(\w*)\s*;/) {
            var measured: [String] = []
            if !match.2.isEmpty { measured += ["sizeof(\(match.2))", "signed(\(match.2))"] }
            for enumerator in Self.withoutComments(String(match.1)).split(separator: ",") {
                if let name = enumerator.firstMatch(of: /^\s*([A-Za-z_]\w*)/) { measured.append(String(name.1)) }
            }
            found.append((offset(match.range), measured))
        }
        for match in section.matches(of: /#define\s+([A-Z_][A-Z0-9_]*)\s+\S/) {
            found.append((offset(match.range), [String(match.1)]))
        }
        for item in found.sorted(by: { $0.position < $1.position }) { checks += item.checks }
        self.checks = checks
        self.unreadable = unreadable
    }

    /// A program printing `expression<TAB>value` per check.
    func program(including header: String) -> String {
        var lines = [
            "#include <stddef.h>", "#include <stdio.h>", "#include <string.h>", "#include \"\(header)\"",
            "",
            "/* The first bit set in an object, counted from the lowest address's least significant bit. */",
            "static long long first_bit(const unsigned char *bytes, size_t size) {",
            "    for (size_t i = 0; i < size * 8; i++) if (bytes[i / 8] & (1u << (i % 8))) return (long long)i;",
            "    return -1;",
            "}",
            "",
            "int main(void) {",
        ]
        for expression in checks {
            let value: String
            if let bit = expression.firstMatch(of: /^bit\((.+), (\w+)\)$/) {
                lines.append("    { \(bit.1) v; memset(&v, 0, sizeof v); v.\(bit.2) = 1; printf(\"%s\\t%lld\\n\", \"\(expression)\", first_bit((const unsigned char *)&v, sizeof v)); }")
                continue
            } else if let signed = expression.firstMatch(of: /^signed\((\w+)\)$/) {
                value = "((\(signed.1))-1 < (\(signed.1))0)"
            } else {
                value = "(\(expression))"
            }
            lines.append("    printf(\"%s\\t%lld\\n\", \"\(expression)\", (long long)\(value));")
        }
        lines += ["    return 0;", "}", ""]
        return lines.joined(separator: "\n")
    }

    static func ownSection(of text: String) -> Substring {
        guard let start = text.firstMatch(of: /#ifdef LECTERN_SHIM_SYSTEM_HEADERS[\s\S]*?\n#else\n/),
              let end = text[start.range.upperBound...].firstMatch(of: /\n#endif \/\* LECTERN_SHIM_SYSTEM_HEADERS \*\//) else { return "" }
        return text[start.range.upperBound..<end.range.lowerBound]
    }

    static func withoutComments(_ text: String) -> String {
        text.replacing(/\/\*[\s\S]*?\*\//, with: "")
    }
}
