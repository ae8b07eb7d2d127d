# Two commands do all the set-up on a fresh machine (see README):
#   make run    set up, index seeds/, answer a sample question, then serve the chat UI
#               on http://127.0.0.1:7860 (offline)
#   make test   set up, run every test, then the eval gate
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

# torch is installed first and pinned: here 2.13.0 resolves to the CPU wheel on disk;
# unpinned, sentence-transformers pulls a multi-GB CUDA build.
$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet torch==2.13.0
	$(VENV)/bin/pip install --quiet -e ".[dev]"
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/assistant ingest
	$(VENV)/bin/assistant ask "How many Syrian fighters left Raqqa?"
	$(PY) app.py

test: $(STAMP)
	$(PY) -m pytest
	$(PY) -m evals

.PHONY: setup run test
