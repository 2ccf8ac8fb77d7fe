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

    func run() throws {
        let configuration = try global.configuration(printWarnings: false)
        let terminal = global.terminal()
        let checks = DoctorChecks.run(configuration: configuration) { try global.openStore(configuration, access: .read) }
        if json {
            terminal.json(checks)
        } else {
            for check in checks { terminal.out("\(check.ok ? "ok  " : check.required ? "FAIL" : "warn") \(check.name): \(check.detail)") }
        }
        if DoctorChecks.failed(checks) { throw ExitCode(1) }
    }
}

extension DoctorCommand: SharesGlobalOptions {}
