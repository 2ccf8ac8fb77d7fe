import ArgumentParser
import Foundation
import Lectern

struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor", abstract: "Check libraries, the library file's integrity and model files.",
        discussion: "Exits 1 when something the library needs fails: a system library, the library file, or the MiniLM files when it embeds with MiniLM.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print as JSON.")
    var json = false

    struct Check: Encodable {
        var name: String
        var ok: Bool
        var detail: String
        /// A failed required check fails `doctor`; another is a warning (the MiniLM files of a
        /// library that embeds with something else).
        var required = true
    }

    func run() throws {
        let configuration = try global.configuration(printWarnings: false)
        let terminal = global.terminal()
        var checks: [Check] = SystemLibraries.versions().map { Check(name: $0.name, ok: $0.found, detail: $0.version) }
        var embedderName = configuration.embedder
        if FileManager.default.fileExists(atPath: configuration.database) {
            do {
                let store = try global.openStore(configuration, mustExist: true)
                let result = try store.integrityCheck()
                checks.append(Check(name: "library", ok: result == ["ok"], detail: "\(configuration.database): integrity_check \(result.joined(separator: "; "))"))
                let embedder = try store.recordedEmbedder()
                embedderName = embedder?.name ?? configuration.embedder
                checks.append(Check(name: "embedder", ok: true, detail: embedder?.description ?? "none recorded yet (new library uses \(configuration.embedder))"))
            } catch {
                checks.append(Check(name: "library", ok: false, detail: "\(error)"))
            }
        } else {
            checks.append(Check(name: "library", ok: true, detail: "\(configuration.database) does not exist yet (made by the first ingest)"))
        }
        let modelDirectory = configuration.modelsDirectory + "/all-MiniLM-L6-v2"
        let modelFiles = ["model.safetensors", "vocab.txt", "tokenizer.json"]
        let missing = modelFiles.filter { !FileManager.default.fileExists(atPath: modelDirectory + "/" + $0) }
        checks.append(Check(name: "minilm model", ok: missing.isEmpty,
                            detail: missing.isEmpty ? modelDirectory : "missing \(missing.joined(separator: ", ")) in \(modelDirectory): run `make model`",
                            required: embedderName == MiniLMEmbedder.name))
        let userConfig = Configuration.userConfigPath(environment: ProcessInfo.processInfo.environment)
        checks.append(Check(name: "config", ok: true, detail: FileManager.default.fileExists(atPath: userConfig) ? userConfig : "\(userConfig) (absent: defaults)"))
        checks += configuration.warnings.map { Check(name: "config", ok: false, detail: "\($0)", required: false) }
        if json {
            terminal.json(checks)
        } else {
            for check in checks { terminal.out("\(check.ok ? "ok  " : check.required ? "FAIL" : "warn") \(check.name): \(check.detail)") }
        }
        if checks.contains(where: { !$0.ok && $0.required }) { throw ExitCode(1) }
    }
}
