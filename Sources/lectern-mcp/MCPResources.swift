import Foundation
import Lectern
import MCP

/// What `lectern mcp` offers to read: each curriculum's syllabus (Markdown) and UMCF export,
/// and each document's outline (its table of contents, with pages or times).
extension MCPLibrary {
    static let syllabusTemplate = "lectern://curriculum/{name}/syllabus.md"
    static let umcfTemplate = "lectern://curriculum/{name}/export.umcf"

    static func curriculumURI(_ name: String, _ file: String) -> String {
        "lectern://curriculum/\(name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? name)/\(file)"
    }

    static let outlineTemplate = "lectern://document/{id}/outline"
    /// Resources listed a page at a time, so a library of thousands of documents stays quick.
    static let pageSize = 200

    static func outlineURI(_ shortId: String) -> String { "lectern://document/\(shortId)/outline" }

    func resources(cursor: String?) throws -> ListResources.Result {
        var all: [Resource] = []
        for curriculum in try Curricula.list(library) {
            all.append(Resource(name: "\(curriculum.title): syllabus", uri: Self.curriculumURI(curriculum.name, "syllabus.md"),
                                description: "The curriculum \(curriculum.name) as a readable syllabus: units, topics, objectives, sources.",
                                mimeType: "text/markdown"))
            all.append(Resource(name: "\(curriculum.title): UMCF", uri: Self.curriculumURI(curriculum.name, "export.umcf"),
                                description: "The curriculum \(curriculum.name) in UMCF, the UnaMentis tutoring app's curriculum format.",
                                mimeType: "application/json"))
        }
        for listing in try LibraryListing.sources(in: library) {
            for document in listing.documents {
                all.append(Resource(name: "\(document.title) (outline)", uri: Self.outlineURI(document.shortId),
                                    description: "The table of contents of \(document.uri), with pages or times.",
                                    mimeType: "text/markdown"))
            }
        }
        let start = cursor.flatMap(Int.init) ?? 0
        guard start >= 0, start <= all.count else { throw MCPError.invalidParams("unknown cursor '\(cursor ?? "")'") }
        let end = min(all.count, start + Self.pageSize)
        return ListResources.Result(resources: Array(all[start..<end]), nextCursor: end < all.count ? String(end) : nil)
    }

    func read(_ uri: String) throws -> ReadResource.Result {
        let curriculumPrefix = "lectern://curriculum/"
        if uri.hasPrefix(curriculumPrefix) {
            let rest = uri.dropFirst(curriculumPrefix.count)
            guard let slash = rest.lastIndex(of: "/"), let name = String(rest[..<slash]).removingPercentEncoding else {
                throw Self.notFound("unknown resource \(uri) (curricula are \(Self.syllabusTemplate) and \(Self.umcfTemplate))")
            }
            let format: CurriculumExportFormat
            switch rest[rest.index(after: slash)...] {
            case "syllabus.md": format = .markdown
            case "export.umcf": format = .umcf
            default: throw Self.notFound("unknown resource \(uri) (curricula are \(Self.syllabusTemplate) and \(Self.umcfTemplate))")
            }
            do {
                let result = try CurriculumExport(library: library).export(curriculumNamed: name, format: format)
                return ReadResource.Result(contents: [.text(String(decoding: result.data, as: UTF8.self), uri: uri,
                                                            mimeType: format == .umcf ? "application/json" : "text/markdown")])
            } catch let error as LecternError {
                throw Self.notFound(error.description)
            }
        }
        let prefix = "lectern://document/", suffix = "/outline"
        guard uri.hasPrefix(prefix), uri.hasSuffix(suffix), uri.count > prefix.count + suffix.count else {
            throw Self.notFound("unknown resource \(uri) (documents' outlines are \(Self.outlineTemplate))")
        }
        let id = String(uri.dropFirst(prefix.count).dropLast(suffix.count))
        let view: DocumentView
        do {
            view = try LibraryListing.document(id, in: library)
        } catch let error as LecternError {
            throw Self.notFound(error.description)
        }
        return ReadResource.Result(contents: [.text(Self.outlineMarkdown(view), uri: uri, mimeType: "text/markdown")])
    }

    /// The protocol's "resource not found" (-32002).
    static func notFound(_ message: String) -> MCPError {
        MCPError.serverError(code: -32002, message: message)
    }

    /// `# Title`, the document's address, then one indented line per heading with its page or time.
    static func outlineMarkdown(_ view: DocumentView) -> String {
        var lines = ["# \(view.document.title)", "", view.document.uri, ""]
        if view.outline.isEmpty {
            lines.append("(no headings: \(view.document.passageCount) passages without sections)")
        }
        for entry in view.outline {
            let place = entry.locator.map { " (\($0))" } ?? ""
            lines.append(String(repeating: "  ", count: entry.depth) + "- \(entry.title)\(place)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
