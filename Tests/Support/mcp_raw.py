#!/usr/bin/env python3
"""Speaks raw JSON-RPC lines to `lectern mcp` over stdio, as a broken or hostile client would.

Usage: mcp_raw.py LECTERN_BINARY [--big-bytes N]
Starts the server in the current folder (the environment names the library), initialises it,
then sends, each followed by a `tools/list` request that must still be answered:
  nameNull     tools/call with "name": null
  paramsNull   tools/call with "params": null
  objectId     a request whose id is an object
  arrayId      a request whose id is an array
  notJSON      a line that is not JSON
  tooLong      a tools/call line of --big-bytes bytes (default 6 MiB), written in one go
Prints one JSON report on stdout: for each case, the answers that arrived before the next
request's answer, and whether that answer arrived; and the server's stderr.
"""
import argparse
import json
import os
import subprocess
import sys
import threading


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--big-bytes", type=int, default=6 << 20)
    args = parser.parse_args()

    server = subprocess.Popen([args.binary, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, cwd=os.getcwd())
    stderr = []
    reader = threading.Thread(target=lambda: stderr.append(server.stderr.read()), daemon=True)
    reader.start()

    def send(line):
        server.stdin.write(line + b"\n")
        server.stdin.flush()

    def answer():
        line = server.stdout.readline()
        if not line:
            raise RuntimeError("the server closed its output")
        return json.loads(line)

    send(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                     "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                "clientInfo": {"name": "mcp_raw", "version": "1"}}}).encode())
    report = {"initialize": answer()}
    send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')

    query = b"a" * args.big_bytes
    cases = {
        "nameNull": json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                "params": {"name": None, "arguments": {}}}).encode(),
        "paramsNull": json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": None}).encode(),
        "objectId": json.dumps({"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}).encode(),
        "arrayId": json.dumps({"jsonrpc": "2.0", "id": [3], "method": "tools/list"}).encode(),
        "notJSON": b'{"jsonrpc": "2.0", "id": 4, "method": ',
        "tooLong": b'{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search","arguments":{"query":"'
                   + query + b'"}}}',
    }
    report["cases"] = {}
    for number, (case, line) in enumerate(cases.items()):
        follow_id = 100 + number
        send(line)
        send(json.dumps({"jsonrpc": "2.0", "id": follow_id, "method": "tools/list"}).encode())
        answers, followed = [], False
        # Answers may come in either order; stop at the follow-up's, then take one more line
        # only if the case's own answer has not come yet (a case the server does not answer
        # would otherwise block here: the follow-up arriving first with nothing before it).
        while True:
            message = answer()
            if message.get("id") == follow_id:
                followed = "tools" in message.get("result", {})
                break
            answers.append(message)
        if not answers:
            send(json.dumps({"jsonrpc": "2.0", "id": 900 + number, "method": "ping"}).encode())
            while True:
                message = answer()
                if message.get("id") == 900 + number:
                    break
                answers.append(message)
        report["cases"][case] = {"answers": answers, "servingAfter": followed}

    server.stdin.close()
    server.wait(timeout=60)
    reader.join(timeout=10)
    report["exitStatus"] = server.returncode
    report["serverStderr"] = b"".join(stderr).decode(errors="replace")
    json.dump(report, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
