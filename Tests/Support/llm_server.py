#!/usr/bin/env python3
"""Starts llama.cpp's server (the xllamacpp wheel) on 127.0.0.1 for Lectern's real-model tests.

Usage: .venv-llama/bin/python llm_server.py MODEL.gguf [CONTEXT_TOKENS]

Prints the port once /health answers, then serves until its standard input closes (the test
process ended) or it is terminated. Gemma 3 270M is a base model without a chat template, so
a simple Gemma turn template is given (use_jinja); the server enforces response_format JSON
schemas as grammars.
"""
import socket
import sys
import time
import urllib.request

import xllamacpp

GEMMA_TEMPLATE = (
    "{{ bos_token }}{% for m in messages %}<start_of_turn>"
    "{% if m['role'] == 'assistant' %}model{% else %}user{% endif %}\n"
    "{{ m['content'] }}<end_of_turn>\n{% endfor %}"
    "{% if add_generation_prompt %}<start_of_turn>model\n{% endif %}"
)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    model = sys.argv[1]
    context = int(sys.argv[2]) if len(sys.argv) > 2 else 2048
    port = free_port()
    params = xllamacpp.CommonParams()
    params.model.path = model
    params.model_alias = {"gemma-3-270m"}  # a set of names: the one answers carry, as a hosted API names its model
    params.hostnames = ["127.0.0.1"]
    params.port = port
    params.n_ctx = context
    params.n_parallel = 1
    params.use_jinja = True
    params.chat_template = GEMMA_TEMPLATE
    params.endpoint_metrics = True
    # One thread: make test runs this beside another test class on two cores, where a second
    # thread waits for a core at every step of a token and spins while it waits. A 599-token
    # prompt and 200 tokens on the loaded machine (load 15): 13.5 s of CPU with one thread,
    # 97.5 s with two.
    params.cpuparams.n_threads = 1
    params.cpuparams_batch.n_threads = 1
    server = xllamacpp.Server(params)  # serves from its own threads while this object lives
    deadline = time.time() + 300
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5) as answer:
                if answer.status == 200:
                    break
        except OSError:
            time.sleep(0.2)
    else:
        sys.exit("llm_server.py: the server did not become healthy within 300 s")
    print(port, flush=True)
    try:
        sys.stdin.read()
    except KeyboardInterrupt:
        pass
    del server


if __name__ == "__main__":
    main()
