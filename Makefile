# The index of what a person does here; each target runs one script.
# The two commands in README.md (demo, check) also work without make.

SHELL := /bin/bash
S := scripts

.PHONY: help setup tree export status kernel-vm kernel-test perf selftests \
	run check demo bench bench-snapshot deb clean

help:
	@echo "demo         build what is needed and show the feature in the VM"
	@echo "check        the test command: every check, ends 'N passed, N failed'"
	@echo "setup        install packages and the base source package"
	@echo "tree         make build/linux: base commit + one commit per patch"
	@echo "export       write the tree's commits back to patches/"
	@echo "status       does the tree hold work that is not exported?"
	@echo "kernel-vm    build the demo/benchmark kernel"
	@echo "kernel-test  build the debug kernel the tests run on"
	@echo "perf         build perf from the tree"
	@echo "selftests    build and install the perf_events kselftests"
	@echo "run CMD=...  boot the test kernel (KERNEL=vm for the other) and run CMD"
	@echo "bench        per-record write cost of each ring-buffer mode (-icount)"
	@echo "bench-snapshot  perf record's CPU: plain, --overwrite, --sample-snapshot"
	@echo "deb          Debian packages of the patched kernel (hours)"

setup:
	$(S)/setup.sh
tree: setup
	$(S)/tree.sh
export:
	$(S)/export.sh
status:
	$(S)/status.sh
kernel-vm kernel-test: kernel-%:
	$(S)/build-kernel.sh $*
perf:
	$(S)/build-perf.sh
selftests:
	$(S)/build-selftests.sh
run:
	$(S)/vm-run.sh -k $(or $(KERNEL),test) -- bash -c '$(CMD)'
check:
	$(S)/check.sh
demo:
	$(S)/demo.sh
bench: kernel-vm
	$(S)/bench.sh
bench-snapshot: kernel-vm perf
	$(S)/bench-snapshot.sh
deb:
	$(S)/deb.sh
clean:
	rm -rf build/kernel-* build/perf build/kselftest* build/vm build/check build/logs
