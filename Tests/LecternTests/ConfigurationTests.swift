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
}
