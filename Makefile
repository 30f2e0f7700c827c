# tablejudge: the two commands a fresh machine needs are `make demo` and `make test`.
VENV    ?= .venv
PY      := $(VENV)/bin/python
STAMP   := $(VENV)/.installed-stamp
PYTHON  ?= python3

.PHONY: demo serve test bench sysdeps clean help

help:
	@echo "make demo    - create the virtualenv, install tablejudge, run the demo (records, validates, decides, renders)"
	@echo "make serve   - the event desk on the web with a seeded event (prints the organizer's link)"
	@echo "make test    - install what the tests need (virtualenv, Debian's postgresql, chromium, fonts-noto-cjk) and run them all"
	@echo "make bench   - run the benchmarks (ratios against raw sqlite3, measured in the same run)"

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip "setuptools>=68" wheel
	$(PY) -m pip install --quiet -e '.[postgres,test]'
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/tablejudge demo

serve: $(STAMP)
	$(VENV)/bin/tablejudge serve --demo

sysdeps:
	@bash .ci/sysdeps.sh

test: $(STAMP) sysdeps
	TABLEJUDGE_NO_SKIPS=1 $(PY) -m pytest -q

bench: $(STAMP)
	$(PY) -m bench

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis test-artifacts
