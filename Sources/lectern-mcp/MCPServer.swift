import Lectern
import MCP

/// Wires the library to the protocol: the tools, the resources, stdio.
enum MCPServer {
    static func serve(_ library: MCPLibrary) async throws {
        let server = Server(
            name: "lectern",
            version: Lectern.version,
            title: "Lectern study library",
            instructions: """
                A study library: learning material (books, lecture transcripts, notes, web pages) cut \
                into cited passages. Use `context` for what to teach from on a question or topic, \
                `search` for passages with their sources.
                """,
            capabilities: .init(resources: .init(subscribe: false, listChanged: false), tools: .init(listChanged: false))
        )
        let scope = library.scope
        await server.withCheckedMethodHandler(ListTools.self) { _ in
            ListTools.Result(tools: MCPTools.all(scope: scope))
        }
        await server.withCheckedMethodHandler(CallTool.self) { params in
            await library.call(params.name, params.arguments)
        }
        await server.withCheckedMethodHandler(ListResources.self) { params in
            try await library.resources(cursor: params.cursor)
        }
        await server.withCheckedMethodHandler(ListResourceTemplates.self) { _ in
            ListResourceTemplates.Result(templates: [
                Resource.Template(uriTemplate: MCPLibrary.syllabusTemplate, name: "Curriculum syllabus",
                                  description: "A curriculum as a readable syllabus (NAME: as the curriculum tool lists it).",
                                  mimeType: "text/markdown"),
                Resource.Template(uriTemplate: MCPLibrary.umcfTemplate, name: "Curriculum in UMCF",
                                  description: "A curriculum in UMCF, the UnaMentis tutoring app's format.", mimeType: "application/json"),
                Resource.Template(uriTemplate: MCPLibrary.outlineTemplate, name: "Document outline",
                                  description: "A document's table of contents, with pages or times (ID: its short id).",
                                  mimeType: "text/markdown"),
            ])
        }
        await server.withCheckedMethodHandler(ReadResource.self) { params in
            try await library.read(params.uri)
        }
        try await server.start(transport: MCPStdioTransport { call in await library.respond(to: call) })
        await server.waitUntilCompleted()
    }
}
