#!/usr/bin/env python3
"""Drives `lectern mcp` with the official MCP Python SDK, as an assistant or IDE would.

Usage: mcp_client.py LECTERN_BINARY SCENARIO [--calls N] [--ingest PATH]... [--search QUERY]...
                     [--server-arg ARG]...
Runs the server (`lectern mcp` with the --server-arg arguments, such as --allow-ingest DIR) over
stdio in the current folder (the environment names the library, as LECTERN_DB), runs SCENARIO
(`serve`, or `ingest`: one ingest call per --ingest, then a search per --search) and prints one
JSON report on stdout of what the
client saw: tools, schemas, results, error results, memory and timings. The Swift test asserts on
it; every structured result is also checked here against its tool's output schema with jsonschema.
"""
import argparse
import asyncio
import json
import os
import statistics
import sys
import time

import jsonschema
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def rss_kib(pid):
    """VmRSS of `pid` in KiB, from /proc."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def server_pid(binary):
    """The pid of the server this process started (`lectern mcp` runs `lectern-mcp` in its place)."""
    me = os.getpid()
    names = {os.path.realpath(binary), os.path.join(os.path.dirname(os.path.realpath(binary)), "lectern-mcp")}
    for task in os.listdir(f"/proc/{me}/task"):
        with open(f"/proc/{me}/task/{task}/children") as children:
            for pid in children.read().split():
                try:
                    if os.readlink(f"/proc/{pid}/exe") in names:
                        return int(pid)
                except OSError:
                    pass
    raise RuntimeError("the lectern server process is not a child of this client")


def text_of(result):
    return "\n".join(block.text for block in result.content if getattr(block, "type", "") == "text")


class Observer:
    def __init__(self, session, tools):
        self.session = session
        self.schema_errors = []
        # Compiled once: compiling a schema costs far more than checking a result against it.
        self.validators = {tool.name: (jsonschema.Draft202012Validator(tool.input_schema),
                                       tool.output_schema and jsonschema.Draft202012Validator(tool.output_schema))
                           for tool in tools}

    async def call(self, name, arguments):
        """Calls a tool; a structured result is checked against the tool's output schema and the
        arguments of a call expected to succeed against its input schema."""
        result = await self.session.call_tool(name, arguments)
        if name in self.validators and not result.is_error:
            inputs, outputs = self.validators[name]
            for error in inputs.iter_errors(arguments):
                self.schema_errors.append(f"{name} input: {error.message}")
            if outputs:
                for error in outputs.iter_errors(result.structured_content):
                    self.schema_errors.append(f"{name} output: {error.message}")
        return {"isError": bool(result.is_error), "text": text_of(result), "structured": result.structured_content}


async def serve(args, session, observer, report):
    pid = server_pid(args.binary)
    tools = report["tools"]
    for name, tool in tools.items():
        for key in ("inputSchema", "outputSchema"):
            if tool[key] is not None:
                try:
                    jsonschema.Draft202012Validator.check_schema(tool[key])
                except jsonschema.SchemaError as error:
                    observer.schema_errors.append(f"{name} {key} is not a JSON schema: {error.message}")

    resources = await session.list_resources()
    report["resources"] = [{"uri": str(r.uri), "name": r.name, "mimeType": r.mime_type} for r in resources.resources]
    templates = await session.list_resource_templates()
    report["templates"] = [t.uri_template for t in templates.resource_templates]
    if resources.resources:
        read = await session.read_resource(resources.resources[0].uri)
        report["outline"] = read.contents[0].text
    try:
        await session.read_resource("lectern://document/ffffffff/outline")
        report["unknownResource"] = "no error"
    except Exception as error:  # the protocol's error, as the SDK raises it
        report["unknownResource"] = str(error)

    report["search"] = await observer.call("search", {"query": "light-dependent reactions chlorophyll", "k": 3})
    report["searchFiltered"] = await observer.call(
        "search", {"query": "limit approaches", "k": 5, "mode": "keyword", "type": ["srt"]})
    report["searchNothing"] = await observer.call("search", {"query": "photosynthesis", "source": ["nowhere/"]})
    report["context"] = await observer.call("context", {"query": "how do plants turn light into sugar?", "budget": 400})
    report["contextLarge"] = await observer.call("context", {"query": "how do plants turn light into sugar?", "budget": 3000})
    report["ingest"] = await observer.call("ingest", {"paths": ["notes.md"]})
    report["curricula"] = await observer.call("curriculum", {})
    report["curriculumTree"] = await observer.call("curriculum", {"name": "biology"})
    topics = [topic for unit in (report["curriculumTree"]["structured"] or {}).get("units", []) for topic in unit["topics"]]
    calvin = next((topic["id"] for topic in topics if topic["title"] == "The Calvin cycle"), None)
    report["topic"] = await observer.call("topic", {"id": calvin[:8] if calvin else "none", "budget": 500})
    report["cards"] = await observer.call("cards", {"topic": calvin or "none"})
    report["cardsNoTopic"] = await observer.call("cards", {"topic": "feedbeef"})
    curriculum_resources = [r for r in report["resources"] if r["uri"].startswith("lectern://curriculum/")]
    report["curriculumResources"] = {}
    for resource in curriculum_resources:
        read = await session.read_resource(resource["uri"])
        report["curriculumResources"][resource["uri"]] = read.contents[0].text
    report["contextTopic"] = await observer.call("context", {"topic": calvin or "none", "query": "what does rubisco do?", "budget": 1200})

    bad = {
        "negativeK": ("search", {"query": "entropy", "k": -1}),
        "missingQuery": ("search", {"k": 3}),
        "wrongMode": ("search", {"query": "entropy", "mode": "fuzzy"}),
        "unknownArgument": ("search", {"query": "entropy", "limit": 3}),
        "emptyQuery": ("search", {"query": "???"}),
        "unknownTopic": ("context", {"topic": "no-such-topic"}),
        "unknownCurriculum": ("curriculum", {"name": "geology"}),
        "topicWithoutId": ("topic", {"budget": 500}),
        "smallBudget": ("context", {"query": "entropy", "budget": 5}),
        "noQuestion": ("context", {}),
        "unknownTool": ("summon", {}),
    }
    report["errors"] = {}
    for case, (name, arguments) in bad.items():
        report["errors"][case] = await observer.call(name, arguments)
        # The server keeps serving after each.
        after = await observer.call("search", {"query": "chain rule", "k": 1})
        if after["isError"] or not after["structured"]["hits"]:
            report["errors"][case]["servingAfter"] = False
        else:
            report["errors"][case]["servingAfter"] = True

    # Warm: a few calls first, then `calls` more, with the server's memory before and after.
    queries = ["mitochondria", "derivative of a composite function", "printing press", "membrane transport",
               "genetics dominant allele", "limits", "osmosis", "Gutenberg"]
    for query in queries:
        await observer.call("search", {"query": query, "k": 5})
        await observer.call("context", {"query": query, "budget": 600})
    report["rssBeforeKiB"] = rss_kib(pid)
    latencies = {"search": [], "context": []}
    failures = 0
    for i in range(args.calls):
        name = "search" if i % 2 == 0 else "context"
        query = queries[i % len(queries)]
        arguments = {"query": query, "k": 5} if name == "search" else {"query": query, "budget": 600}
        start = time.perf_counter()
        result = await observer.call(name, arguments)
        latencies[name].append((time.perf_counter() - start) * 1000)
        failures += result["isError"]
    report["rssAfterKiB"] = rss_kib(pid)
    report["calls"] = args.calls
    report["callFailures"] = failures
    report["latencyMs"] = {name: {"p50": statistics.median(values), "p95": sorted(values)[int(len(values) * 0.95) - 1],
                                  "count": len(values)} for name, values in latencies.items() if values}


async def ingest(args, session, observer, report):
    report["ingests"] = [await observer.call("ingest", {"paths": [path]}) for path in args.ingest]
    report["ingest"] = report["ingests"][0]
    report["searchAfter"] = await observer.call("search", {"query": "zymurgy fermentation brewing", "k": 3})
    report["searches"] = [await observer.call("search", {"query": query, "k": 3, "mode": "keyword"}) for query in args.search]


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("scenario", choices=["serve", "ingest"])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--ingest", action="append", default=[])
    parser.add_argument("--search", action="append", default=[])
    parser.add_argument("--server-arg", action="append", default=[])
    args = parser.parse_args()

    env = {key: value for key, value in os.environ.items() if key.startswith("LECTERN_") or key.startswith("XDG_")}
    env["NO_COLOR"] = "1"
    server = StdioServerParameters(command=args.binary, args=["mcp"] + args.server_arg,
                                   env=env, cwd=os.getcwd())
    report = {}
    stderr_path = os.path.join(os.getcwd(), "mcp-server.stderr")
    with open(stderr_path, "w") as errlog:
        async with stdio_client(server, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                initialized = await session.initialize()
                report["server"] = {"name": initialized.server_info.name, "version": initialized.server_info.version,
                                    "protocolVersion": initialized.protocol_version}
                listed = await session.list_tools()
                report["tools"] = {tool.name: {"inputSchema": tool.input_schema, "outputSchema": tool.output_schema,
                                               "description": tool.description} for tool in listed.tools}
                observer = Observer(session, listed.tools)
                if args.scenario == "serve":
                    await serve(args, session, observer, report)
                else:
                    await ingest(args, session, observer, report)
                report["schemaErrors"] = observer.schema_errors
    with open(stderr_path) as errlog:
        report["serverStderr"] = errlog.read()
    json.dump(report, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    asyncio.run(main())
