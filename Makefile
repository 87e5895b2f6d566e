# A fresh clone needs nothing but `make` (main job) and `make test` (the test suite).
# Targets create .venv themselves and install the project into it.
VENV    := .venv
PY      := $(VENV)/bin/python
BALANCE := $(VENV)/bin/balance
STAMP   := $(VENV)/.installed-stamp

.PHONY: all main rusship gem_mountain gem_runner report test lint bench docs clean

all: main

# The distribution was named gemrush-balance before it served several games: an install of
# that name would stay beside boardgame-balance, and runs would record both.
# pip byte-compiles what it installs one file at a time, about half of its CPU time (25 of 47
# s); compileall does it on every core and leaves out the packages' own test suites (a third
# of the files, never imported). The bytecode itself is needed: where PYTHONDONTWRITEBYTECODE
# is set (our CI's machines), a module without it is compiled again by every process. As with
# pip, a file that does not compile (one written for another Python) is left without it.
$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip uninstall --quiet --yes gemrush-balance 2>/dev/null || true
	$(PY) -m pip install --quiet --no-compile -e ".[dev]"
	$(PY) -m compileall -qq -j 0 -x '/site-packages/([^/]+/)*tests?/' $(VENV)/lib || true
	touch $(STAMP)

# The main job: check both editions' reference content, play the default experiments
# (2nd-edition Crisis for 1-7 players to exhaustion by greedy and by the learned player, Rush
# for 2-7 players, 4-player Crisis by greedy, the learned player and the search-based
# reference player, each skill against No Skills, and the six skill variants; the 2nd edition
# plays with skills, dealt as the Normal variant) and write their report to
# runs/main/report/report.html. 10,000 games per player count keep the headline win rates
# within about +-1 point; the reference is slow, so it plays 200. Both fast players play the
# full count, so that the headline comes from the stronger of them where it is clearly
# stronger (the report says which; the learned player's 70,000 games add about half a minute
# on 2 cores). A rerun reuses the games already played.
# Games played by other code cannot be mixed with this code's (a run's identity includes the
# hash of the engine and player sources, and of the data files they read: content, profiles,
# learned weights, Rusship's rules.toml), so each version of the code plays into its own
# folder, and a rerun with the same code reuses its games. Expanded when the recipe runs,
# after the venv exists. Once the report is written, runs/main/latest is pointed at that
# folder (balance/running/latest.py): a stable path to the latest main job's runs.
CODE = $(shell $(PY) -c "import balance.running.provenance as p; print(p.source_hash('gemrush'))")
MAIN_RUNS = runs/main/$(CODE)
MAIN_GAMES := 10000
PLAYER_GAMES := 200
SKILL_GAMES := 2000

# Each stage says, as it starts, which of the job's stages it is, what it plays and how many
# games, and how long `make` has run: its time depends on the cores free and on whether the
# engines are compiled yet (README, Set up and run), and a designer should see which stage
# the minutes go to. $(call stage,K,OF,TEXT): stage K of OF (a sub-make shifts K by
# STAGE_BASE and names the whole job's count in STAGE_TOTAL); a comma in TEXT is $(comma).
# tests/test_makefile.py checks the variant counts against the experiments.
MAKE_START := $(shell date +%s)
comma := ,
STAGE_BASE ?= 0
define stage
@printf '\n== make: stage %d of %d, %d s in: %s ==\n' $$(($(STAGE_BASE) + $(1))) \
	$(or $(STAGE_TOTAL),$(2)) $$(($$(date +%s) - $(MAKE_START))) "$(3)"
endef

main: $(STAMP)
	$(call stage,1,19,check both editions' content (no games))
	$(BALANCE) validate gemrush-1e gemrush-2e
	$(call stage,2,19,crisis-difficulty: 2nd-edition Crisis by greedy for 1 to 7 players; 7 variants x $(MAIN_GAMES) games (the first also compiles the engine if its cache is cold))
	$(BALANCE) run crisis-difficulty --games $(MAIN_GAMES) --out $(MAIN_RUNS)
	$(call stage,3,19,crisis-learned: the same by the learned player; 7 variants x $(MAIN_GAMES) games)
	$(BALANCE) run crisis-learned --games $(MAIN_GAMES) --out $(MAIN_RUNS)
	$(call stage,4,19,rush: Rush by greedy for 2 to 7 players; 6 variants x $(MAIN_GAMES) games)
	$(BALANCE) run rush --games $(MAIN_GAMES) --out $(MAIN_RUNS)
	$(call stage,5,19,players: 4-player Crisis by greedy$(comma) the learned player and the search-based reference player; 3 variants x $(PLAYER_GAMES) games (the slowest stage: the reference searches))
	$(BALANCE) run players --games $(PLAYER_GAMES) --out $(MAIN_RUNS)
	$(call stage,6,19,skills: each skill against No Skills; 21 variants x $(SKILL_GAMES) games)
	$(BALANCE) run skills --games $(SKILL_GAMES) --out $(MAIN_RUNS)
	$(call stage,7,19,skill-variants: the six skill variants; 6 variants x $(MAIN_GAMES) games)
	$(BALANCE) run skill-variants --games $(MAIN_GAMES) --out $(MAIN_RUNS)
	$(call stage,8,19,Gem Rush's report of the six runs (no games))
	$(BALANCE) report $(MAIN_RUNS)/crisis-difficulty $(MAIN_RUNS)/crisis-learned \
		$(MAIN_RUNS)/rush $(MAIN_RUNS)/players $(MAIN_RUNS)/skills $(MAIN_RUNS)/skill-variants \
		--out runs/main/report
	$(PY) -m balance.running.latest runs/main $(CODE)
	$(MAKE) --no-print-directory rusship STAGE_BASE=8 STAGE_TOTAL=19 MAKE_START=$(MAKE_START)
	$(MAKE) --no-print-directory gem_mountain STAGE_BASE=13 STAGE_TOTAL=19 MAKE_START=$(MAKE_START)
	$(MAKE) --no-print-directory gem_runner STAGE_BASE=16 STAGE_TOTAL=19 MAKE_START=$(MAKE_START)
	@echo "make: done in $$(($$(date +%s) - $(MAKE_START))) s"

# Rusship's part of the main job: the first-player compensation grid (9 variants), each power
# taken out of the box (6) and the board's length from 6 to 24 (7), racer against racer,
# 4,000 games a variant (the first player's wins within about +-1.5 points); racer against
# racer, the reference against racer and against itself, 200 games each (the reference is
# slow). Its report goes beside Gem Rush's, to runs/main/rusship/report/report.html, and
# runs/main/rusship/latest names the folder of the code that played it, as for Gem Rush.
# Bare names would do (the shipped names are distinct across games); paths say whose they are.
RUSSHIP_CODE = $(shell $(PY) -c "import balance.running.provenance as p; print(p.source_hash('rusship'))")
RUSSHIP_RUNS = runs/main/rusship/$(RUSSHIP_CODE)
RUSSHIP_GAMES := 4000
RUSSHIP_PLAYER_GAMES := 200
RUSSHIP_MAIN := first-player power-ablation board-length rusship-players

rusship: $(STAMP)
	$(call stage,1,5,first-player: Rusship's second-player compensation grid; 9 variants x $(RUSSHIP_GAMES) games)
	$(BALANCE) run experiments/rusship/first-player.toml --games $(RUSSHIP_GAMES) --out $(RUSSHIP_RUNS)
	$(call stage,2,5,power-ablation: each power taken out of the box; 6 variants x $(RUSSHIP_GAMES) games)
	$(BALANCE) run experiments/rusship/power-ablation.toml --games $(RUSSHIP_GAMES) --out $(RUSSHIP_RUNS)
	$(call stage,3,5,board-length: the board from 6 to 24 spaces; 7 variants x $(RUSSHIP_GAMES) games)
	$(BALANCE) run experiments/rusship/board-length.toml --games $(RUSSHIP_GAMES) --out $(RUSSHIP_RUNS)
	$(call stage,4,5,rusship-players: racer and the reference player; 3 variants x $(RUSSHIP_PLAYER_GAMES) games)
	$(BALANCE) run experiments/rusship/rusship-players.toml --games $(RUSSHIP_PLAYER_GAMES) \
		--out $(RUSSHIP_RUNS)
	$(call stage,5,5,Rusship's report of the four runs (no games))
	$(BALANCE) report $(addprefix $(RUSSHIP_RUNS)/,$(RUSSHIP_MAIN)) --out runs/main/rusship/report
	$(PY) -m balance.running.latest runs/main/rusship $(RUSSHIP_CODE)

# Gem Mountain's part of the main job, small: the first seat at 2 to 5 players (4 variants)
# and each action taken out of the box (6), 4 majority players, 4,000 games a variant (a
# seat's share within about +-1.3 points; the fast player plays them in seconds). Its report
# goes beside the others, to runs/main/gem_mountain/report/report.html, and
# runs/main/gem_mountain/latest names the folder of the code that played it. The guide's
# Gem Mountain page answers the designer's questions from the full experiments.
GEM_MOUNTAIN_CODE = $(shell $(PY) -c "import balance.running.provenance as p; print(p.source_hash('gem_mountain'))")
GEM_MOUNTAIN_RUNS = runs/main/gem_mountain/$(GEM_MOUNTAIN_CODE)
GEM_MOUNTAIN_GAMES := 4000
GEM_MOUNTAIN_MAIN := gem-mountain-first-seat gem-mountain-action-ablation

gem_mountain: $(STAMP)
	$(call stage,1,3,first-seat: Gem Mountain's seats at 2 to 5 players; 4 variants x $(GEM_MOUNTAIN_GAMES) games)
	$(BALANCE) run experiments/gem_mountain/first-seat.toml --games $(GEM_MOUNTAIN_GAMES) --out $(GEM_MOUNTAIN_RUNS)
	$(call stage,2,3,action-ablation: each action taken out of the box; 6 variants x $(GEM_MOUNTAIN_GAMES) games)
	$(BALANCE) run experiments/gem_mountain/action-ablation.toml --games $(GEM_MOUNTAIN_GAMES) --out $(GEM_MOUNTAIN_RUNS)
	$(call stage,3,3,Gem Mountain's report of the two runs (no games))
	$(BALANCE) report $(addprefix $(GEM_MOUNTAIN_RUNS)/,$(GEM_MOUNTAIN_MAIN)) --out runs/main/gem_mountain/report
	$(PY) -m balance.running.latest runs/main/gem_mountain $(GEM_MOUNTAIN_CODE)

# Gem Runner's part of the main job, small: a runner alone against the Computer with one deck
# and two, each hero's deck (8 variants), and deck against deck head to head, every pair of
# heroes both ways round (16), 2,000 games a variant (the fast player plays them in seconds).
# Its report goes beside the others, to runs/main/gem_runner/report/report.html; the guide's
# Gem Runner page answers the designer's questions from the full experiments.
GEM_RUNNER_CODE = $(shell $(PY) -c "import balance.running.provenance as p; print(p.source_hash('gem_runner'))")
GEM_RUNNER_RUNS = runs/main/gem_runner/$(GEM_RUNNER_CODE)
GEM_RUNNER_GAMES := 2000
GEM_RUNNER_MAIN := gem-runner-computer-heroes gem-runner-decks

gem_runner: $(STAMP)
	$(call stage,1,3,gem-runner-computer-heroes: a runner against the Computer$(comma) each hero's deck$(comma) one deck or two; 8 variants x $(GEM_RUNNER_GAMES) games)
	$(BALANCE) run experiments/gem_runner/gem-runner-computer-heroes.toml --games $(GEM_RUNNER_GAMES) --out $(GEM_RUNNER_RUNS)
	$(call stage,2,3,gem-runner-decks: deck against deck head to head$(comma) seats swapped; 16 variants x $(GEM_RUNNER_GAMES) games)
	$(BALANCE) run experiments/gem_runner/gem-runner-decks.toml --games $(GEM_RUNNER_GAMES) --out $(GEM_RUNNER_RUNS)
	$(call stage,3,3,Gem Runner's report of the two runs (no games))
	$(BALANCE) report $(addprefix $(GEM_RUNNER_RUNS)/,$(GEM_RUNNER_MAIN)) --out runs/main/gem_runner/report
	$(PY) -m balance.running.latest runs/main/gem_runner $(GEM_RUNNER_CODE)

report: main

# pytest caches its assertion rewriting of the test modules as bytecode; where the environment
# forbids writing bytecode (PYTHONDONTWRITEBYTECODE=1 on our CI's machine class), each worker
# rewrote every test module again, about 4 s of its collection.
# The engines are compiled (or loaded) first, by one process and its compile helper: left to
# the suite, both workers compiled the same kernels at once on a fresh clone. The test games'
# too (tests/compile_all.py): the suite plays them most.
# Work-stealing order: each worker starts on its own half of the suite and takes from the
# other's end when it runs out, so a module's tests, and the real runs and reports its module
# fixtures build, stay on one worker but at a steal. xdist's default deals out runs of
# consecutive tests that shrink as the suite goes on; a module split between two of them had
# its fixtures built by both workers, and both began in Gem Rush's tests (tests 0-295 and
# 296-591), on a fresh clone compiling at once the kernels the compile step leaves to the
# suite. Three report modules alone (20 tests): 42.4 CPU s of tests under the default, 32.9
# under this order, 20 on one worker.
test: $(STAMP)
	$(PY) -m tests.compile_all
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -q -n 2 --dist worksteal

lint: $(STAMP)
	$(VENV)/bin/ruff check .

bench: $(STAMP)
	$(BALANCE) bench

# The guide (balance/docs/guide/) as a site in balance/docs/site/. The docs extra
# (mkdocs-material) is installed here only, so a fresh `make` stays lean. The CLI reference is
# written from the commands first; --strict fails on a broken link or a page not in the nav.
DOCS_STAMP := $(VENV)/.docs-stamp

$(DOCS_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e ".[dev,docs]"
	touch $(DOCS_STAMP)

docs: $(DOCS_STAMP)
	$(PY) -m balance.docs.gen_cli
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --quiet -f balance/docs/mkdocs.yml

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache balance/docs/site
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
