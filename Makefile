# A thin layer over CMake. `make run` and `make test` install missing Debian packages
# first (scripts/install-deps), so both work on a fresh machine.
BUILD      ?= build
TEST_BUILD ?= build-test
TSAN_BUILD ?= build-tsan
BENCH_BUILD ?= build-bench
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 300
FUZZ_UI_SECONDS ?= 300
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE      ?= cmake

.PHONY: all deps build run test check test-build test-tsan soak bench fuzz fuzz-build fuzz-ui format format-check clean bench-compare
.PHONY: web web-serve
.PHONY: windows windows-build test-windows

all: build

deps:
	@scripts/install-deps

build: deps
	@$(CMAKE) -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DEARSHOT_TESTS=OFF >/dev/null
	@$(CMAKE) --build $(BUILD) -j $(JOBS) -- --no-print-directory

# The main job: the demo game. A window and the sound card when there are both; otherwise
# the bot that only hears plays level 1 headless (a WAV and an SVG of it in $(BUILD)).
# The game's path is the first line: the build (all of it, as `make build`: the command
# tool too) speaks only when it fails (its output is in $(BUILD)/run-build.log).
run: deps
	@$(CMAKE) -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DEARSHOT_TESTS=OFF >/dev/null
	@$(CMAKE) --build $(BUILD) -j $(JOBS) -- --no-print-directory \
	  >$(BUILD)/run-build.log 2>&1 || { cat $(BUILD)/run-build.log; exit 1; }
	@echo "game: $(abspath $(BUILD))/games/demo/earshot-demo"
	@cd $(BUILD) && ./games/demo/earshot-demo --wav $(abspath $(BUILD))/demo-autoplay.wav \
	  --plot $(abspath $(BUILD))/demo-autoplay.svg

# The ASan+UBSan build with the tests.
test-build: deps
	@$(CMAKE) -S . -B $(TEST_BUILD) -DCMAKE_BUILD_TYPE=Debug -DEARSHOT_SANITIZE=ON \
	  -DEARSHOT_TESTS=ON >/dev/null
	@$(CMAKE) --build $(TEST_BUILD) -j $(JOBS) -- --no-print-directory

# Every test through CTest, in the ASan+UBSan build, but the Release builds (`make check`).
test: test-build
	@cd $(TEST_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS) -LE release
	@$(MAKE) --no-print-directory fuzz FUZZ_EACH=$(FUZZ_TEST_SECONDS)

# What `make test` leaves out for its time: every test of every test executable alone, in
# a process of its own (scripts/check-tests-alone), and the default Release build, tests
# on and warnings as errors, with GCC and with clang (CTest label release, tests/release).
check: test-build
	@scripts/check-tests-alone $(TEST_BUILD) -j $(JOBS)
	@cd $(TEST_BUILD) && ctest --output-on-failure -L release

# The tests that cross threads, under ThreadSanitizer.
test-tsan: deps
	@$(CMAKE) -S . -B $(TSAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DEARSHOT_TSAN=ON \
	  -DEARSHOT_TESTS=ON >/dev/null
	@$(CMAKE) --build $(TSAN_BUILD) -j $(JOBS)
	@cd $(TSAN_BUILD) && ctest --output-on-failure -L threads

# serve, MCP and the demo under load, SOAK_SECONDS each (60), their RSS sampled each second:
# after a quarter of the run's warm-up it may grow by at most SOAK_TOLERANCE_KB (8 MiB) and
# 10 percent (scripts/soak). Not part of make test.
SOAK_SECONDS ?= 60
soak: build
	@SOAK_SECONDS=$(SOAK_SECONDS) scripts/soak $(BUILD)

# Speed against OpenAL Soft on the same workload, decoding against sox, and physics
# against Bullet, each in the same run. Not part of CI.
bench: deps
	@$(CMAKE) -S . -B $(BENCH_BUILD) -DCMAKE_BUILD_TYPE=Release -DEARSHOT_TESTS=OFF \
	  -DEARSHOT_BENCH=ON >/dev/null
	@$(CMAKE) --build $(BENCH_BUILD) -j $(JOBS)
	@$(BENCH_BUILD)/bench/bench_w64
	@W64_HRTF=1 $(BENCH_BUILD)/bench/bench_w64
	@$(BENCH_BUILD)/bench/bench_reverb
	@$(BENCH_BUILD)/bench/bench_fft
	@$(BENCH_BUILD)/bench/bench_mixer
	@$(BENCH_BUILD)/bench/bench_io
	@$(BENCH_BUILD)/bench/bench_latency
	@$(BENCH_BUILD)/bench/bench_memory
	@$(BENCH_BUILD)/bench/bench_cli $(BENCH_BUILD)/tools/earshot
	@$(BENCH_BUILD)/bench/bench_physics

# Every parser under libFuzzer (clang, ASan+UBSan), one target after the other, each in a
# scratch folder with its seeds (tests/fuzz/run-fuzz, docs/fuzzing.md). `make fuzz` shares
# FUZZ_SECONDS (5 minutes) among FUZZ_TARGETS; `make test` gives each FUZZ_TEST_SECONDS.
# A module that adds a parser appends its target here.
FUZZ_TARGETS := fuzz_commands fuzz_decode fuzz_audio_json fuzz_blend_json fuzz_storage \
  fuzz_replay fuzz_script fuzz_lang fuzz_scene fuzz_level fuzz_world_doc fuzz_ui \
  fuzz_hrtf
FUZZ_TEST_SECONDS ?= 4
FUZZ_EACH = $$(( $(FUZZ_SECONDS) / $(words $(FUZZ_TARGETS)) ))
fuzz-build: deps
	@$(CMAKE) -S . -B $(FUZZ_BUILD) -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
	  -DEARSHOT_SANITIZE=ON -DEARSHOT_FUZZ=ON -DEARSHOT_TESTS=OFF -DEARSHOT_WERROR=OFF >/dev/null
	@$(CMAKE) --build $(FUZZ_BUILD) -j $(JOBS) --target $(FUZZ_TARGETS) -- --no-print-directory >/dev/null

fuzz: fuzz-build
	@tests/fuzz/run-fuzz $(FUZZ_BUILD) $(FUZZ_EACH) $(FUZZ_TARGETS)

# Headers, libearshot-audio and libearshot (shared and static), the earshot tool (and
# earshot-lua when Lua 5.4 is found), pkg-config
# files and the CMake package under PREFIX (DESTDIR is honoured); see docs/install.md.
PREFIX ?= /usr/local
.PHONY: install
install: deps
	@$(CMAKE) -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DEARSHOT_TESTS=OFF \
	  -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	@$(CMAKE) --build $(BUILD) -j $(JOBS) -- --no-print-directory
	@$(CMAKE) --install $(BUILD) --prefix $(PREFIX)

# The web build (docs/web.md): the games as pages in $(WEB_BUILD), served on 127.0.0.1,
# the Lua games too (Lua built with emscripten from Debian's lua5.4 source package, once:
# scripts/build-web-lua, cached in $(WEB_BUILD)/deps).
WEB_BUILD ?= build-web
WEB_PORT  ?= 8000
web: deps
	@JOBS=$(JOBS) scripts/build-web $(WEB_BUILD)

web-serve: web
	@node tests/web/serve.mjs $(WEB_BUILD) $(WEB_PORT)

# The Windows build (docs/windows.md): cross-built with Debian's mingw-w64, its libraries
# built from Debian's source packages into $(WINDOWS_BUILD)/deps/prefix (cached;
# scripts/build-windows-deps), laid out in $(WINDOWS_BUILD) with Three-Errands-windows.zip.
# `make test-windows` runs the headless tests under Wine (wine64). Not part of `make test`.
# -O2 without the Release build's LTO: each of the many test programs would be a whole-
# program link on the shared machine (the portable math keeps the results the same).
WINDOWS_BUILD ?= build-windows
WINDOWS_JOBS  ?= 2
WINDOWS_CMAKE = $(WINDOWS_BUILD)/cmake
WINDOWS_TOOLS = earshot earshot-demo make_sounds demo_scene horn beacon maze_guide menu_demo
windows-build:
	@scripts/install-windows-deps
	@JOBS=$(WINDOWS_JOBS) scripts/build-windows-deps $(WINDOWS_BUILD)
	@$(CMAKE) -S . -B $(WINDOWS_CMAKE) -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" \
	  -DEARSHOT_TESTS=ON >/dev/null
	@nice $(CMAKE) --build $(WINDOWS_CMAKE) -j $(WINDOWS_JOBS) \
	  --target $(WINDOWS_TOOLS) earshot_audio_static earshot_engine_static -- --no-print-directory
windows: windows-build
	@scripts/package-windows $(WINDOWS_BUILD)

test-windows: windows
	@JOBS=$(WINDOWS_JOBS) scripts/test-windows $(WINDOWS_BUILD)

# The UI's fuzzer alone (it is also one of FUZZ_TARGETS): FUZZ_UI_SECONDS, 5 minutes.
fuzz-ui: deps
	@$(MAKE) --no-print-directory fuzz FUZZ_TARGETS=fuzz_ui FUZZ_SECONDS=$(FUZZ_UI_SECONDS)

format:
	@find include src tests examples bench tools -name '*.[ch]' -print0 | xargs -0 clang-format -i

format-check:
	@scripts/check-format

clean:
	rm -rf $(BUILD) $(TEST_BUILD) $(TSAN_BUILD) $(BENCH_BUILD) $(FUZZ_BUILD) $(WEB_BUILD)

# The stage's speed at BASE against the working tree (issue 15's performance contract):
# alternating timed runs and callgrind instruction counts, with the output hashes checked.
# `make bench-compare BASE=main [MODE=time|callgrind|both] [ROUNDS=5]`. Not part of CI.
MODE ?= both
ROUNDS ?= 5
bench-compare:
	@test -n "$(BASE)" || { echo "usage: make bench-compare BASE=<rev>"; exit 2; }
	@scripts/bench-compare $(BASE) --mode $(MODE) --rounds $(ROUNDS) --jobs $(JOBS)
