# A thin layer over CMake. `make run` and `make test` install missing Debian packages
# first (scripts/install-deps), so both work on a fresh machine.
BUILD      ?= build
TEST_BUILD ?= build-test
TSAN_BUILD ?= build-tsan
BENCH_BUILD ?= build-bench
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE      ?= cmake

.PHONY: all deps build run test test-tsan bench format format-check clean

all: build

deps:
	@scripts/install-deps

build: deps
	@$(CMAKE) -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DEARSHOT_TESTS=OFF >/dev/null
	@$(CMAKE) --build $(BUILD) -j $(JOBS) -- --no-print-directory

# The main job: render the bundled demo scene to a WAV and print its measurements.
run: build
	@$(BUILD)/examples/demo_scene $(BUILD)/demo_scene.wav

# Every test through CTest, in the ASan+UBSan build.
test: deps
	@$(CMAKE) -S . -B $(TEST_BUILD) -DCMAKE_BUILD_TYPE=Debug -DEARSHOT_SANITIZE=ON \
	  -DEARSHOT_TESTS=ON >/dev/null
	@$(CMAKE) --build $(TEST_BUILD) -j $(JOBS) -- --no-print-directory
	@cd $(TEST_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS)

# The tests that cross threads, under ThreadSanitizer.
test-tsan: deps
	@$(CMAKE) -S . -B $(TSAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DEARSHOT_TSAN=ON \
	  -DEARSHOT_TESTS=ON >/dev/null
	@$(CMAKE) --build $(TSAN_BUILD) -j $(JOBS)
	@cd $(TSAN_BUILD) && ctest --output-on-failure -L threads

# Speed against OpenAL Soft on the same workload, and decoding against sox, each in the
# same run. Not part of CI.
bench: deps
	@$(CMAKE) -S . -B $(BENCH_BUILD) -DCMAKE_BUILD_TYPE=Release -DEARSHOT_TESTS=OFF \
	  -DEARSHOT_BENCH=ON >/dev/null
	@$(CMAKE) --build $(BENCH_BUILD) -j $(JOBS)
	@$(BENCH_BUILD)/bench/bench_w64
	@$(BENCH_BUILD)/bench/bench_mixer
	@$(BENCH_BUILD)/bench/bench_io

format:
	@find include src tests examples bench tools -name '*.[ch]' -print0 | xargs -0 clang-format -i

format-check:
	@scripts/check-format

clean:
	rm -rf $(BUILD) $(TEST_BUILD) $(TSAN_BUILD) $(BENCH_BUILD)
