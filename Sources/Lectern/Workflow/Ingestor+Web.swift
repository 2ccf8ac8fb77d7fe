import Foundation

extension Ingestor {
    /// A URL or a web spec: fetched (politely, conditionally), then read like a saved file.
    /// A 304 to a conditional GET means the stored document is current: nothing is read or written.
    /// The GET is only conditional when the stored document was read the way this run would read
    /// it (same reader version, chunk settings and embedder), so a reader upgrade is never hidden.
    func ingestRemote(_ spec: SourceSpec, fetcher: WebFetcher, recorder: RunRecorder?, events: EventHandler) throws -> [Outcome] {
        switch spec {
        case .url, .wikipedia:
            let url = webSources.url(of: spec)
            // Fetched with its credentials, recorded without them.
            let recorded = Redaction.url(url)
            // Validators only count when the document they describe is still in the library and
            // would be stored the same way again from the same bytes.
            let stored = try store.document(uri: recorded)
            let cached = stored.map(isCurrent) == true ? try store.fetchCache(url: recorded) : nil
            switch try fetcher.fetch(url, cached: cached) {
            case .notModified:
                return [.unchanged]
            case .fetched(let response, let entry):
                if response.body.isEmpty { throw LecternError(.empty, spec.display, "the server sent an empty body") }
                let input = SourceInput(uri: recorded, data: response.body, contentType: entry.contentType, options: options)
                let outcomes = try ingestInput(input, display: spec.display, storedPath: nil, sourceKind: .url,
                                               recorder: recorder, events: events)
                try store.recordFetch(entry)
                return outcomes
            }
        case .ocw(let home):
            let folder = try TemporaryDownload()
            let crawl = try OCWCourseCrawler(fetcher: fetcher).download(home: home, into: folder.path)
            for skipped in crawl.skipped {
                recorder?.fail(input: spec.display, stage: "fetch", reason: skipped, warning: true)
                events(PipelineEvent(.warning, input: spec.display, message: skipped))
            }
            events(PipelineEvent(.progress, input: spec.display, message: "fetched \(crawl.pages) course pages"))
            let input = SourceInput(uri: Redaction.url(home), path: folder.path, isDirectory: true, options: options)
            return try ingestInput(input, display: spec.display, storedPath: nil, sourceKind: .url, recorder: recorder, events: events)
        case .openstax(let slug):
            // The source repository's ZIP: unpacked and read as the book folder it holds. In a
            // bundle of several books only the one named is read.
            let url = openstax.archiveURL(repository: openstaxRepository(slug, fetcher: fetcher, display: spec.display, events: events))
            // Conditional like a page, when the book stored from this archive is current: an
            // unchanged book is not downloaded again every night.
            let recorded = Redaction.url(url)
            let stored = try store.document(uri: recorded + "#" + slug) ?? store.document(uri: recorded)
            let cached = stored.map(isCurrent) == true ? try store.fetchCache(url: recorded) : nil
            switch try fetcher.fetch(url, cached: cached) {
            case .fetched(let response, let entry):
                guard ArchiveSource.isZip(response.body) else {
                    throw LecternError(.unsupported, spec.display, "\(Redaction.url(url)) did not answer with a ZIP archive")
                }
                let input = SourceInput(uri: recorded, data: response.body, options: options)
                let outcomes = try ingestInput(input, display: spec.display, storedPath: nil, sourceKind: .url, part: slug,
                                               recorder: recorder, events: events)
                try store.recordFetch(entry)
                return outcomes
            case .notModified:
                return [.unchanged]
            }
        }
    }
}

extension Ingestor {
    /// The repository OpenStax's approved book list names for `slug`; when the list cannot be
    /// read (a warning says why) or does not name the book, the usual `osbooks-<slug>` guess.
    func openstaxRepository(_ slug: String, fetcher: WebFetcher, display: String, events: EventHandler) -> String {
        let guess = SourceSpec.openstaxRepository(slug)
        guard !openstax.bookList.isEmpty else { return guess }
        do {
            return try OpenStaxBookList.fetch(openstax.bookList, fetcher: fetcher).repository(for: slug) ?? guess
        } catch {
            events(PipelineEvent(.warning, input: display, message: "cannot read OpenStax's book list (\(error)); trying \(guess)"))
            return guess
        }
    }

    /// Whether `document` has the skip key this run would give the same bytes: the reader that
    /// stored it, at its current version, with the current chunk settings and embedder.
    func isCurrent(_ document: StoredDocument) -> Bool {
        // The key holds the reader's version: a newer reader gives another key.
        guard let reader = registry.reader(named: document.extractor) else { return false }
        return skipKey(contentHash: document.contentHash, reader: reader) == document.skipKey
    }
}
