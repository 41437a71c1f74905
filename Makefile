# scanextract: set-up, build, demo, tests and benchmarks.
# `make demo` and `make test` install whatever is missing first.

SWIFT      ?= swift
APT_PKGS   := libtesseract-dev libleptonica-dev tesseract-ocr tesseract-ocr-eng tesseract-ocr-osd \
	          libpoppler-glib-dev libcairo2-dev libpng-dev pkg-config poppler-utils time fonts-dejavu-core qpdf \
	          libopencv-imgproc-dev libheif-dev libheif-examples wamerican-large hunspell-id wdanish wnorwegian wswedish hunspell-pl hershey-fonts-data libsqlite3-dev \
	          postgresql chromium chromium-driver
BIN        := .build/release/scanextract
DEMO_OUT   := out/samples
BENCH_DIR  ?= Samples
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build demo lint test bench folder-bench noncjk-recognizer clean

all: build

# Installs the Debian packages that are missing (and only those).
deps:
	@missing=""; for p in $(APT_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
	@if [ -x scripts/install-onnx.sh ]; then scripts/install-onnx.sh; fi
	@python3 -c "import openapi_spec_validator" 2>/dev/null || \
	  PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check openapi-spec-validator

# Opt-in: the recognizer with its output layer cut to non-East-Asian scripts, for
# PPOCRRecognizer.Settings.useNonCJKRecognizer (off by default). Pip-installs the `onnx`
# package (about 110 MB) into .deps/python to write it; `make deps` does not.
noncjk-recognizer:
	scripts/install-onnx.sh --noncjk

build: deps
	$(SWIFT) build -c release --product scanextract

# Runs the main job on Samples/: one JSON document per sample, then a summary.
demo: build
	@mkdir -p $(DEMO_OUT)
	$(BIN) --output-dir $(DEMO_OUT) Samples/ ; status=$$?; \
	for f in $(DEMO_OUT)/*.json; do \
	  echo "== $$f"; \
	  $(BIN) --format text --quiet "$$f" | head -n 12; \
	done; \
	echo; echo "JSON documents are in $(DEMO_OUT)/"; exit $$status

# The tests run beside a throwaway PostgreSQL server (scripts/with-postgres.sh: a temporary
# cluster on a free loopback port, its URL in SCANEXTRACT_TEST_POSTGRES_URL). Their optimized
# ONNX graphs go to the build folder, not to the user's ~/.cache.
# No Swift line over 120 characters outside string literals and generated files (../shared/STYLE.md);
# `swift format` with the project's .swift-format wraps code, never comments or literals.
lint:
	python3 scripts/check-line-length.py

test: deps lint
	$(SWIFT) build --build-tests
	SCANEXTRACT_ONNX_CACHE="$(CURDIR)/.build/onnx-cache" scripts/with-postgres.sh $(SWIFT) test --skip-build

# The speed table (issue 13) in one run against RapidOCR 3.10 on the same files: wall and
# CPU per page, char3-F1 and fields, digital PDF pages/s, start-up without OCR, peak memory.
# Needs ../shared/eval (EVAL_DIR=...) and a python with rapidocr (RAPIDOCR_PYTHON=...; see
# Benchmarks/bench.sh). `make folder-bench BENCH_DIR=folder` times one folder run instead.
BENCH_OUT      ?= out/bench
RAPIDOCR_PYTHON ?= /tmp/venv-rapid/bin/python
bench: build
	@Benchmarks/bench.sh $(BIN) $(BENCH_OUT) $(RAPIDOCR_PYTHON)

folder-bench: build
	@Benchmarks/folder-run.sh $(BIN) $(BENCH_DIR)

clean:
	rm -rf .build out
