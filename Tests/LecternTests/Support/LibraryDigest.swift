import Foundation
import XCTest

/// The digest of a library (`Tests/Support/library_digest.py`, Python's own sqlite3): integrity,
/// the FTS index's check, and each document's hashes of its passage texts and vectors.
func libraryDigest(_ library: URL) throws -> [String: Any] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", TestPaths.packageRoot.appendingPathComponent("Tests/Support/library_digest.py").path, library.path]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "library_digest.py failed on \(library.path)")
    return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// Each document's digest by URI; `updated_at` (when it was written) only when `written`.
func digestDocuments(_ digest: [String: Any], written: Bool = false) -> [String: [String: AnyHashable]] {
    (digest["documents"] as? [String: [String: Any]] ?? [:]).mapValues {
        $0.filter { written || $0.key != "updated_at" }.compactMapValues { $0 as? AnyHashable }
    }
}
