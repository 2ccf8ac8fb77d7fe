#!/usr/bin/env python3
"""Times warm tool calls of `lectern mcp` over its stdio pipe, as a client sees them.

Usage: mcp_latency.py LECTERN_BINARY [--calls N] [--db FILE]
Speaks JSON-RPC directly (no SDK, so the figure is the server's and the pipe's), warms the server
with a few calls of each kind, then prints p50 and p95 in milliseconds of N calls per tool.
"""
import argparse
import json
import os
import subprocess
import time

QUERIES = ["how do plants make sugar from light", "chain rule for composite functions", "does glycolysis need oxygen",
           "what is a limit", "printing press and the reformation", "osmosis across a membrane", "dominant allele",
           "mean and median"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--db")
    args = parser.parse_args()
    command = [args.binary, "mcp"] + (["--db", args.db] if args.db else [])
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=os.environ)
    counter = iter(range(1, 1 << 30))

    def rpc(method, params):
        server.stdin.write((json.dumps({"jsonrpc": "2.0", "id": next(counter), "method": method, "params": params}) + "\n").encode())
        server.stdin.flush()
        return json.loads(server.stdout.readline())

    rpc("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "latency", "version": "1"}})
    server.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    server.stdin.flush()
    cases = {
        "search hybrid k=10": lambda q: ("search", {"query": q, "k": 10}),
        "search keyword k=10": lambda q: ("search", {"query": q, "k": 10, "mode": "keyword"}),
        "context budget=1000": lambda q: ("context", {"query": q, "budget": 1000}),
    }
    report = {}
    for label, make in cases.items():
        for query in QUERIES:  # warm: the model, the vectors, the tokenizer
            rpc("tools/call", dict(zip(("name", "arguments"), make(query))))
        times = []
        for i in range(args.calls):
            name, arguments = make(QUERIES[i % len(QUERIES)])
            started = time.perf_counter()
            answer = rpc("tools/call", {"name": name, "arguments": arguments})
            times.append((time.perf_counter() - started) * 1000)
            if answer.get("result", {}).get("isError"):
                raise SystemExit(f"{label}: {answer}")
        times.sort()
        report[label] = {"p50_ms": round(times[len(times) // 2], 2), "p95_ms": round(times[int(len(times) * 0.95) - 1], 2)}
    server.stdin.close()
    server.wait(timeout=10)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
