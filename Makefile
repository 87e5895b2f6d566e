# A fresh clone needs nothing but `make` (main job) and `make test` (the test suite).
# Targets create .venv themselves and install the project into it.
VENV    := .venv
PY      := $(VENV)/bin/python
BALANCE := $(VENV)/bin/balance
STAMP   := $(VENV)/.installed-stamp

.PHONY: all main test lint bench clean

all: main

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

# The main job: check both editions' reference content, then play and print one game.
main: $(STAMP)
	$(BALANCE) validate gemrush-1e gemrush-2e
	$(BALANCE) play --edition 2e --mode crisis --players 3 --seed 7

test: $(STAMP)
	$(PY) -m pytest -q -n 2

lint: $(STAMP)
	$(VENV)/bin/ruff check .

bench: $(STAMP)
	$(BALANCE) bench

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
