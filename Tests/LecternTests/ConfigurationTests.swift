import XCTest
@testable import Lectern

final class ConfigurationTests: XCTestCase {
    func testPrecedenceFlagsOverEnvironmentOverPipelineOverConfigFile() throws {
        let folder = try TemporaryFolder()
        try folder.write("config-home/lectern/config.toml", """
            database = "from-config.db"
            embedder = "hashing"
            [chunk]
            max_tokens = 200
            overlap_tokens = 10
            [http]
            contact = "me@example.org"
            """)
        try folder.write("pipelines/nightly.toml", """
            database = "libraries/nightly.db"
            [chunk]
            overlap_tokens = 20
            """)
        let pipeline = try ConfigLayer.file(folder.file("pipelines/nightly.toml").path)
        let environment = ["XDG_CONFIG_HOME": folder.file("config-home").path, "LECTERN_CHUNK_MAX_TOKENS": "150"]

        var configuration = try Configuration.load(environment: environment)
        XCTAssertEqual(configuration.database, folder.file("config-home/lectern/from-config.db").standardizedFileURL.path,
                       "a relative path in a config file is relative to that file")
        XCTAssertEqual(configuration.chunk.maxTokens, 150, "environment beats the config file")
        XCTAssertEqual(configuration.chunk.overlapTokens, 10)
        XCTAssertEqual(configuration.http.contact, "me@example.org")

        configuration = try Configuration.load(environment: environment, pipelineFile: pipeline)
        XCTAssertEqual(configuration.database, folder.file("pipelines/libraries/nightly.db").standardizedFileURL.path,
                       "a pipeline file beats the config file, its paths relative to the pipeline file")
        XCTAssertEqual(configuration.chunk.overlapTokens, 20)
        XCTAssertEqual(configuration.chunk.maxTokens, 150, "the environment beats a pipeline file")

        configuration = try Configuration.load(environment: environment.merging(["LECTERN_DB": "/tmp/env.db"]) { $1 },
                                               pipelineFile: pipeline)
        XCTAssertEqual(configuration.database, "/tmp/env.db", "the environment beats a pipeline file")

        configuration = try Configuration.load(environment: environment.merging(["LECTERN_DB": "/tmp/env.db"]) { $1 },
                                               pipelineFile: pipeline, flags: ["database": .string("/tmp/flag.db")])
        XCTAssertEqual(configuration.database, "/tmp/flag.db", "flags beat everything")
        XCTAssertEqual(configuration.origins["database"], "command line")
    }

    /// Keys that are only valid together (an overlap above the default maximum, a maximum below
    /// the default overlap) are checked once every layer is merged, whatever order keys come in.
    func testKeysValidTogetherAreAcceptedWhateverTheirOrder() throws {
        do {
            let larger = try Configuration.merge([ConfigLayer.toml(
                "[chunk]\nmax_tokens = 400\noverlap_tokens = 300\n", name: "a.toml", baseDirectory: nil)])
            XCTAssertEqual(larger.chunk.maxTokens, 400)
            XCTAssertEqual(larger.chunk.overlapTokens, 300)
            let smaller = try Configuration.merge([ConfigLayer.toml(
                "[chunk]\nmax_tokens = 20\noverlap_tokens = 10\n", name: "b.toml", baseDirectory: nil)])
            XCTAssertEqual(smaller.chunk.maxTokens, 20)
        }
        XCTAssertThrowsError(try Configuration.merge([ConfigLayer.toml(
            "[chunk]\nmax_tokens = 100\noverlap_tokens = 100\n", name: "c.toml", baseDirectory: nil)])) { error in
            XCTAssertEqual("\(error)", "c.toml: chunk.overlap_tokens (100) must be smaller than chunk.max_tokens (100)")
        }
    }

    func testBadValuesNameTheFileAndKey() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("bad.toml", "[chunk]\nmax_tokens = \"many\"\n")
        XCTAssertThrowsError(try Configuration.merge([ConfigLayer.file(file.path)])) { error in
            XCTAssertEqual("\(error)", "\(file.path): chunk.max_tokens must be a whole number, not 'many'")
        }
        let broken = try folder.write("broken.toml", "database = \n")
        XCTAssertThrowsError(try ConfigLayer.file(broken.path)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(broken.path): line 1"), "\(error)")
        }
    }

    /// `[chunk] max_token = 100` was once accepted in silence and `doctor` said ok: now every
    /// command warns, one line naming the file, the key and the nearest known key, and `doctor`
    /// lists it.
    func testAnUnknownKeyInTheConfigFileIsAWarningThatDoctorLists() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: TestPaths.lecternBinary.path), "the lectern binary is not built")
        let folder = try TemporaryFolder()
        let config = try folder.write("config-home/lectern/config.toml", "[chunk]\nmax_token = 100\n")
        try folder.write("notes/a.md", "# A\n\nSome text about entropy.\n")
        let warning = "\(config.path): unknown key chunk.max_token (did you mean chunk.max_tokens?)"
        let ingest = try runLectern(["ingest", "notes"], in: folder.url)
        XCTAssertEqual(ingest.status, 0, ingest.stderr)
        XCTAssertEqual(ingest.stderr, "lectern: warning: \(warning)\n")
        let doctor = try runLectern(["doctor"], in: folder.url)
        XCTAssertTrue(doctor.stdout.contains("warn config: \(warning)"), doctor.stdout)
        XCTAssertFalse(doctor.stderr.contains("unknown key"), "listed once, not also on stderr: \(doctor.stderr)")
    }

    func testUnknownKeysInAFileAreWarningsNamingTheNearestKnownKey() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("config.toml", """
            embeder = "hashing"
            [chunk]
            max_token = 100
            [http]
            timeout = 5
            [telemetry]
            endpoint = "https://example.org"
            """)
        let configuration = try Configuration.merge([ConfigLayer.file(file.path)])
        XCTAssertEqual(configuration.warnings.map(\.description), [
            "\(file.path): unknown key chunk.max_token (did you mean chunk.max_tokens?)",
            "\(file.path): unknown key embeder (did you mean embedder?)",
            "\(file.path): unknown key telemetry.endpoint",
        ])
        XCTAssertEqual(configuration.chunk.maxTokens, ChunkSettings().maxTokens, "a misspelt key sets nothing")
        XCTAssertEqual(configuration.http.timeout, 5, "the known keys of the file still count")

        let environment = ConfigLayer.environment(["LECTERN_CHUNK_MAX_TOKEN": "100", "LECTERN_CONFIG": "/elsewhere.toml"])
        XCTAssertTrue(environment.values.isEmpty, "other LECTERN_ variables are not settings")
        XCTAssertTrue(environment.warnings.isEmpty)
    }

    /// A pipeline file is written for one run, so its unknown key is an error: one flag.
    func testALayerCanRefuseUnknownKeys() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("pipeline.toml", "[search]\nk = 5\n[chunk]\nmax_token = 100\n")
        XCTAssertThrowsError(try ConfigLayer.file(file.path, unknownKeys: .reject)) { error in
            XCTAssertEqual("\(error)", "\(file.path): unknown key chunk.max_token (did you mean chunk.max_tokens?)")
        }
        XCTAssertEqual(try ConfigLayer.file(file.path, unknownKeys: .warn).warnings.count, 1)
        let strictButKnown = try ConfigLayer.toml("[llm.prices.\"gpt-4.1-mini\"]\ninput = 0.4\n", name: "p.toml", baseDirectory: nil, unknownKeys: .reject)
        XCTAssertEqual(try Configuration.merge([strictButKnown]).llm.prices["gpt-4.1-mini"]?.input, 0.4, "a price table's entries are known keys")
    }

    /// The key's type decides the check, and the message names the file and the key.
    func testEachKeyIsCheckedByItsType() throws {
        func error(_ toml: String) -> String {
            do {
                _ = try Configuration.merge([ConfigLayer.toml(toml, name: "c.toml", baseDirectory: nil)])
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(error("[http]\nretries = -1"), "c.toml: http.retries must be from 0 to 20, not -1")
        XCTAssertEqual(error("[search]\nk = 0"), "c.toml: search.k must be from 1 to 10000, not 0")
        XCTAssertEqual(error("[chunk]\nmax_tokens = 600"), "c.toml: chunk.max_tokens must be from 1 to 510, not 600")
        XCTAssertEqual(error("[http]\ntimeout = \"soon\""), "c.toml: http.timeout must be a number, not 'soon'")
        XCTAssertEqual(error("[openstax]\narchive = \"https://example.org/book.zip\""), "c.toml: openstax.archive must contain {repository}")
        XCTAssertEqual(error("[llm]\nprovider = \"gpt\""), "c.toml: llm.provider 'gpt' is not one of openai, anthropic, ollama, extractive")
        XCTAssertEqual(error("[llm]\nbase_url = \"ftp://reader:hunter2@example.org/v1?api_key=sk-123\""),
                       "c.toml: llm.base_url must be an http or https URL, not 'ftp://example.org/v1?api_key=***'",
                       "a refused URL is shown without its credentials")
        XCTAssertEqual(error("[embedding]\napi_key_env = \"sk-abc123def456\""),
                       "c.toml: embedding.api_key_env must be the NAME of an environment variable (like OPENAI_API_KEY), not a key")
        XCTAssertEqual(error("[llm]\ntemperature = 0.2\n[embedding]\nurl = \"\""), "accepted", "an empty URL is no URL")
    }

    /// Every row's variable sets its key, read by the key's type.
    func testEveryKeyCanBeSetThroughItsVariable() throws {
        var environment: [String: String] = [:]
        for key in ConfigKey.all where !key.type.isTable {
            environment[key.environmentVariable] = key.defaultValue ?? Self.sample(key.type)
        }
        let configuration = try Configuration.merge([ConfigLayer.environment(environment)])
        for key in ConfigKey.all where !key.type.isTable {
            XCTAssertEqual(configuration.origins[key.name], "environment", "\(key.environmentVariable) sets \(key.name)")
        }
        XCTAssertEqual(ConfigKey.named("database")?.environmentVariable, "LECTERN_DB")
        XCTAssertEqual(try Configuration.merge([ConfigLayer.environment(["LECTERN_DATABASE": "/tmp/long.db"])]).database, "/tmp/long.db",
                       "the spelled-out name works too")
    }

    static func sample(_ type: ConfigType) -> String {
        switch type {
        case .wholeNumber(let low, _): return String(max(low, 1))
        case .number(let low, _): return String(max(low, 1))
        case .url: return "http://127.0.0.1:8080/v1"
        case .variableName: return "SOME_KEY"
        case .choice(let names): return names[0]
        default: return "text"
        }
    }

    /// The defaults the README shows (from the table) are the defaults the code has.
    func testTheTablesDefaultsAreTheCodesDefaults() throws {
        var values: [String: ConfigValue] = [:]
        for key in ConfigKey.all {
            if let value = key.defaultValue { values[key.name] = key.type.readsEnvironmentAsText ? .string(value) : ConfigValue.parse(value) }
        }
        let documented = try Configuration.merge([ConfigLayer(name: "defaults", values: values)])
        let code = Configuration()
        XCTAssertEqual(documented.database, Configuration.resolvePath(code.database, base: nil))
        XCTAssertEqual(documented.embedder, code.embedder)
        XCTAssertEqual(documented.modelsDirectory, code.modelsDirectory)
        XCTAssertEqual(documented.embedding, code.embedding)
        XCTAssertEqual(documented.chunk, code.chunk)
        XCTAssertEqual(documented.http, code.http)
        XCTAssertEqual(documented.openstax, code.openstax)
        XCTAssertEqual(documented.searchLimit, code.searchLimit)
        XCTAssertEqual(documented.llm, code.llm)
        XCTAssertEqual(documented.ocr, code.ocr)
    }

    /// The configuration reference (docs/configuration.md) is the key table: the generated table
    /// between its markers is `ConfigKey.markdownReference`, and the TOML example loads with
    /// unknown keys refused. `LECTERN_UPDATE_README=1 swift test --filter ConfigurationTests`
    /// rewrites the table.
    func testTheConfigurationReferenceIsTheKeyTable() throws {
        let readme = TestPaths.packageRoot.appendingPathComponent("docs/configuration.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let begin = "<!-- config-keys:begin (generated from ConfigKey.all) -->\n", end = "<!-- config-keys:end -->"
        let start = try XCTUnwrap(text.range(of: begin), "docs/configuration.md has no \(begin)")
        let stop = try XCTUnwrap(text.range(of: end, range: start.upperBound..<text.endIndex))
        let documented = String(text[start.upperBound..<stop.lowerBound])
        let generated = ConfigKey.markdownReference + "\n"
        if documented != generated, ProcessInfo.processInfo.environment["LECTERN_UPDATE_README"] == "1" {
            try text.replacingCharacters(in: start.upperBound..<stop.lowerBound, with: generated)
                .write(to: readme, atomically: true, encoding: .utf8)
        } else {
            XCTAssertEqual(documented, generated,
                           "docs/configuration.md's key table differs from ConfigKey.all: LECTERN_UPDATE_README=1 swift test --filter ConfigurationTests")
        }

        let section = try XCTUnwrap(text.range(of: "## Configuration"))
        let fence = try XCTUnwrap(text.range(of: "```toml\n", range: section.upperBound..<text.endIndex))
        let close = try XCTUnwrap(text.range(of: "\n```", range: fence.upperBound..<text.endIndex))
        let example = try ConfigLayer.toml(String(text[fence.upperBound..<close.lowerBound]), name: "docs/configuration.md", baseDirectory: "/",
                                           unknownKeys: .reject)
        XCTAssertGreaterThan(example.values.count, 20)
        XCTAssertNoThrow(try Configuration.merge([example]), "the documented example is a valid config file")
        let named = Set(example.values.keys.compactMap { ConfigKey.named($0)?.name })
        let missing = ConfigKey.all.map(\.name).filter { !named.contains($0) && !documented.contains("`\($0)`") }
        XCTAssertEqual(missing, [], "every key is in docs/configuration.md")
    }
}
