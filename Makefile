# Benchbook: `make experiment` and `make test` do all set-up on a fresh Debian machine with Swift.
SHELL := /bin/bash
SWIFT ?= swift
EXP ?= flights-delay
BIN := .build/release/benchbook
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Debian packages the build and the plots need.
APT_PACKAGES := gnuplot-nox libgnuplot-iostream-dev libboost-iostreams-dev libboost-filesystem-dev \
	libopenblas-dev liblapacke-dev zlib1g-dev python3 python3-venv parallel valgrind

.PHONY: deps build experiment experiment-sharded slurm-check experiments study study-sharded test bench bench-suite bench-venv baselines clean format \
	coreml-check gate-evidence fuzz runtime-venv runtime-check runtime-latency

## deps: install the missing Debian packages (and only those)
deps:
	@missing=""; \
	for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed$$' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	else \
	  echo "system packages: all present"; \
	fi

## build: build benchbook in release mode
build: deps
	$(SWIFT) build -c release --product benchbook

## experiment: run experiments/$(EXP).yaml (default: the flagship)
experiment: build
	$(BIN) run experiments/$(EXP).yaml

## experiment-sharded: run experiments/$(EXP).yaml as $(SHARDS) processes with GNU parallel, then merge them
SHARDS ?= 4
experiment-sharded: build
	experiments/recipes/parallel/sharded.sh $(BIN) experiments/$(EXP).yaml $(SHARDS) reports/$(EXP)

## slurm-check: a single-node Slurm on this machine runs the flagship as a 4-task job array and a merge (root only)
slurm-check: build
	@dpkg-query -W -f='$${Status}\n' slurm-wlm munge 2>/dev/null | grep -c '^install ok installed$$' | grep -q 2 || { \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge; }
	experiments/recipes/slurm/check.sh $(BIN) experiments/flights-delay.yaml 4

## experiments: run every spec under experiments/ (exit status 3, a leak the audit caught, is expected of the leaky one)
experiments: build
	@set -e; for spec in experiments/*.yaml; do echo "== $$spec"; $(BIN) run "$$spec" || [ $$? -eq 3 ]; done
	$(BIN) index reports

## study: run the classic study (26 public datasets, experiments/studies/classic.yaml) into reports/classic/;
## experiments whose results there are up to date are reused (STUDY_FLAGS=--rerun runs them all)
STUDY ?= classic
STUDY_FLAGS ?=
study: build
	$(BIN) study experiments/studies/$(STUDY).yaml $(STUDY_FLAGS)

## study-sharded: the same study as $(SHARDS) processes with GNU parallel over its cells, then merged
study-sharded: build
	experiments/recipes/parallel/sharded-study.sh $(BIN) experiments/studies/$(STUDY).yaml $(SHARDS) reports/$(STUDY)

## test: build and run every test (unit, parity, end-to-end)
test: deps
	$(SWIFT) build -c release --product benchbook
	BENCHBOOK_BIN="$(CURDIR)/$(BIN)" $(SWIFT) test -c release

## bench: Benchbook against scikit-learn: the flights flagship (plain, 1x/3x/10x and tuned) and the bench suite of
## real public datasets (experiments/bench/suite.yaml; its table goes to reports/bench/suite.md and suite.json),
## then micro-benchmarks of the hot loops, the exports' latency in LiteRT and ONNX Runtime (runtime-latency) and the
## checks of shipped baselines. A missed target of issue 32 makes
## it exit 1 at the end, after everything has run. BENCH_SUITE=iris,diamonds runs only those datasets of the
## suite (an optional one when named), BENCH_REPS the alternating pairs per dataset (at least 2 to take a median).
BENCH_VENV := .build/sklearn-venv
BENCH_SUITE ?=
BENCH_REPS ?= 2
BENCH_SUITE_FLAGS = --suite experiments/bench/suite.yaml --repetitions $(BENCH_REPS) $(if $(BENCH_SUITE),--only $(BENCH_SUITE))
bench: build bench-venv runtime-latency
	$(SWIFT) build -c release --product benchbook-bench
	@status=0; \
	.build/release/benchbook-bench --benchbook $(BIN) --python $(BENCH_VENV)/bin/python \
	  --spec experiments/flights-delay.yaml --tuned-spec experiments/flights-delay-tuned.yaml --scale \
	  $(BENCH_SUITE_FLAGS) || status=$$?; \
	[ $$status -le 1 ] || exit $$status; \
	$(SWIFT) package --package-path Sources/Benchmarks --scratch-path .build-benchmarks \
	  --allow-writing-to-package-directory benchmark || exit $$?; \
	for baseline in experiments/baselines/*.json; do \
	  name=$$(basename "$$baseline" .json); echo "== check $$name"; \
	  $(BIN) check "experiments/$$name.yaml" --require-baseline || exit $$?; \
	done; \
	[ $$status -eq 0 ] || { echo "bench: some targets of issue 32 missed (see the tables above)"; exit 1; }

## bench-suite: the bench suite alone (BENCH_SUITE, BENCH_REPS as for bench)
bench-suite: build bench-venv
	$(SWIFT) build -c release --product benchbook-bench
	.build/release/benchbook-bench --benchbook $(BIN) --python $(BENCH_VENV)/bin/python $(BENCH_SUITE_FLAGS)

# scikit-learn and pandas for the bench's reference side, in a venv of the build (never needed to run Benchbook).
bench-venv:
	@[ -x $(BENCH_VENV)/bin/python ] && $(BENCH_VENV)/bin/python -c 'import sklearn, pandas' 2>/dev/null || { \
	  echo "bench: scikit-learn is missing; installing it into $(BENCH_VENV): pip install scikit-learn pandas"; \
	  python3 -m venv $(BENCH_VENV) && $(BENCH_VENV)/bin/pip install -q scikit-learn pandas; }

## gate-evidence: false alarms, power, instruction spread and cost of `check --against`, as a Markdown table (quiet machine)
gate-evidence: build
	experiments/recipes/gate/evidence.sh $(BIN)

## baselines: re-measure the baselines of every shipped experiment (review the diff before committing)
baselines: build
	@set -e; for spec in experiments/*.yaml; do $(BIN) baseline "$$spec"; done

## coreml-check: export every model of iris (it lists every registered model), the flagship and its ensembles
## sample, then parse each file with Apple's coremltools
COREML_VENV := .build/coremltools-venv
coreml-check: build
	@[ -x $(COREML_VENV)/bin/python ] || { python3 -m venv $(COREML_VENV) && $(COREML_VENV)/bin/pip install -q coremltools; }
	@dir=$$(mktemp -d) && trap 'rm -rf "$$dir"' EXIT && set -e && \
	updatable=$$($(BIN) models --labels --updatable) && \
	for spec in iris flights-delay flights-delay-ensembles; do for model in $$($(BIN) models --labels --in experiments/$$spec.yaml); do \
	  $(BIN) export experiments/$$spec.yaml --model $$model --out "$$dir/$$spec-$$model.mlmodel"; \
	done; done && \
	for model in $$updatable; do \
	  $(BIN) export experiments/iris.yaml --model $$model --updatable --out "$$dir/iris-$$model-updatable.mlmodel"; \
	done && \
	$(COREML_VENV)/bin/python Tests/RuntimeCheck/check_coremltools.py "$$dir"/*.mlmodel

## runtime-check: every model of iris, breast cancer, the flagship, a spec with categorical features and three of the
## penguins with missing values imputed (Tests/RuntimeCheck/penguins-*.yaml; one an integer category), exported as
## Core ML, TensorFlow Lite and ONNX, loaded in coremltools, LiteRT and ONNX Runtime (Tests/RuntimeCheck), and
## checked against Benchbook's own probabilities and scikit-learn's (1e-4; kNN only at float32 ties, under 0.5%; trees
## only where scikit-learn fed the float32 values an app passes agrees with the runtime, counted and reported)
RUNTIME_VENV := .build/runtime-venv
RUNTIME_SPECS ?= experiments/iris.yaml experiments/breast-cancer.yaml experiments/flights-delay.yaml \
	experiments/flights-delay-ensembles.yaml \
	Tests/RuntimeCheck/categorical.yaml Tests/RuntimeCheck/penguins-impute.yaml Tests/RuntimeCheck/penguins-nb.yaml \
	Tests/RuntimeCheck/penguins-year.yaml
runtime-venv:
	@[ -x $(RUNTIME_VENV)/bin/python ] && $(RUNTIME_VENV)/bin/python -c \
	  'import ai_edge_litert, onnxruntime, onnx, coremltools, sklearn, pandas, yaml' 2>/dev/null || { \
	  echo "runtime-venv: installing Tests/RuntimeCheck/requirements.txt into $(RUNTIME_VENV)"; \
	  python3 -m venv $(RUNTIME_VENV) && $(RUNTIME_VENV)/bin/pip install -q -r Tests/RuntimeCheck/requirements.txt; }
runtime-check: build runtime-venv
	$(RUNTIME_VENV)/bin/python Tests/RuntimeCheck/check_runtimes.py --benchbook $(BIN) --work .build/runtime-check \
	  --summary .build/runtime-check/summary.json $(RUNTIME_SPECS)

## runtime-latency: single-row latency (p50, p99) of the flagship's TensorFlow Lite and ONNX files in LiteRT and
## ONNX Runtime, 1,000 rows after 100 warm-up ones, through their Python APIs, with Python's own overhead stated
runtime-latency: build runtime-venv
	$(RUNTIME_VENV)/bin/python Tests/RuntimeCheck/latency.py --benchbook $(BIN) --work .build/runtime-latency \
	  --json .build/runtime-latency/latency.json experiments/flights-delay.yaml

## fuzz: build the libFuzzer targets in Tests/Fuzz (with AddressSanitizer) and run each for FUZZ_SECONDS;
## a crash (AddressSanitizer's reports included), a hang (FUZZ_TIMEOUT seconds on one input) or 2 GB of
## memory fails, its input saved as .build/fuzz/TARGET/crash-* (or timeout-*, oom-*) and its path printed.
## New inputs go to .build/fuzz/TARGET/corpus.
FUZZ_SECONDS ?= 60
FUZZ_TIMEOUT ?= 10
FUZZ_TARGETS ?= csv spec expression coreml results
# More libFuzzer flags, e.g. FUZZ_FLAGS=-seed=1; they come last, so they override the ones below.
FUZZ_FLAGS ?=
FUZZ_BUILD := $(CURDIR)/.build/fuzz-build
# --sanitize=fuzzer lets libFuzzer supply main; swiftc keeps only the last -sanitize flag it is given, so
# the coverage and AddressSanitizer instrumentation is asked for in one flag after it. SWIFT_BACKTRACE=enable=no:
# Swift's own crash handler would take the signal first, and libFuzzer would not save the input.
fuzz: deps
	$(SWIFT) build --package-path Tests/Fuzz --scratch-path $(FUZZ_BUILD) -c release \
	  --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address
	@failed=""; \
	for target in $(FUZZ_TARGETS); do \
	  dir=.build/fuzz/$$target; mkdir -p $$dir/corpus; rm -f $$dir/log; \
	  echo "fuzz $$target: $(FUZZ_SECONDS) s"; \
	  if SWIFT_BACKTRACE=enable=no $(FUZZ_BUILD)/release/fuzz-$$target \
	      $$dir/corpus Tests/Fuzz/$$target/corpus -max_total_time=$(FUZZ_SECONDS) -timeout=$(FUZZ_TIMEOUT) \
	      -rss_limit_mb=2048 -max_len=$$([ $$target = results ] && echo 16384 || echo 4096) \
	      -artifact_prefix=$$dir/ -print_final_stats=1 $(FUZZ_FLAGS) > $$dir/log 2>&1; then \
	    awk '/^stat::number_of_executed_units/ {n=$$2} /^stat::average_exec_per_sec/ {r=$$2} \
	      END {printf "fuzz '"$$target"': %d executions, %d per second, no crash\n", n, r}' $$dir/log; \
	  else \
	    tail -n 40 $$dir/log; \
	    saved=$$(sed -n 's/.*Test unit written to \(.*\)$$/\1/p' $$dir/log); \
	    echo "fuzz $$target: FAILED; the input: $${saved:-none saved, see $$dir/log}"; \
	    failed="$$failed $$target"; \
	  fi; \
	done; \
	[ -z "$$failed" ] || { echo "fuzz: failures in:$$failed"; exit 1; }

## format: format the Swift sources
format:
	$(SWIFT) format format -i -r Package.swift Sources Tests

clean:
	rm -rf .build .build-benchmarks
