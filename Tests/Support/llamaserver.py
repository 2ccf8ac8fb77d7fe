#!/usr/bin/env python3
"""A real llama.cpp server (xllamacpp) on 127.0.0.1 for the tests, serving embeddings.

Usage: llamaserver.py MODEL.gguf [--api-key KEY] [--alias NAME]
Prints the port as its first line, then serves until stdin closes or it is terminated.
Embeddings are mean-pooled (`pooling_type` MEAN), as OpenAI-compatible clients expect.
"""
import argparse
import signal
import socket
import sys
import time
import urllib.request


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("--api-key")
    parser.add_argument("--alias", default="gemma3-270m")
    args = parser.parse_args()
    import xllamacpp

    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    params = xllamacpp.CommonParams()
    params.model.path = args.model
    params.model_alias = {args.alias}  # a set of names (a bare string would be a set of its letters)
    params.embedding = True
    params.pooling_type = xllamacpp.llama_pooling_type.LLAMA_POOLING_TYPE_MEAN
    params.port = port
    params.n_ctx = 2048
    params.n_batch = 2048
    params.n_ubatch = 2048
    params.n_parallel = 1
    # One thread, as llm_server.py: beside another test class a second thread spins for a core.
    params.cpuparams.n_threads = 1
    params.cpuparams_batch.n_threads = 1
    if args.api_key:
        params.api_keys = [args.api_key]
    # llama.cpp logs to stderr; the test discards it.
    server = xllamacpp.Server(params)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1).read()
            break
        except Exception:
            time.sleep(0.1)
    print(port, flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        sys.stdin.read()
    finally:
        del server


if __name__ == "__main__":
    main()
