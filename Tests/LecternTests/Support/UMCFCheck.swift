import Foundation
import XCTest

/// `Tests/Support/umcf_check.py`: the UMCF schema (jsonschema, draft 2020-12) and the UnaMentis
/// app's own rules (../shared/formats/umcf/NOTES.md) on exported files. Skips, naming what is
/// missing, without `.venv-tests` (make testdeps) or the shared formats folder.
enum UMCFCheck {
    static var script: URL { TestPaths.packageRoot.appendingPathComponent("Tests/Support/umcf_check.py") }

    static func python() throws -> URL {
        let python = TestPaths.packageRoot.appendingPathComponent(".venv-tests/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw XCTSkip("\(python.path) is absent: run `make testdeps` to validate UMCF with jsonschema")
        }
        return python
    }

    /// ../shared/formats/umcf/umcf-schema.json, beside the shared corpus.
    static func schema() throws -> URL {
        let schema = try TestPaths.sharedCorpus().deletingLastPathComponent().appendingPathComponent("formats/umcf/umcf-schema.json")
        guard FileManager.default.fileExists(atPath: schema.path) else { throw XCTSkip("\(schema.path) is absent: skipping") }
        return schema
    }

    /// Runs the checker on `files`: exit status 0 and one `FILE: valid` line each when all pass.
    /// `analyzer`: also the importer's CurriculumAnalyzer rules (segment lengths, objectives,
    /// checkpoints, time estimates).
    static func run(_ files: [URL], schema useSchema: Bool = true, analyzer: Bool = false) throws -> CommandResult {
        let process = Process()
        process.executableURL = try python()
        process.arguments = [script.path] + (useSchema ? ["--schema", try schema().path] : ["--no-schema"])
            + (analyzer ? ["--analyzer"] : []) + files.map(\.path)
        return try capture(process)
    }

    /// Fails the test, with the checker's lines, unless every file passes both halves.
    static func assertValid(_ files: [URL], schema useSchema: Bool = true, analyzer: Bool = false,
                            file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try run(files, schema: useSchema, analyzer: analyzer)
        XCTAssertEqual(result.status, 0, "UMCF check failed:\n\(result.stdout.prefix(4000))\(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stdout.split(separator: "\n").count, files.count, result.stdout, file: file, line: line)
    }
}
