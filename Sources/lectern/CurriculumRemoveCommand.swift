import ArgumentParser
import Lectern

struct CurriculumRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Remove a curriculum (its documents stay in the library).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The curriculum's name.", completion: Completions.curricula)
    var name: String

    func run() throws {
        let configuration = try global.configuration()
        let terminal = global.terminal()
        let library = try global.openLibrary(configuration, access: .write)
        let recorder = try global.startRun(library, command: "curriculum rm")
        let removed = try recorder.run { () throws -> Bool in
            let removed = try Curricula.remove(named: name, in: library)
            if removed { recorder.count("removed") }
            return removed
        }
        guard removed else {
            terminal.event(PipelineEvent(.failed, input: name, message: "no curriculum of this name (see `lectern curriculum list`)"))
            throw ExitCode(1)
        }
        terminal.out("removed \(name)")
    }
}

extension CurriculumRemoveCommand: SharesGlobalOptions {}
