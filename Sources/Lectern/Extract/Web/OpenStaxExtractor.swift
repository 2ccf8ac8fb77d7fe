import Foundation

/// An OpenStax book in its source form, one source: `META-INF/books.xml` names the collection,
/// `collections/*.collection.xml` orders chapters (subcollections) and modules, and each
/// `modules/mNNNNN/index.cnxml` holds one section. Blocks come in book order under
/// chapter › section › subsection paths, numbered as the book numbers them (2 Logic, 2.1 …).
/// A bundle (one repository, several books in books.xml, like calculus volumes 1–3) is one
/// document per book: `parts` names them and `input.part` picks the one `extract` reads.
struct OpenStaxExtractor: Extractor {
    let name = "openstax"
    let version = 4  // 2: exercises held in the exercise bank have no placeholder text; 3: pages and sections keep their web address; 4: blocks keep their links to other modules (`references`)

    /// A module larger than this is refused (a CNXML section is some tens of KB).
    static let maxModuleBytes = 16 << 20

    init() {}

    func confidence(for input: SourceInput) -> Int {
        guard input.isDirectory, let root = input.path else { return 0 }
        return FileManager.default.fileExists(atPath: root + "/META-INF/books.xml") ? 95 : 0
    }

    struct Book {
        var title: String
        var slug: String
        var metadata: [String: String]
        var items: [Item]
    }

    /// A chapter (subcollection) or a module, in book order.
    indirect enum Item {
        case module(String)
        case chapter(String, [Item])
    }

    func extract(_ input: SourceInput) throws -> ExtractedDocument {
        guard let root = input.path else { throw LecternError(.notFound, input.displayName, "an OpenStax book must be a folder") }
        let entries = try bookEntries(root: root, display: input.displayName)
        let entry: BookEntry
        var warnings: [ExtractionWarning] = []
        if let part = input.part {
            guard let chosen = entries.first(where: { $0.slug == part }) else {
                throw LecternError(.notFound, input.displayName, "no book \"\(part)\" in META-INF/books.xml (it lists \(entries.map(\.slug).joined(separator: ", ")))")
            }
            entry = chosen
        } else {
            entry = entries[0]
            if entries.count > 1 {
                warnings.append(ExtractionWarning("a bundle of \(entries.count) books (\(entries.map(\.slug).joined(separator: ", "))): this is \(entry.slug); ingest stores each book as its own document"))
            }
        }
        let book = try readBook(root: root, entry: entry, display: input.displayName)
        var blocks: [Block] = [Block(kind: .title, text: book.title, level: 0)]
        var chapterNumber = 0
        var modules = 0

        func addModule(_ id: String, chapterPath: [String], number: String?) {
            let file = root + "/modules/\(id)/index.cnxml"
            do {
                guard let attributes = try? FileManager.default.attributesOfItem(atPath: file) else {
                    throw LecternError(.notFound, "modules/\(id)/index.cnxml", "missing")
                }
                if let size = attributes[.size] as? Int, size > Self.maxModuleBytes {
                    throw LecternError(.tooLarge, "modules/\(id)/index.cnxml", "over the \(Self.maxModuleBytes >> 20) MiB limit")
                }
                let data = try Data(contentsOf: URL(fileURLWithPath: file))
                let document = try MarkupDocument.xml(data, name: "modules/\(id)/index.cnxml")
                guard let module = document.root else { throw LecternError(.corrupt, "modules/\(id)/index.cnxml", "empty") }
                var title = TextCleanup.collapseWhitespace(module.child("title")?.text ?? "")
                if title.isEmpty { title = id }
                let isIntroduction = module.hasClass("introduction")
                if let number, !isIntroduction { title = "\(number) \(title)" }
                let level = chapterPath.count + 1
                let path = chapterPath + [title]
                // openstax.org names a section's page after its number and title (`1-1-what-is-philosophy`,
                // a chapter's introduction `1-introduction`): where a hit's link points.
                let chapter = number.flatMap { $0.split(separator: ".").first.map(String.init) }
                let page = Self.pageSlug(isIntroduction ? (chapter.map { $0 + " " } ?? "") + title : title)
                blocks.append(Block(kind: .heading, text: title, level: level, sectionPath: path,
                                    attributes: ["module": id, "url": "https://openstax.org/books/\(book.slug)/pages/\(page)"]))
                var writer = CNXMLBlockWriter(basePath: path, baseLevel: level + 1, moduleID: id)
                writer.write(document: module)
                blocks += writer.blocks
                modules += 1
            } catch let error as LecternError {
                warnings.append(ExtractionWarning("module \(id) left out: \(error.description)"))
            } catch {
                warnings.append(ExtractionWarning("module \(id) left out: \(error.localizedDescription)"))
            }
        }

        func walk(_ items: [Item], path: [String], chapter: Int?) throws {
            var section = 0
            for item in items {
                switch item {
                case .module(let id):
                    // A stop asked for is seen between two modules (a book has hundreds).
                    try input.stop?.check(input.displayName)
                    let isIntro = section == 0 && chapter != nil
                    if !isIntro || !moduleIsIntroduction(root: root, id: id) { section += 1 }
                    addModule(id, chapterPath: path, number: chapter.map { "\($0).\(section)" })
                case .chapter(let title, let children):
                    var number = chapter
                    var heading = title
                    if path.isEmpty {
                        chapterNumber += 1
                        number = chapterNumber
                        heading = "\(chapterNumber) \(title)"
                    }
                    blocks.append(Block(kind: .heading, text: heading, level: path.count + 1, sectionPath: path + [heading]))
                    try walk(children, path: path + [heading], chapter: number)
                }
            }
        }
        try walk(book.items, path: [], chapter: nil)
        guard modules > 0 else {
            throw LecternError(.empty, input.displayName, "no readable module in this OpenStax book" + (warnings.first.map { " (\($0.message))" } ?? ""))
        }
        var metadata = book.metadata
        metadata["modules"] = String(modules)
        metadata["chapters"] = String(chapterNumber)
        return ExtractedDocument(type: "openstax", title: book.title, blocks: blocks, metadata: metadata, warnings: warnings)
    }

    /// "1.1 What Is Philosophy?" → "1-1-what-is-philosophy".
    static func pageSlug(_ title: String) -> String {
        let words = title.lowercased().split { !($0.isLetter || $0.isNumber) || !$0.isASCII }
        return words.joined(separator: "-")
    }

    private func moduleIsIntroduction(root: String, id: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: root + "/modules/\(id)/index.cnxml") else { return false }
        defer { try? handle.close() }
        let head = String(decoding: handle.readData(ofLength: 400), as: UTF8.self)
        return head.contains("class=\"introduction\"")
    }

    /// One `<book>` of books.xml: its slug and its collection file.
    struct BookEntry {
        var slug: String
        var href: String
    }

    func parts(of input: SourceInput) -> [String] {
        guard let root = input.path, let entries = try? bookEntries(root: root, display: input.displayName), entries.count > 1 else { return [] }
        return entries.map(\.slug)
    }

    /// The books META-INF/books.xml lists, in its order; a slug missing from the file is the
    /// collection's file name (`collections/calculus-volume-1.collection.xml`).
    func bookEntries(root: String, display: String) throws -> [BookEntry] {
        let booksPath = root + "/META-INF/books.xml"
        guard let booksData = FileManager.default.contents(atPath: booksPath) else {
            throw LecternError(.unreadable, display, "cannot read META-INF/books.xml")
        }
        let books = try MarkupDocument.xml(booksData, name: "META-INF/books.xml")
        var seen = Set<String>()
        let entries = (books.root?.all(where: { $0.name == "book" }) ?? []).compactMap { book -> BookEntry? in
            guard let href = book.attribute("href"), !href.isEmpty else { return nil }
            let file = href.split(separator: "/").last.map(String.init) ?? href
            let slug = book.attribute("slug").flatMap { $0.isEmpty ? nil : $0 }
                ?? file.replacingOccurrences(of: ".collection.xml", with: "")
            return seen.insert(slug).inserted ? BookEntry(slug: slug, href: href) : nil
        }
        guard !entries.isEmpty else { throw LecternError(.corrupt, display, "META-INF/books.xml names no book") }
        return entries
    }

    /// One book of books.xml → its collection → its title, metadata and chapter tree.
    func readBook(root: String, entry: BookEntry, display: String) throws -> Book {
        let href = entry.href
        let collectionPath = URL(fileURLWithPath: root + "/META-INF/").appendingPathComponent(href).standardized.path
        guard collectionPath.hasPrefix(URL(fileURLWithPath: root).standardized.path + "/") else {
            throw LecternError(.corrupt, display, "META-INF/books.xml points outside the book folder: \(href)")
        }
        guard let collectionData = FileManager.default.contents(atPath: collectionPath) else {
            throw LecternError(.notFound, display, "the collection \(href) named in META-INF/books.xml is missing")
        }
        let collection = try MarkupDocument.xml(collectionData, name: href)
        guard let top = collection.root else { throw LecternError(.corrupt, display, "empty collection \(href)") }
        let meta = top.child("metadata")
        var metadata: [String: String] = [:]
        for key in ["title", "slug", "language", "uuid", "license"] {
            if let value = meta?.child(key).map({ TextCleanup.collapseWhitespace($0.text) }), !value.isEmpty { metadata[key] = value }
        }
        if let url = meta?.child("license")?.attribute("url") { metadata["license_url"] = url }
        let slug = metadata["slug"] ?? entry.slug
        metadata["slug"] = slug
        metadata["url"] = "https://openstax.org/details/books/\(slug)"
        let title = metadata.removeValue(forKey: "title") ?? slug

        func items(_ content: MarkupNode?) -> [Item] {
            guard let content else { return [] }
            return content.elementChildren.compactMap { child in
                switch child.name {
                case "module":
                    return child.attribute("document").map { Item.module($0) }
                case "subcollection":
                    let title = TextCleanup.collapseWhitespace(child.child("title")?.text ?? "")
                    return .chapter(title.isEmpty ? "Untitled" : title, items(child.child("content")))
                default:
                    return nil
                }
            }
        }
        return Book(title: title, slug: slug, metadata: metadata, items: items(top.child("content")))
    }
}
