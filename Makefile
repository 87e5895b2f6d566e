# A fresh clone needs nothing but `make` (main job) and `make test` (the test suite).
# Targets create .venv themselves and install the project into it.
VENV    := .venv
PY      := $(VENV)/bin/python
BALANCE := $(VENV)/bin/balance
STAMP   := $(VENV)/.installed-stamp

.PHONY: all main report test lint bench clean

all: main

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

# The main job: check both editions' reference content, play the default experiments
# (2nd-edition Crisis for 1-7 players to exhaustion, Rush for 2-7 players) and write their
# report to runs/main/report/report.html. 10,000 games per player count keep the headline win
# rates within about +-1 point; a rerun reuses the games already played.
MAIN_RUNS  := runs/main
MAIN_GAMES := 10000

main: $(STAMP)
	$(BALANCE) validate gemrush-1e gemrush-2e
	$(BALANCE) run crisis-difficulty --games $(MAIN_GAMES) --out $(MAIN_RUNS)
	$(BALANCE) run rush --games $(MAIN_GAMES) --out $(MAIN_RUNS)
	$(BALANCE) report $(MAIN_RUNS)/crisis-difficulty $(MAIN_RUNS)/rush --out $(MAIN_RUNS)/report

report: main

test: $(STAMP)
	$(PY) -m pytest -q -n 2

lint: $(STAMP)
	$(VENV)/bin/ruff check .

bench: $(STAMP)
	$(BALANCE) bench

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
