import ArgumentParser
import Lectern

struct CurriculumListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the library's curricula.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print as JSON.")
    var json = false

    func run() throws {
        let (_, terminal, library) = try global.openLibraryForReading()
        let curricula = try Curricula.list(library)
        if json {
            terminal.json(curricula)
            return
        }
        if curricula.isEmpty {
            terminal.note("no curricula yet (lectern curriculum build NAME SOURCE…)")
            return
        }
        for curriculum in curricula {
            terminal.out("\(terminal.bold(curriculum.name))  \(curriculum.title)  \(Plural.counted(curriculum.units, "unit"))  \(Plural.counted(curriculum.topics, "topic"))  \(terminal.dim("updated " + curriculum.updated))")
        }
    }
}

extension CurriculumListCommand: SharesGlobalOptions {}
