# The index of what a person does here; each target runs one script.
# The two commands in README.md (demo, check) also work without make.

SHELL := /bin/bash
S := scripts

.PHONY: help setup tree export status kernel-release kernel-debug kernel-i386 \
	kernel-base perf selftests selftests-i386 run check demo bench postings \
	bench-snapshot vm-max deb clean

help:
	@echo "demo           build what is needed and show the feature in the VM"
	@echo "check          the test command: every check, ends 'N passed, N failed'"
	@echo "setup          install packages and the base source package"
	@echo "tree           make build/linux: base commit + one commit per patch"
	@echo "export         write the tree's commits back to patches/"
	@echo "status         does the tree hold work that is not exported?"
	@echo "postings       the postings as they would be sent, in build/postings/"
	@echo "kernel-release build the demo/benchmark kernel (configs/release.config)"
	@echo "kernel-debug   build the debug kernel the tests run on"
	@echo "kernel-i386    build the 32-bit kernel of the series"
	@echo "kernel-base    the unpatched base kernel (release config) and its perf"
	@echo "perf           build perf from the tree (pinned features)"
	@echo "selftests      build the perf_events kselftests (selftests-i386: -m32)"
	@echo "run CMD=...    boot the debug kernel (KERNEL=release for the other) and run CMD"
	@echo "vm-max         the many-CPU VM's tests on 255 vCPUs (about 17 min)"
	@echo "bench          per-record write cost of each ring-buffer mode (-icount, -O2)"
	@echo "bench-snapshot perf record's CPU: plain, --overwrite, --sample-snapshot"
	@echo "deb            Debian packages of the patched kernel (hours)"

setup:
	$(S)/setup.sh
tree: setup
	$(S)/tree.sh
export:
	$(S)/export.sh
status:
	$(S)/status.sh
postings:
	$(S)/postings.sh
kernel-release kernel-debug kernel-i386: kernel-%:
	$(S)/build-kernel.sh $*
# The base VM's tests need both: the base kernel and the base's own perf.
kernel-base:
	$(S)/build-base-kernel.sh
perf:
	$(S)/build-perf.sh
selftests:
	$(S)/build-selftests.sh
selftests-i386:
	$(S)/build-selftests.sh i386
run:
	$(S)/vm-run.sh -k $(or $(KERNEL),debug) -- bash -c '$(CMD)'
check:
	check/run.sh
demo:
	$(S)/demo.sh
# The most vCPUs QEMU 7.2's TCG boots (256 needs x2APIC, emulated only
# with KVM), too slow for the test command. Bring-up one CPU at a time:
# with parallel bring-up, the APs that wait spin through their TCG time
# slices and CPU 0 barely runs (stuck for 10 min).
vm-max: kernel-release perf selftests
	TCG_OPTS=thread=single $(S)/vm-run.sh -k release -c 255 -m 4096 \
		-a cpuhp.parallel=0 -o $(CURDIR)/build/vm-max -t 2400 -- \
		bash $(CURDIR)/guest/run-tests.sh many
# Builds its own kernels: the series' and the base's, -O2 (configs/bench.config).
bench:
	$(S)/bench.sh
bench-snapshot: kernel-release perf
	$(S)/bench-snapshot.sh
deb:
	$(S)/deb.sh
clean:
	rm -rf build/kernel-* build/linux-base-bench build/perf build/perf-base build/kselftest* build/vm build/check build/logs
