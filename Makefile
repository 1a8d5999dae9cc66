# Two commands for a newcomer: `make run` and `make test` (`make check` is the
# fast lane to run while working; docs/testing.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
PORT ?= 8000

.PHONY: install run test check bench loadtest cluster-test lint format migrate serve-stack clean messages messages-mail messages-engines

$(INSTALLED): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(INSTALLED)

install: $(INSTALLED)

migrate: install
	mkdir -p var/mail
	$(BIN)/python manage.py migrate --noinput

# The links in mails name the port the server runs on, unless given.
run: migrate
	CORREO_BASE_URL=$${CORREO_BASE_URL:-http://127.0.0.1:$(PORT)} $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# The whole suite in parallel: two worker processes per core, because a good
# part of the suite waits (browsers, servers, real workers, SMTP, outages
# timed out, pages polling) and the spare processes keep the cores busy
# meanwhile; work-stealing keeps a core busy while another finishes a long
# walk.  On two cores four workers beat three and five (docs/testing.md,
# "Times").  TEST_WORKERS=0 runs it in this process (for a debugger or -x).
# The thirty slowest tests are listed at the end: the suite's time is a
# promise (docs/testing.md), and CI's log shows where it goes.
# Bytecode is written even where the environment says not to
# (PYTHONDONTWRITEBYTECODE): besides its workers the suite starts Python
# processes of its own (Celery workers, gunicorn, manage.py commands), and
# each would compile the project again.
# At most eight: each worker takes a Redis database of its own (sixteen in all).
TEST_WORKERS ?= $(shell python3 -c 'import os; print(min(2 * (os.cpu_count() or 1), 8))')
test: install
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal --durations=30 $(PYTEST_ARGS)

# The fast lane, to run while working: the suite without the tests marked
# slow (whole-game walks, golden replays, property tests, real workers and
# servers) and without the browser tests.  Those drive Chromium against a live
# server and take about three minutes of one core for some twenty tests, more
# than this whole lane may take (under two minutes on two cores); the pages'
# HTML stays checked here by tests/web.  What is left hardly waits, so one
# worker more than there are cores does best here (docs/testing.md).
# `make test` runs everything, as CI does.
CHECK_WORKERS ?= $(shell python3 -c 'import os; print((os.cpu_count() or 1) + 1)')
check: install
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(CHECK_WORKERS) --dist worksteal -m "not slow and not browser" $(PYTEST_ARGS)

# The catalogues of the mails (Django's) and of the titles' own words (one
# per engine folder, read with the standard library's gettext: engines import
# nothing from Django).  Extract, merge, compile; translate what msgmerge
# marks new or fuzzy, then run this again and commit the .po and the .mo.
# `make messages-engines ENGINE_FOLDERS=estates` does one title.
ENGINE_FOLDERS ?= havana estates pointcity cuba
messages: messages-mail messages-engines

messages-mail: install
	$(BIN)/python manage.py makemessages -l de --ignore='.venv/*' --ignore='tests/*' --ignore='games/engines/*'
	$(BIN)/python manage.py compilemessages --ignore='.venv/*' --ignore='games/engines/*'

messages-engines:
	for t in $(ENGINE_FOLDERS); do \
	  dir=games/engines/$$t/locale; po=$$dir/de/LC_MESSAGES/$$t.po; \
	  mkdir -p $$dir/de/LC_MESSAGES; \
	  xgettext --language=Python --from-code=UTF-8 --add-location=file --sort-by-file \
	    --keyword=_ --keyword=N_ --keyword=refuse --keyword=ngettext:1,2 --keyword=pgettext:1c,2 \
	    --package-name=correo-$$t -o $$dir/$$t.pot $$(find games/engines/$$t -name '*.py' | sort) || exit 1; \
	  if [ -f $$po ]; then msgmerge --quiet --update --backup=none $$po $$dir/$$t.pot || exit 1; \
	  else msginit --no-translator --locale=de.UTF-8 --input=$$dir/$$t.pot --output-file=$$po || exit 1; \
	    sed -i 's/charset=ASCII/charset=UTF-8/' $$po; fi; \
	  msgfmt --check -o $$dir/de/LC_MESSAGES/$$t.mo $$po || exit 1; \
	done

# Every bench runs, whatever another one did; a bench that cannot run here
# (exit 3) says why and counts as skipped, not failed.
bench: install
	@failed=""; skipped=""; \
	for script in bench/bench_*.py; do \
	  $(BIN)/python $$script; status=$$?; \
	  if [ $$status -eq 3 ]; then skipped="$$skipped $$script"; \
	  elif [ $$status -ne 0 ]; then failed="$$failed $$script"; fi; \
	done; \
	[ -z "$$skipped" ] || echo "skipped:$$skipped"; \
	[ -z "$$failed" ] || { echo "failed:$$failed"; exit 1; }

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

serve-stack: migrate
	@test -n "$$DATABASE_URL" -a -n "$$REDIS_URL" || { echo "serve-stack needs DATABASE_URL and REDIS_URL (deploy/README.md)"; exit 1; }
	rm -rf var/prometheus && mkdir -p var/prometheus
	PROMETHEUS_MULTIPROC_DIR=$(CURDIR)/var/prometheus $(BIN)/honcho start --port $(PORT)

loadtest: install
	$(BIN)/python bench/loadtest.py

# Correo on several hosts (network namespaces: a balancer, two app hosts,
# PostgreSQL behind PgBouncer, Redis, mail) while hosts fail; needs root,
# haproxy and pgbouncer (docs/scaling.md).  Killed after 10 minutes at most,
# and whatever a killed run left is removed either way.
cluster-test: install
	@status=0; timeout -k 30 600 deploy/cluster/run.sh || status=$$?; \
	deploy/cluster/cleanup.sh; exit $$status

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache .hypothesis
