# locus — the two front-door commands (README): `make demo` and `make test`.
# Both install missing system packages first when run as root on Debian/Ubuntu.

JOBS ?= $(shell nproc)
BENCH := build/release/bin/locus-bench
APT_PACKAGES := g++ cmake ninja-build pkg-config libhwloc-dev libtbb-dev libgtest-dev \
                clang-format clang-tidy python3-matplotlib clang nlohmann-json3-dev libcli11-dev \
                libopenblas-dev libstarpu-dev libopenmpi-dev openmpi-bin libscalapack-openmpi-dev

.PHONY: deps release demo test mpi-test mpi-test-run bench debug asan tsan sanitizers consumer \
        fuzz fuzz-build fuzz-ci faults format format-check tidy clean

# Install what a fresh machine lacks (only as root; otherwise say what is missing).
deps:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing: $$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "missing packages (run as root or install them): $$missing"; exit 1; \
	  fi; \
	fi

release: deps
	cmake --preset release >/dev/null
	cmake --build --preset release -j $(JOBS)

# fib and the flat fork-join FJ under the three spawn policies, against serial, oneTBB and
# OpenMP, at 1 and 2 workers: a table of medians, speedups and steal counts.
demo: release
	$(BENCH) fib --size 32 --runtime serial,locus,tbb,omp \
	  --policy work-first,help-first,adaptive --workers 1,2 --reps 3
	$(BENCH) fj --size 1024 --runtime serial,locus,tbb,omp \
	  --policy work-first,help-first,adaptive --workers 1,2 --reps 3

# Everything but the mpi module's tests, then those as their own bounded stage.
test: release
	ctest --preset release -j 1 -LE mpi
	$(MAKE) --no-print-directory mpi-test-run

# The mpi module's tests (label mpi: mpirun with 2 and 4 ranks, the fault tests, the MPI
# example; none when MPI was not found), time-bounded: each test 120 s, the stage
# MPI_TEST_BOUND seconds (they take about 40 s on 2 loaded cores).
MPI_TEST_BOUND ?= 300
mpi-test: release
	$(MAKE) --no-print-directory mpi-test-run
mpi-test-run:
	timeout $(MPI_TEST_BOUND) ctest --preset release -j 1 -L mpi

# The full suite: every kernel at its default size, all runtimes, 1 and 2 workers. Writes
# docs/benchmarks-data/suite.json, the generated report docs/benchmarks-suite.md and the charts
# in docs/benchmarks-data/; docs/benchmarks.md is the analysis written from them.
bench: release
	mkdir -p docs/benchmarks-data
	$(BENCH) all --size default --runtime serial,locus,tbb,omp --workers 1,2 --reps 5 \
	  --json docs/benchmarks-data/suite.json
	tools/bench-report docs/benchmarks-suite.md docs/benchmarks-data/suite.json
	tools/plot docs/benchmarks-data docs/benchmarks-data/suite.json

debug: deps
	cmake --preset debug >/dev/null
	cmake --build --preset debug -j $(JOBS)
	ctest --preset debug -j 1

asan: deps
	cmake --preset asan >/dev/null
	cmake --build --preset asan -j $(JOBS)
	ctest --preset asan -j 1

tsan: deps
	cmake --preset tsan >/dev/null
	cmake --build --preset tsan -j $(JOBS)
	ctest --preset tsan -j 1

sanitizers: asan tsan

# locus used from another project, as the README shows: the installed CMake package
# (find_package), add_subdirectory, and pkg-config by hand; each with gcc and with clang, in
# build/consumer-*. Builds only the library (no tests, no benchmarks) and runs each program.
consumer: deps
	JOBS=$(JOBS) bash tests/consumer/run build

# The steal tree reader under libFuzzer (clang, ASan, UBSan) for FUZZ_SECONDS, starting from the
# kept corpus. Findings land in build/fuzz/artifacts/: copy each into tests/fuzz/corpus/steal_tree/
# (which `make test` replays) with the fix.
FUZZ_SECONDS ?= 300
FUZZ_TARGETS := steal_tree_load topology_spec config_env bench_cli steal_tree_cli
fuzz-build: deps
	cmake -S . -B build/fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DLOCUS_FUZZ=ON \
	  -DLOCUS_BUILD_TESTS=OFF -DLOCUS_BUILD_BENCH=OFF -DLOCUS_WITH_HWLOC=OFF -DLOCUS_INSTALL=OFF \
	  >/dev/null
	cmake --build build/fuzz -j $(JOBS) --target $(addsuffix _fuzz,$(FUZZ_TARGETS))
fuzz: fuzz-build
	mkdir -p build/fuzz/corpus build/fuzz/artifacts
	build/fuzz/bin/steal_tree_load_fuzz -max_total_time=$(FUZZ_SECONDS) -timeout=5 \
	  -malloc_limit_mb=256 -artifact_prefix=build/fuzz/artifacts/ \
	  build/fuzz/corpus tests/fuzz/corpus/steal_tree

# CI's fuzz stage: every target for FUZZ_CI_SECONDS (5 targets x 30 s: 2.5 minutes of fuzzing,
# plus the build), each starting from its kept corpus tests/fuzz/corpus/<target> (steal_tree
# for steal_tree_load; new inputs
# go to build/fuzz/ci/<target>, findings to build/fuzz/artifacts/). A finding fails the stage.
FUZZ_CI_SECONDS ?= 30
fuzz-ci: fuzz-build
	@set -e; for t in $(FUZZ_TARGETS); do \
	  mkdir -p build/fuzz/ci/$$t build/fuzz/artifacts; \
	  echo "fuzz-ci: $${t}_fuzz for $(FUZZ_CI_SECONDS) s"; \
	  build/fuzz/bin/$${t}_fuzz -max_total_time=$(FUZZ_CI_SECONDS) -timeout=5 \
	    -malloc_limit_mb=512 -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix=build/fuzz/artifacts/$${t}- build/fuzz/ci/$$t tests/fuzz/corpus/$${t%_load} \
	    2>build/fuzz/ci/$$t.log || { tail -40 build/fuzz/ci/$$t.log; exit 1; }; \
	  grep -E '^stat::number_of_executed_units' build/fuzz/ci/$$t.log || true; \
	done

# The fault suite (tests/faults/run): oversubscribed runs (16 and 64 workers on this machine's
# cores) of fork/join, replay and dataflow, and random task graphs with throwing bodies and
# abandoned events under ASan, each under a hang detector (timeout). Bounded to about 4
# minutes of running, plus the builds (release and asan presets).
FAULTS_SECONDS ?= 240
faults: deps
	cmake --preset release >/dev/null
	cmake --build --preset release -j $(JOBS) --target locus-faults
	cmake --preset asan >/dev/null
	cmake --build --preset asan -j $(JOBS) --target locus-faults locus-flow-tests
	FAULTS_SECONDS=$(FAULTS_SECONDS) bash tests/faults/run

FORMAT_FILES = $(shell git ls-files '*.hpp' '*.cpp')
format:
	clang-format -i $(FORMAT_FILES)
format-check:
	clang-format --dry-run --Werror $(FORMAT_FILES)

# clang-tidy (.clang-tidy) over src/*.cpp and the include/locus and src headers they include,
# on the release build's compile_commands.json, $(JOBS) files at a time, stopped after
# TIDY_SECONDS. Prints each finding once and their count; fails if there is any (or on
# timeout). TIDY_FILES narrows it, e.g. make tidy TIDY_FILES="src/stats.cpp src/binding.cpp".
TIDY ?= $(shell command -v clang-tidy || command -v clang-tidy-14)
TIDY_SECONDS ?= 1200
TIDY_FILES ?= $(shell git ls-files 'src/*.cpp')
tidy:
	@test -n "$(TIDY)" || { echo "clang-tidy not found (Debian: apt-get install clang-tidy)"; exit 1; }
	@test -f build/release/compile_commands.json || cmake --preset release >/dev/null
	@mkdir -p build
	@status=0; timeout $(TIDY_SECONDS) sh -c 'printf "%s\n" $(TIDY_FILES) | \
	  xargs -P $(JOBS) -n 1 $(TIDY) -p build/release --quiet' >build/tidy.log 2>&1 || status=$$?; \
	grep -E '^[^ ].*: (warning|error): ' build/tidy.log | sort -u >build/tidy-findings.txt; \
	cat build/tidy-findings.txt; \
	n=$$(wc -l <build/tidy-findings.txt); echo "tidy: $$n findings (full output: build/tidy.log)"; \
	if [ $$status = 124 ]; then echo "tidy: stopped after $(TIDY_SECONDS) s"; exit 1; fi; \
	[ $$n = 0 ]

clean:
	rm -rf build
