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
	      libnuma-dev libcmocka-dev libbpf-dev libdw-dev libjansson-dev \
	      libxdp-dev clang iproute2
PKGS_SAN   := clang llvm libclang-rt-14-dev
PKGS_BENCH := dpdk-dev libdpdk-dev gnuplot-nox
PKGS_DOCS  := doxygen

# ASan+UBSan build options. (A literal comma would end a $(call) argument.)
# The sanitizer build is also the CONFIG_DEBUG_NET build (meson -Ddebug_net):
# the suites run once with the costly misuse checks (test-asan) and once
# without them (test, test-tsan).
comma           := ,
ASAN_MESON_ARGS := -Db_sanitize=address$(comma)undefined -Db_lundef=false \
		   -Dc_args=-fno-sanitize-recover=all -Ddebug_net=true

SAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:halt_on_error=1 \
	   UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	   TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

.PHONY: all deps deps-san deps-bench build test test-asan test-tsan bench docs clean help

all: build

# What each target does, in one line (README.md and docs/ have the rest).
help:
	@echo 'pagepool make targets (the build, test and bench ones install the Debian packages they need first):'
	@echo '  build             build in ./$(BUILD)'
	@echo '  test              build, run the suites (make test JOBS=2 on a shared machine)'
	@echo '  test-asan         ASan+UBSan build (build-asan), all suites'
	@echo '  test-tsan         ThreadSanitizer build (build-tsan), all suites'
	@echo '  test-all          all-designs build ($(BUILD_ALL)), then the holders build ($(BUILD_HOLDERS))'
	@echo '  test-16k          x86-64 build with 16 KiB pages ($(BUILD_16K)), every suite'
	@echo '  test-64k          x86-64 build with 64 KiB pages ($(BUILD_64K)), every suite'
	@echo '  test-pagesizes    test-16k and test-64k'
	@echo '  test-aarch64      aarch64 cross build ($(BUILD_AARCH64)), suites under qemu-aarch64'
	@echo '  test-aarch64-64k  aarch64 with 64 KiB pages ($(BUILD_AARCH64_64K)), under qemu-aarch64 -p 65536'
	@echo "  kernel-test       a kernel tree's page_pool.c on pagepool's runtime, the suites against it (KSRC=tree or tarball; default: Debian's linux-source-6.12; docs/KERNEL_CORE.md)"
	@echo "  kernel-bench      the same benchmarks against pagepool's core and the kernel's, interleaved (results/kernel-bench.txt)"
	@echo "  kernel-fuzz       the kernel-API fuzz harness under libFuzzer against the kernel's page_pool.c (FUZZ_SECONDS)"
	@echo '  test-valgrind, fuzz, stress   the reliability suite (docs/RELIABILITY.md)'
	@echo '  bench             the benchmark suite (docs/BENCHMARKS.md); bench-short: tiny loop counts'
	@echo '  bench-xsk         root: the AF_XDP forwarder on veth pairs (docs/BENCHMARKS.md)'
	@echo '  xdp-fwd-demo      root: 3 s of traffic through examples/xdp_fwd'
	@echo '  docs              the API reference (docs/api/index.html)'
	@echo '  clean             remove the build directories above and docs/api (not build-vg, build-fuzz, build-fuzz-kcore)'
	@echo 'Variables: JOBS (parallel jobs, default nproc), MESON_ARGS (extra meson setup options).'

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

# The builds after the default one run every suite but the checkers' own
# planted-error tests (suite selftest: tests/style), which check a copy of
# the source tree and do not depend on the configuration; make test runs
# them.
SECONDARY := --no-suite selftest

build: deps
	$(call build_dir,$(BUILD),)

test: build
	$(call run_tests,$(BUILD),test,,)

test-asan: deps-san
	$(call build_dir,build-asan,$(ASAN_MESON_ARGS))
	$(call run_tests,build-asan,asan+ubsan,$(SAN_ENV),$(SECONDARY))

test-tsan: deps-san
	$(call build_dir,build-tsan,-Db_sanitize=thread -Db_lundef=false)
	$(call run_tests,build-tsan,tsan,$(SAN_ENV),$(SECONDARY))

# The all-designs build (meson -Ddesigns=all, docs/ARCHITECTURE.md section
# 2): every design of every axis in one library, chosen at run time. The
# tests that compare designs, or switch a fix off to show its bug, run
# here in full; in the default builds they run the designs that exist.
# Then the tests that exercise the return ring run once more per other
# ring design the build has, with PAGEPOOL_RING=<design>, one summary
# line each (tools/test-ring-designs.sh says which tests and why).
# The benchmarks' same-run A/B comparisons use this build too.
BUILD_ALL ?= build-all
# Then the holder-tracking build (meson -Dholders=true; its own directory,
# not build-all, which the benchmarks use): the suites that move pages,
# so that everything still holds with the lifecycle hooks on and the
# inline fast paths going through the library, the holder tests, and the
# telemetry server's page-pool-holders-get answered from real groups.
BUILD_HOLDERS ?= build-holders
HOLDERS_SUITES := --suite core --suite xdp --suite drivers --suite hardening --suite install \
		  --suite runtime --suite holders --suite telemetry
.PHONY: build-all test-all
build-all: deps
	$(call build_dir,$(BUILD_ALL),-Ddesigns=all)

# The AF_XDP suite (tests/xsk) is left out of this build: its forwarder
# runs the default designs here too, and make test, test-asan and
# test-tsan run it already.
# The programs the kernel-api and hardening tests build as users build are
# built once, in the first run, and kept for the ring-design runs
# (KAPI_CACHE, tests/kernel-api/run.sh): those change only PAGEPOOL_RING.
test-all: build-all
	@rm -rf $(BUILD_ALL)/kapi-cache
	$(call run_tests,$(BUILD_ALL),all-designs,KAPI_CACHE=$(abspath $(BUILD_ALL))/kapi-cache,--no-suite xsk $(SECONDARY))
	@KAPI_CACHE=$(abspath $(BUILD_ALL))/kapi-cache tools/test-ring-designs.sh $(BUILD_ALL) $(JOBS)
	$(call build_dir,$(BUILD_HOLDERS),-Dholders=true)
	$(call run_tests,$(BUILD_HOLDERS),holders,,$(HOLDERS_SUITES))

# The page-size builds (meson -Dpage_size, docs/PORTABILITY.md): every
# suite again with 16 KiB and with 64 KiB pages (MAX_PAGE_ORDER 11 and 13,
# arm64's), each in its own build directory, one summary line each.
# test-pagesizes runs both.
BUILD_16K ?= build-16k
BUILD_64K ?= build-64k
.PHONY: test-16k test-64k test-pagesizes
test-16k: deps
	$(call build_dir,$(BUILD_16K),-Dpage_size=16k)
	$(call run_tests,$(BUILD_16K),16k-pages,,$(SECONDARY))
test-64k: deps
	$(call build_dir,$(BUILD_64K),-Dpage_size=64k)
	$(call run_tests,$(BUILD_64K),64k-pages,,$(SECONDARY))
test-pagesizes: test-16k test-64k

# The aarch64 cross build (tools/cross/, docs/PORTABILITY.md): Debian's
# gcc-aarch64-linux-gnu and the :arm64 multiarch libraries
# (tools/cross/install-deps-arm64.sh installs what is missing), warnings as
# errors as in CI, every suite run under qemu-user through the cross file's
# exe wrapper: test-aarch64 with 4 KiB pages and 4 KiB guest pages,
# test-aarch64-64k with -Dpage_size=64k under a 64 KiB guest page size
# (qemu-aarch64 -p 65536, tools/cross/aarch64-64k.ini). One summary line
# each. Not run under qemu-user, and not defined in these builds:
#   xsk                      -Dxsk=disabled: AF_XDP sockets, bpf() and
#                            network namespaces are not emulated by
#                            qemu-user;
#   core/fast_path_no_atomics valgrind here is x86-64's; it cannot run an
#                            aarch64 program (its arm64 variant,
#                            core/fast_path_no_atomics_arm64, runs instead:
#                            tests/fastpath/meson.build).
# qemu translates every instruction: timeouts are scaled by
# QEMU_TIMEOUT_MULT, and no figure measured here is a CPU cycle count.
BUILD_AARCH64     ?= build-aarch64
BUILD_AARCH64_64K ?= build-aarch64-64k
QEMU_TIMEOUT_MULT ?= 3
CROSS_AARCH64     := --cross-file tools/cross/aarch64-linux-gnu.ini -Dxsk=disabled -Dwerror=true
QEMU_NOT_RUN      := "not run under qemu-user: suite xsk (-Dxsk=disabled: no AF_XDP/bpf()/netns emulation), core/fast_path_no_atomics (x86-64 valgrind; core/fast_path_no_atomics_arm64 runs instead)"
.PHONY: deps-aarch64 test-aarch64 test-aarch64-64k
# deps too: meson needs the build machine's cc, and the kernel-api tests'
# clang variants run when clang is there (clang --target=aarch64-linux-gnu).
deps-aarch64: deps
	@tools/cross/install-deps-arm64.sh
test-aarch64: deps-aarch64
	$(call build_dir,$(BUILD_AARCH64),$(CROSS_AARCH64))
	@echo "aarch64: "$(QEMU_NOT_RUN)
	$(call run_tests,$(BUILD_AARCH64),aarch64-qemu,,--timeout-multiplier $(QEMU_TIMEOUT_MULT) $(SECONDARY))
test-aarch64-64k: deps-aarch64
	$(call build_dir,$(BUILD_AARCH64_64K),$(CROSS_AARCH64) \
		--cross-file tools/cross/aarch64-64k.ini -Dpage_size=64k)
	@echo "aarch64-64k: "$(QEMU_NOT_RUN)
	$(call run_tests,$(BUILD_AARCH64_64K),aarch64-64k-qemu,,--timeout-multiplier $(QEMU_TIMEOUT_MULT) $(SECONDARY))

# The benchmark suite (docs/BENCHMARKS.md, tools/bench/run_bench.py): every
# program pinned, a discarded warm-up round, then BENCH_REPS rounds; prints
# the summary table and the acceptance verdicts (page_pool's fast path,
# ring and slow path against DPDK and absolute cycle targets; the XDP
# return generations), writes
# results/bench.csv, results/bench-summary.txt and results/bench.png.
# bench-short: the same pipeline with tiny loop counts and one round, for
# CI: it fails if a program fails or a line does not parse, never on
# timing. Both run in the all-designs build ($(BUILD_ALL)): the table sets
# the designs side by side in one run. A build directory configured before
# libdpdk-dev was installed is reconfigured first, so bench_peers exists.
BENCH_REPS ?= 5
define bench_reconfigure
	@if [ ! -x $(BUILD_ALL)/bench/bench_peers ] && pkg-config --exists libdpdk; then \
		meson setup --reconfigure $(BUILD_ALL) -Ddesigns=all $(MESON_ARGS) >/dev/null && \
		ninja -C $(BUILD_ALL) -j $(JOBS); fi
endef

# Then the AF_XDP forwarder against the fixed-frame baseline
# (bench/bench_xsk_fwd.sh, docs/BENCHMARKS.md) in the default build, the
# one users get: as root where network namespaces and AF_XDP work, else
# one "skipped" line.
bench: deps-bench build-all build
	$(bench_reconfigure)
	@tools/bench/run_bench.py --build $(BUILD_ALL) --out results --reps $(BENCH_REPS)
	@bench/bench_xsk_fwd.sh --build $(BUILD) --out results/bench-xsk.txt

# The AF_XDP forwarder alone: XSK_ROUNDS interleaved rounds of
# XSK_SECONDS per measurement.
XSK_ROUNDS  ?= 5
XSK_SECONDS ?= 3
.PHONY: bench-xsk
bench-xsk: build
	@bench/bench_xsk_fwd.sh --build $(BUILD) --rounds $(XSK_ROUNDS) --duration $(XSK_SECONDS) \
		--out results/bench-xsk.txt

.PHONY: bench-short
bench-short: deps-bench build-all build
	$(bench_reconfigure)
	@tools/bench/run_bench.py --build $(BUILD_ALL) --out results/short --short
	@bench/bench_xsk_fwd.sh --build $(BUILD) --short --out results/short/bench-xsk.txt

# The API reference (docs/api/index.html, generated, not in git): doxygen
# over the installed headers, whose kernel-doc comments
# tools/kerneldoc-filter.py translates. Fails if an exported function has
# no kernel-doc comment or doxygen warns (tools/check-apidocs.py; the
# build directory gives <generated/autoconf.h>). Then the checks' own
# tests that need doxygen, which the test suite has only in a build
# directory configured after doxygen was installed (tests/docs): a planted
# doxygen warning is caught, and the filter's sample gives the HTML it
# should.
docs: build
	@tools/install-deps.sh $(PKGS_DOCS)
	@tools/check-apidocs.py --build $(BUILD) --out docs/api
	@out=$$(tools/check-apidocs.py --build $(BUILD) --plant docwarn) || \
		{ echo "$$out"; exit 1; }; echo "$$out" | tail -n 1
	@tests/docs/check_filter.py --doxygen

# Kernel core mode (docs/KERNEL_CORE.md): a kernel tree's own
# net/core/page_pool.c, unchanged, on pagepool's runtime, mm and dma
# layers, and the suites that use only the kernel's API run against it.
# KSRC: a kernel tree (a directory) or a tarball of one; by default
# Debian's linux-source-6.12 (installed when missing). Only the files
# page_pool.c needs are unpacked, into $(BUILD_KCORE)-ksrc
# (tools/kcore/prepare.sh); nothing of the kernel is committed or
# installed. One summary line, then per suite the programs not run there
# (each says what pagepool-only part it needs) and those failing as
# declared (the kernel's own behaviour; tests/*/meson.build say why).
KSRC        ?=
BUILD_KCORE ?= build-kcore
KCORE_PKG     := linux-source-6.12
KCORE_TARBALL := /usr/src/linux-source-6.12.tar.xz
# The kernel's page_pool.c is one design: its ptr_ring, its DMA tracking.
KCORE_MESON_ARGS = -Dkernel_core=$(abspath $(BUILD_KCORE)-ksrc) -Ddesigns=default \
		   -Dring=ptr_ring -Ddma_tracking=index -Dholders=false -Dpoison=none
.PHONY: kernel-build kernel-test kernel-bench
kernel-build: deps
	@ksrc='$(KSRC)'; \
	if [ -z "$$ksrc" ]; then tools/install-deps.sh $(KCORE_PKG) && ksrc=$(KCORE_TARBALL); fi; \
	tools/kcore/prepare.sh "$$ksrc" $(BUILD_KCORE)-ksrc
	@if [ -f $(BUILD_KCORE)/build.ninja ]; then \
		meson setup --reconfigure $(BUILD_KCORE) $(KCORE_MESON_ARGS) $(MESON_ARGS) >/dev/null; \
	else meson setup $(BUILD_KCORE) $(KCORE_MESON_ARGS) $(MESON_ARGS); fi
	@ninja -C $(BUILD_KCORE) -j $(JOBS)

kernel-test: kernel-build
	@rc=0; meson test -C $(BUILD_KCORE) --print-errorlogs -v --num-processes $(JOBS) \
		>$(BUILD_KCORE)/test-output.txt 2>&1 || rc=$$?; \
	cat $(BUILD_KCORE)/test-output.txt; \
	for s in runtime mm dma kernel-api hardening stress fuzz kmod; do \
		tools/test-summary.py $(BUILD_KCORE)/meson-logs/testlog.json \
			"kernel-core $$(cat $(BUILD_KCORE)-ksrc/VERSION), $$s" --suite $$s || rc=1; \
	done; \
	tools/test-summary.py $(BUILD_KCORE)/meson-logs/testlog.json \
		"kernel-core $$(cat $(BUILD_KCORE)-ksrc/VERSION)" || rc=1; \
	exit $$rc

# The fuzz harness in its kernel-API form (tests/fuzz/kapi) under
# libFuzzer against the kernel tree's page_pool.c: a clang ASan+UBSan
# kernel core build (build-fuzz-kcore) for FUZZ_SECONDS from the committed
# corpus (tools/reliability/fuzz.sh -T kapi; docs/RELIABILITY.md).
.PHONY: kernel-fuzz
kernel-fuzz: deps-san kernel-build
	@MESON_ARGS="$(KCORE_MESON_ARGS) $(MESON_ARGS)" tools/reliability/fuzz.sh -T kapi \
		-t $(FUZZ_SECONDS) -b build-fuzz-kcore

# The same benchmarks against both cores in one run, interleaved
# (tools/kcore/bench.py): fast path, non-direct put, slow path, cross-CPU;
# medians of KBENCH_ROUNDS rounds and the ratios, into
# results/kernel-bench.txt.
KBENCH_ROUNDS ?= 5
kernel-bench: build kernel-build
	@tools/kcore/bench.py $(BUILD) $(BUILD_KCORE) --rounds $(KBENCH_ROUNDS) \
		--out results/kernel-bench.txt

# The AF_XDP forwarder end to end (examples/xdp_fwd, README "Run the
# AF_XDP forwarder"): as root, three network namespaces, pp-xsk-send ->
# xdp_fwd -> pp-xsk-sink for XDP_FWD_SECONDS, the totals, the namespaces
# removed. XDP_FWD_FRAMES=fixed runs the fixed-frame baseline instead.
XDP_FWD_FRAMES  ?= pagepool
XDP_FWD_SECONDS ?= 3
.PHONY: xdp-fwd-demo
xdp-fwd-demo: build
	@examples/xdp_fwd/demo.sh $(BUILD) $(XDP_FWD_FRAMES) $(XDP_FWD_SECONDS)

clean:
	rm -rf $(BUILD) $(BUILD_ALL) $(BUILD_HOLDERS) $(BUILD_16K) $(BUILD_64K) \
		$(BUILD_AARCH64) $(BUILD_AARCH64_64K) $(BUILD_KCORE) $(BUILD_KCORE)-ksrc \
		build-asan build-tsan docs/api

# The reliability suite (docs/RELIABILITY.md). Each target prints
# one summary line with its figures and fails on any violation.
#   make test-valgrind  valgrind memcheck over every unit test executable,
#                       from its own gcc -O1 -g build without sanitizers
#                       (build-vg): zero errors, zero definite or indirect
#                       leaks (memory reachable at exit is allowed).
#   make fuzz           the libFuzzer targets (clang, ASan+UBSan, debug_net;
#                       build-fuzz) for FUZZ_SECONDS from the committed
#                       corpora: a tenth to fuzz_telemetry (the telemetry
#                       request parser), of the rest two thirds to fuzz_pool
#                       (the fast target) and the rest to fuzz_pagepool
#                       (IOMMU + DMA-API debug); one summary line each.
#   make stress         the stress program for STRESS_SECONDS under
#                       ASan+UBSan and under TSan (the build-asan and
#                       build-tsan trees of test-asan / test-tsan; TSan with
#                       tools/reliability/tsan-known-races.supp).
# The long local run (>= 30 min fuzzing, 10^9 stress operations):
# tools/reliability/long-run.sh.
PKGS_VG        := valgrind
FUZZ_SECONDS   ?= 60
STRESS_SECONDS ?= 60

.PHONY: test-valgrind fuzz stress
test-valgrind: deps
	@tools/install-deps.sh $(PKGS_VG)
	@MESON_ARGS="$(MESON_ARGS)" tools/reliability/valgrind.sh build-vg

fuzz: deps-san
	@MESON_ARGS="$(MESON_ARGS)" tools/reliability/fuzz.sh -t $(FUZZ_SECONDS) -b build-fuzz

stress: deps-san
	$(call build_dir,build-asan,$(ASAN_MESON_ARGS))
	$(call build_dir,build-tsan,-Db_sanitize=thread -Db_lundef=false)
	@rc=0; \
	tools/reliability/stress.sh build-asan asan duration=$(STRESS_SECONDS) || rc=1; \
	tools/reliability/stress.sh build-tsan tsan duration=$(STRESS_SECONDS) || rc=1; \
	exit $$rc
