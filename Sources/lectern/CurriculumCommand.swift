import ArgumentParser
import Lectern

/// `lectern curriculum …`: courses built from the library (units → topics), listed, shown,
/// searched and removed.
struct CurriculumCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "curriculum",
        abstract: "Build a course (units → topics) from the library, and list, show, find or remove it.",
        discussion: """
            A curriculum follows its sources' own structure: an OpenStax book's chapters and \
            modules, a PDF's outline, a web page's sections, an OCW course's pages; a transcript \
            is cut where its subject shifts. Several sources give one unit each, and topics on \
            the same subject are joined.

              lectern curriculum build biology notes/ lectures/
              lectern curriculum show biology --depth 2
              lectern curriculum find "where is ATP made?"
              lectern curriculum export biology -o biology.umcf
            """,
        subcommands: [
            CurriculumBuildCommand.self, CurriculumListCommand.self, CurriculumShowCommand.self, CurriculumFindCommand.self,
            CurriculumRemoveCommand.self, CurriculumExportCommand.self,
        ]
    )
}
