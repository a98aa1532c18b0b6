# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# The README's two commands:
#   make test    install what is missing, build, run the unit/compat suites
#   make bench   install what is missing, build, run the benchmark suite
# Sanitizer suites (what CI runs too): make test-asan, make test-tsan.
# Packages are installed with apt-get when missing (see tools/install-deps.sh
# for what happens when you are not root).

BUILD       ?= build
JOBS        ?= $(shell nproc)
MESON_ARGS  ?=
ifeq ($(CI),true)
MESON_ARGS  += -Dwerror=true
endif

PKGS_BUILD := meson ninja-build pkg-config gcc libc6-dev python3 liburcu-dev \
	      libnuma-dev libcmocka-dev
PKGS_SAN   := clang llvm libclang-rt-14-dev
PKGS_BENCH := dpdk-dev libdpdk-dev gnuplot-nox

SAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:halt_on_error=1 \
	   UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	   TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

.PHONY: all deps deps-san deps-bench build test test-asan test-tsan bench clean

all: build

deps:
	@tools/install-deps.sh $(PKGS_BUILD)
deps-san: deps
	@tools/install-deps.sh $(PKGS_SAN)
deps-bench: deps
	@tools/install-deps.sh $(PKGS_BENCH)

# meson setup once per build directory, then ninja.
define build_dir
	@if [ ! -f $(1)/build.ninja ]; then meson setup $(1) $(2) $(MESON_ARGS); fi
	@ninja -C $(1) -j $(JOBS)
endef

# Run a build directory's suites: meson prints each test's own output
# (cmocka's [  PASSED  ] lines), then one "N passed, N failed" line.
define run_tests
	@rc=0; $(3) meson test -C $(1) --print-errorlogs -v --num-processes $(JOBS) \
		$(4) >$(1)/test-output.txt 2>&1 || rc=$$?; \
	cat $(1)/test-output.txt; \
	tools/test-summary.py $(1)/meson-logs/testlog.json $(2) && exit $$rc
endef

build: deps
	$(call build_dir,$(BUILD),)

test: build
	$(call run_tests,$(BUILD),test,,)

test-asan: deps-san
	$(call build_dir,build-asan,-Db_sanitize=address,undefined -Db_lundef=false -Dc_args=-fno-sanitize-recover=all)
	$(call run_tests,build-asan,asan+ubsan,$(SAN_ENV),)

test-tsan: deps-san
	$(call build_dir,build-tsan,-Db_sanitize=thread -Db_lundef=false)
	$(call run_tests,build-tsan,tsan,$(SAN_ENV),)

bench: deps-bench build
	@echo "make bench: the benchmark suite lands with issue 4; running bench_page_alloc"
	@$(BUILD)/bench/bench_page_alloc

clean:
	rm -rf $(BUILD) build-asan build-tsan
