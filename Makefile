# Two commands for a newcomer: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
PORT ?= 8000

.PHONY: install run test bench loadtest lint format migrate serve-stack clean

$(INSTALLED): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(INSTALLED)

install: $(INSTALLED)

migrate: install
	mkdir -p var/mail
	$(BIN)/python manage.py migrate --noinput

run: migrate
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

test: install
	$(BIN)/python -m pytest

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

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

serve-stack: migrate
	@test -n "$$DATABASE_URL" -a -n "$$REDIS_URL" || { echo "serve-stack needs DATABASE_URL and REDIS_URL (deploy/README.md)"; exit 1; }
	rm -rf var/prometheus && mkdir -p var/prometheus
	PROMETHEUS_MULTIPROC_DIR=$(CURDIR)/var/prometheus $(BIN)/honcho start --port $(PORT)

loadtest: install
	$(BIN)/python bench/loadtest.py

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache .hypothesis
