import Lectern
import MCP

/// The tools `lectern mcp` offers, each with a JSON schema for its input and its output.
enum MCPTools {
    static let largestK = 100
    static var names: [String] { ["search", "context", "curriculum", "topic", "cards", "ingest"] }

    static func all(scope: IngestScope?) -> [Tool] {
        [search, context, curriculum, topic, cards, ingest(scope: scope)]
    }

    static let cards = Tool(
        name: "cards",
        title: "A topic's flashcards",
        description: "The flashcards of one curriculum topic (made by `lectern cards generate`): front, back, note type and the passage each cites.",
        inputSchema: [
            "type": "object",
            "properties": [
                "topic": ["type": "string", "minLength": 4, "description": "The topic's id (or its first 4+ characters)."],
                "curriculum": ["type": "string", "description": "The curriculum, when ids could be ambiguous."],
            ],
            "required": ["topic"],
            "additionalProperties": false,
        ],
        annotations: .init(readOnlyHint: true, openWorldHint: false),
        outputSchema: [
            "type": "object",
            "properties": [
                "curriculum": ["type": "string"], "topic": ["type": "string"], "title": ["type": "string"], "note": ["type": "string"],
                "cards": ["type": "array", "items": [
                    "type": "object",
                    "properties": [
                        "guid": ["type": "string"], "curriculum": ["type": "string"], "topic": ["type": "string"],
                        "deck": ["type": "string"], "noteType": ["type": "string"], "origin": ["type": "string"],
                        "front": ["type": "string"], "back": ["type": "string"], "source": ["type": "string"],
                        "passageId": ["type": "integer"], "ref": ["type": "string"], "page": ["type": "integer"], "pageLabel": ["type": "string"],
                        "time": ["type": "number"],
                    ],
                    "required": ["guid", "noteType", "front", "back", "source", "passageId"],
                ]],
            ],
            "required": ["curriculum", "topic", "title", "cards"],
        ]
    )

    static let curriculum = Tool(
        name: "curriculum",
        title: "Curricula",
        description: """
            Without a name: the library's curricula (built with `lectern curriculum build`). With one:             its units and topics in reading order, each topic with its id, objectives, key terms,             prerequisites, sources and study time.
            """,
        inputSchema: [
            "type": "object",
            "properties": ["name": ["type": "string", "description": "A curriculum's name, as the list gives it."]],
            "additionalProperties": false,
        ],
        annotations: .init(readOnlyHint: true, openWorldHint: false),
        outputSchema: [
            "type": "object",
            "properties": [
                "curricula": ["type": "array", "items": [
                    "type": "object",
                    "properties": ["name": ["type": "string"], "title": ["type": "string"], "units": ["type": "integer"],
                                   "topics": ["type": "integer"], "updated": ["type": "string"]],
                    "required": ["name", "title", "units", "topics"],
                ]],
                "name": ["type": "string"], "title": ["type": "string"],
                "units": ["type": "array", "items": [
                    "type": "object",
                    "properties": [
                        "id": ["type": "string"], "title": ["type": "string"],
                        "topics": ["type": "array", "items": [
                            "type": "object",
                            "properties": [
                                "id": ["type": "string"], "title": ["type": "string"], "studyMinutes": ["type": "integer"],
                                "objectives": ["type": "array", "items": ["type": "string"]],
                                "keyTerms": ["type": "array", "items": ["type": "string"]],
                                "prerequisites": ["type": "array", "items": ["type": "string"]],
                                "sources": ["type": "array", "items": ["type": "string"]],
                                "passages": ["type": "integer"],
                            ],
                            "required": ["id", "title", "objectives"],
                        ]],
                    ],
                    "required": ["id", "title", "topics"],
                ]],
            ],
        ]
    )

    static let topic = Tool(
        name: "topic",
        title: "One topic",
        description: """
            One curriculum topic as a tutor needs it: its place in the course, objectives, what it             builds on and what comes next, key terms and summary, then its passages (and its             prerequisites'), cited, within a token budget.
            """,
        inputSchema: [
            "type": "object",
            "properties": [
                "id": ["type": "string", "minLength": 4, "description": "The topic's id (or its first 4+ characters)."],
                "curriculum": ["type": "string", "description": "The curriculum, when ids could be ambiguous."],
                "budget": ["type": "integer", "minimum": .int(ContextRequest.smallestBudget),
                           "description": "Tokens the answer may take (default \(ContextRequest.defaultBudget))."],
            ],
            "required": ["id"],
            "additionalProperties": false,
        ],
        annotations: .init(readOnlyHint: true, openWorldHint: false),
        outputSchema: contextSchema
    )

    static let filterProperties: [String: Value] = [
        "source": ["type": "array", "items": ["type": "string"],
                   "description": "Only these sources: paths, folders, URIs or document ids."],
        "type": ["type": "array", "items": ["type": "string"],
                 "description": "Only documents of these types: markdown, text, pdf, srt, vtt, html …"],
    ]

    static let search = Tool(
        name: "search",
        title: "Search the study library",
        description: """
            Hybrid search (BM25 keywords and embedding similarity) over the library's passages. \
            Each hit says where it comes from: document, section, page or time in a recording, link.
            """,
        inputSchema: [
            "type": "object",
            "properties": .object([
                "query": ["type": "string", "minLength": 1,
                          "description": "Words, \"a phrase\", -word to leave out passages with it."],
                "k": ["type": "integer", "minimum": 1, "maximum": .int(largestK), "description": "How many hits (default 10)."],
                "mode": ["type": "string", "enum": ["hybrid", "keyword", "semantic"], "description": "Default hybrid."],
            ].merging(filterProperties) { $1 }),
            "required": ["query"],
            "additionalProperties": false,
        ],
        annotations: .init(readOnlyHint: true, openWorldHint: false),
        outputSchema: [
            "type": "object",
            "properties": [
                "hits": ["type": "array", "items": hitSchema],
                "note": ["type": "string"],
            ],
            "required": ["hits"],
        ]
    )

    static let hitSchema: Value = [
        "type": "object",
        "properties": [
            "rank": ["type": "integer"], "score": ["type": "number"],
            "passageId": ["type": "integer"], "ref": ["type": "string"], "documentId": ["type": "string"],
            "title": ["type": "string"], "sectionPath": ["type": "array", "items": ["type": "string"]],
            "location": ["type": "string"], "uri": ["type": "string"], "path": ["type": "string"],
            "type": ["type": "string"], "kind": ["type": "string"],
            "pageStart": ["type": "integer"], "pageEnd": ["type": "integer"], "pageLabel": ["type": "string"],
            "timeStart": ["type": "number"], "timeEnd": ["type": "number"], "time": ["type": "number"],
            "speaker": ["type": "string"], "snippet": ["type": "string"],
            "highlights": ["type": "array", "items": ["type": "array", "items": ["type": "integer"]]],
            "text": ["type": "string"], "keywordRank": ["type": "integer"], "semanticRank": ["type": "integer"],
            "link": ["type": "string"],
        ],
        "required": ["rank", "score", "passageId", "documentId", "title", "location", "uri", "type", "snippet", "text"],
    ]

    static let context = Tool(
        name: "context",
        title: "Tutoring context",
        description: """
            What a tutor needs for a question or a curriculum topic, as Markdown within a token \
            budget: the topic's place in its course, objectives, prerequisites and key terms (when \
            the library has curricula), then the passages that teach it, most useful first, each \
            cited with its document and page or time, never cut inside a sentence.
            """,
        inputSchema: [
            "type": "object",
            "properties": .object([
                "query": ["type": "string", "description": "The question or subject at hand."],
                "topic": ["type": "string", "description": "A topic's id (from the curriculum tool)."],
                "curriculum": ["type": "string", "description": "Only this curriculum's topics."],
                "budget": ["type": "integer", "minimum": .int(ContextRequest.smallestBudget),
                           "description": "Tokens the context may take (default \(ContextRequest.defaultBudget))."],
            ].merging(filterProperties) { $1 }),
            "additionalProperties": false,
        ],
        annotations: .init(readOnlyHint: true, openWorldHint: false),
        outputSchema: contextSchema
    )

    static let linkSchema: Value = [
        "type": "object",
        "properties": ["id": ["type": "string"], "title": ["type": "string"], "term": ["type": "string"], "reference": ["type": "string"]],
        "required": ["id", "title"],
    ]

    static let contextSchema: Value = [
        "type": "object",
        "properties": [
            "query": ["type": "string"],
            "topic": [
                "type": "object",
                "properties": [
                    "id": ["type": "string"], "title": ["type": "string"], "curriculum": ["type": "string"],
                    "curriculumTitle": ["type": "string"], "unit": ["type": "string"],
                    "position": ["type": "integer"], "topicCount": ["type": "integer"], "studyMinutes": ["type": "integer"],
                    "objectives": ["type": "array", "items": ["type": "string"]],
                    "prerequisites": ["type": "array", "items": linkSchema],
                    "next": ["type": "array", "items": linkSchema],
                    "keyTerms": ["type": "array", "items": [
                        "type": "object",
                        "properties": ["term": ["type": "string"], "definition": ["type": "string"]],
                        "required": ["term", "definition"],
                    ]],
                    "summary": ["type": "string"],
                ],
                "required": ["id", "title", "curriculum", "unit", "position", "topicCount", "objectives", "prerequisites", "next", "keyTerms"],
            ],
            "passages": ["type": "array", "items": [
                "type": "object",
                "properties": [
                    "passage": ["type": "string"], "documentId": ["type": "string"], "title": ["type": "string"],
                    "location": ["type": "string"], "page": ["type": "integer"], "pageLabel": ["type": "string"],
                    "time": ["type": "number"], "uri": ["type": "string"], "link": ["type": "string"],
                    "from": ["type": "string", "enum": ["topic", "prerequisite", "search"]],
                    "text": ["type": "string"], "complete": ["type": "boolean"],
                ],
                "required": ["passage", "documentId", "title", "location", "uri", "from", "text", "complete"],
            ]],
            "budget": ["type": "integer"], "tokens": ["type": "integer"], "counter": ["type": "string"],
            "omittedPassages": ["type": "integer"],
        ],
        "required": ["passages", "budget", "tokens", "counter", "omittedPassages"],
    ]

    /// What the tool may read, said exactly: the client (and the person who set the server up)
    /// sees the folders and whether web sources are on.
    static func ingestDescription(_ scope: IngestScope?) -> String {
        guard let scope else {
            return "Adds sources to the library, as `lectern ingest` does. Off: this server was started without --allow-ingest or --allow-urls, so it only reads."
        }
        let files = scope.folders.isEmpty ? "No files (the server was started without --allow-ingest DIR)."
            : "Files, folders and globs under these folders only (symbolic links and .. resolved; anything else is refused): \(scope.described)."
        let web = scope.allowsWeb
            ? " Web sources are on (--allow-urls): http(s) URLs and wikipedia:TITLE, openstax:SLUG, ocw:COURSE specs, fetched from any host the server's machine reaches."
            : " Web sources (URLs, wikipedia:, openstax:, ocw:) are off (the server was started without --allow-urls)."
        return "Reads sources into the library, as `lectern ingest` does. " + files + web
    }

    static func ingest(scope: IngestScope?) -> Tool {
        Tool(
            name: "ingest",
            title: "Add sources to the library",
            description: ingestDescription(scope),
            inputSchema: [
                "type": "object",
                "properties": [
                    "paths": ["type": "array", "items": ["type": "string"], "minItems": 1,
                              "description": "What to read: files, folders or globs under the allowed folders (relative paths are relative to the server's folder), or web sources when they are on."],
                ],
                "required": ["paths"],
                "additionalProperties": false,
            ],
            annotations: .init(readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true),
            outputSchema: [
                "type": "object",
                "properties": [
                    "summary": [
                        "type": "object",
                        "properties": [
                            "stored": ["type": "integer"], "unchanged": ["type": "integer"], "failed": ["type": "integer"],
                            "warnings": ["type": "integer"], "passages": ["type": "integer"],
                        ],
                        "required": ["stored", "unchanged", "failed", "passages"],
                    ],
                    "problems": ["type": "array", "items": ["type": "string"]],
                ],
                "required": ["summary", "problems"],
            ]
        )
    }
}
