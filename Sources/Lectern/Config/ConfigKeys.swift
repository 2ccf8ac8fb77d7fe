import Foundation

extension ConfigKey {
    /// Every setting, in the order the README lists them. Adding a setting is adding a row here
    /// (and its field where the setting is used).
    static let all: [ConfigKey] = [
        ConfigKey("database", .path, environment: "LECTERN_DB",
                  help: "The library file (`--db`); default `$XDG_DATA_HOME/lectern/library.db`, else `~/.local/share/lectern/library.db`, whatever folder a command runs in.") { $0.database = $1.text },
        ConfigKey("embedder", .text, default: "minilm",
                  help: "The embedder a NEW library is built with: `minilm`, `minilm-int8` (MiniLM's products in int8: 1.6-2.2x faster with AVX2 or AVX-512, search within 0.004 nDCG@10 of float32's on 1,633 queries, vectors within a cosine of 0.997), `minilm-bf16`, `hashing`, `openai:<model>`, `ollama:<model>`; a library keeps its own.") {
            $0.embedder = $1.text
        },
        ConfigKey("models_dir", .path, environment: "LECTERN_MODELS",
                  help: "Where the MiniLM model files are (`make model` puts them there); default `$XDG_CACHE_HOME/lectern/models`, else `~/.cache/lectern/models`.") { $0.modelsDirectory = $1.text },

        ConfigKey("embedding.url", .url,
                  help: "The server of `openai:<model>` and `ollama:<model>`; default `https://api.openai.com/v1`, or `http://127.0.0.1:11434` for Ollama.") {
            $0.embedding.url = $1.optionalText
        },
        ConfigKey("embedding.api_key_env", .variableName,
                  help: "The NAME of the variable holding the embedding server's key (`OPENAI_API_KEY` for OpenAI's own API).") {
            $0.embedding.apiKeyEnv = $1.optionalText
        },
        ConfigKey("embedding.dimensions", .wholeNumber(atLeast: 1, atMost: 65_536),
                  help: "The server's vector size; without it one probe request finds it.") { $0.embedding.dimensions = $1.int },
        ConfigKey("embedding.batch", .wholeNumber(atLeast: 1, atMost: 4_096), default: "64",
                  help: "Texts sent in one request.") { $0.embedding.batch = $1.int },

        ConfigKey("chunk.max_tokens", .wholeNumber(atLeast: 1, atMost: 510), default: "254",
                  help: "Word pieces per passage at most.") { $0.chunk.maxTokens = $1.int },
        ConfigKey("chunk.overlap_tokens", .wholeNumber(atLeast: 0, atMost: 510), default: "32",
                  help: "Whole sentences repeated from the previous passage, about this many word pieces; less than `chunk.max_tokens`.") {
            $0.chunk.overlapTokens = $1.int
        },
        ConfigKey("chunk.min_tokens", .wholeNumber(atLeast: 0, atMost: 510), default: "48",
                  help: "Smaller sections may join a sibling under the same parent.") { $0.chunk.minTokens = $1.int },

        ConfigKey("ocr.mode", .choice(OCRSettings.Mode.allCases.map(\.rawValue)), default: "auto",
                  help: "PDF pages read with Tesseract: `auto` those without a usable text layer, `always` every page, `never` none (`--ocr`).") {
            $0.ocr.mode = OCRSettings.Mode(rawValue: $1.text) ?? .auto
        },
        ConfigKey("ocr.languages", .text, default: "eng",
                  help: "Tesseract's languages, joined by `+` (`eng+deu`; `--ocr-lang`); each needs its pack, `apt-get install tesseract-ocr-deu`.") {
            $0.ocrLanguages = $1.text
        },
        ConfigKey("ocr.max_pages", .wholeNumber(atLeast: 0, atMost: 100_000), default: "100",
                  help: "Pages of one document read with OCR at most; the others are named in a warning (`--ocr-pages`).") {
            $0.ocr.maxPages = $1.int
        },
        ConfigKey("ocr.jobs", .wholeNumber(atLeast: 0, atMost: 64), default: "0",
                  help: "Pages of one document read with OCR at once, each on a core (`--ocr-jobs`); 0: one per core, at most 4.") {
            $0.ocr.jobs = $1.int
        },

        ConfigKey("http.contact", .text,
                  help: "A URL or e-mail address for the User-Agent: `lectern/VERSION (+you@example.org)`.") { $0.http.contact = $1.optionalText },
        ConfigKey("http.connect_timeout", .number(atLeast: 0, atMost: 3_600), default: "10",
                  help: "Seconds to connect.") { $0.http.connectTimeout = $1.number },
        ConfigKey("http.timeout", .number(atLeast: 0, atMost: 3_600), default: "60",
                  help: "Seconds for a whole request, redirects included.") { $0.http.timeout = $1.number },
        ConfigKey("http.max_redirects", .wholeNumber(atLeast: 0, atMost: 20), default: "5",
                  help: "Redirects followed; with 0 a redirect comes back as the answer.") { $0.http.maxRedirects = $1.int },
        ConfigKey("http.retries", .wholeNumber(atLeast: 0, atMost: 20), default: "3",
                  help: "Retries after connection errors, 429 and 5xx (never after another 4xx).") { $0.http.maxRetries = $1.int },
        ConfigKey("http.retry_delay", .number(atLeast: 0, atMost: 600), default: "0.5",
                  help: "The first back-off in seconds, doubled each retry, with jitter.") { $0.http.retryBaseDelay = $1.number },
        ConfigKey("http.max_retry_delay", .number(atLeast: 0, atMost: 3_600), default: "30",
                  help: "The longest wait in seconds, whatever `Retry-After` asks for.") { $0.http.maxRetryDelay = $1.number },
        ConfigKey("http.max_response_mb", .wholeNumber(atLeast: 1, atMost: 4_096), default: "64",
                  help: "Larger bodies (after gzip decoding) are refused.") { $0.http.maxResponseBytes = $1.int << 20 },
        ConfigKey("http.host_interval", .number(atLeast: 0, atMost: 3_600), default: "1",
                  help: "Seconds between two requests to one host (web sources).") { $0.http.hostInterval = $1.number },

        ConfigKey("openstax.book_list", .url,
                  default: "https://raw.githubusercontent.com/openstax/content-manager-approved-books/main/approved-book-list.json",
                  help: "OpenStax's list of books and their repositories; `\"\"` skips it and guesses `osbooks-<slug>`.") {
            $0.openstax.bookList = $1.text
        },
        ConfigKey("openstax.archive", .urlTemplate(placeholder: "{repository}"), default: "https://api.github.com/repos/openstax/{repository}/zipball",
                  help: "Where a book's source archive is downloaded from.") { $0.openstax.archive = $1.text },

        ConfigKey("wikipedia.base_url", .url, default: "https://{language}.wikipedia.org/api/rest_v1/page/html/",
                  help: "Where `wikipedia:` articles are fetched from (Parsoid HTML); `{language}` is the article's language.") {
            $0.webSources.wikipediaBase = $1.optionalText ?? WebSourceSettings.defaultWikipediaBase
        },
        ConfigKey("ocw.base_url", .url, default: "https://ocw.mit.edu/courses/",
                  help: "Where `ocw:COURSE` specs find courses (`<base>COURSE/`).") {
            $0.webSources.ocwBase = $1.optionalText ?? WebSourceSettings.defaultOCWBase
        },

        ConfigKey("search.k", .wholeNumber(atLeast: 1, atMost: 10_000), default: "10",
                  help: "Passages `search` shows.") { $0.searchLimit = $1.int },
        ConfigKey("search.sidecar_vectors", .wholeNumber(atLeast: 0, atMost: 1_000_000_000), default: "50000",
                  help: "A library with at least this many vectors keeps their int8 codes in a cache file beside it (`LIBRARY-vectors`) that semantic search maps into memory; 0: never.") {
            $0.vectorSidecarMinimum = $1.int
        },

        ConfigKey("llm.provider", .choice(LLMSettings.providers),
                  help: "The language model for summaries and `ask`; none: offline extractive summaries, `ask` shows passages.") {
            $0.llm.provider = $1.optionalText
        },
        ConfigKey("llm.model", .text, help: "The model, as the provider names it.") { $0.llm.model = $1.optionalText },
        ConfigKey("llm.base_url", .url,
                  help: "Where the provider's API is; default its public API (Ollama: `http://127.0.0.1:11434`). A query in it (`?api-version=…`) stays after the endpoint's path.") { $0.llm.baseURL = $1.optionalText },
        ConfigKey("llm.api_key_env", .variableName,
                  help: "The NAME of the variable holding the key; default `OPENAI_API_KEY` or `ANTHROPIC_API_KEY` for their public APIs.") {
            $0.llm.apiKeyEnv = $1.optionalText
        },
        ConfigKey("llm.max_concurrency", .wholeNumber(atLeast: 1, atMost: 64), default: "2",
                  help: "Requests in flight at once to one provider.") { $0.llm.maxConcurrency = $1.int },
        ConfigKey("llm.context_tokens", .wholeNumber(atLeast: 1, atMost: 10_000_000),
                  help: "The model's context window; prompts are trimmed to fit. Default 8192 (Anthropic 200000, Ollama 4096).") {
            $0.llm.contextTokens = $1.int
        },
        ConfigKey("llm.max_tokens", .wholeNumber(atLeast: 1, atMost: 1_000_000), default: "512",
                  help: "The longest answer, in tokens.") { $0.llm.maxTokens = $1.int },
        ConfigKey("llm.temperature", .number(atLeast: 0, atMost: 2), default: "0",
                  help: "Sampling temperature.") { $0.llm.temperature = $1.number },
        ConfigKey("llm.timeout", .number(atLeast: 1, atMost: 3_600), default: "300",
                  help: "Seconds one call may take.") { $0.llm.timeout = $1.number },
        ConfigKey("llm.prices", .prices,
                  help: "US dollars per million tokens: `MODEL=INPUT/OUTPUT,…`, or a table `[llm.prices.\"MODEL\"]` with `input` and `output`.") {
            try $0.llm.addPrices($1)
        },
    ]
}

extension LLMSettings {
    /// `llm.prices = "m=0.15/0.6,…"` or, from a TOML table, `llm.prices."m".input = 0.15`.
    mutating func addPrices(_ assignment: ConfigAssignment) throws {
        guard assignment.key != "llm.prices" else {
            prices.merge(try ModelPrice.parseList(assignment.text)) { _, new in new }
            return
        }
        let rest = assignment.key.dropFirst("llm.prices.".count)
        guard let dot = rest.lastIndex(of: "."), ["input", "output"].contains(rest[rest.index(after: dot)...]) else {
            throw LecternError(.configuration, assignment.layer,
                               "\(assignment.key): prices are [llm.prices.\"MODEL\"] input = … output = … (dollars per million tokens)")
        }
        guard let number = Double(assignment.text) else {
            throw LecternError(.configuration, assignment.layer, "\(assignment.key) must be a number, not '\(assignment.text)'")
        }
        let model = String(rest[..<dot]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        var price = prices[model] ?? ModelPrice(input: 0, output: 0)
        if rest[rest.index(after: dot)...] == "input" { price.input = number } else { price.output = number }
        prices[model] = price
    }
}

extension ConfigKey {
    /// docs/configuration.md's table of every key, generated from `all` (a test keeps the page equal to it).
    static var markdownReference: String {
        var lines = ["| Key | Type | Default | Environment | What it sets |", "|---|---|---|---|---|"]
        for key in all {
            let cells = ["`\(key.name)`", key.type.summary, key.defaultValue.map { "`\($0)`" } ?? "—", "`\(key.environmentVariable)`", key.help]
            lines.append("| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }
}
