# shellcheck shell=bash
# The VM stage (sourced by check/run.sh): the VMs of check/vm-tests.list,
# at most two at a time (the host has two cores; each VM has one boot),
# longest first, each bounded by what is left of the budget. Then every
# VM's outputs are classified, and a test that check/expected-results.txt
# lists but no VM reported fails the run.

# vm_spec VM: the vm-run.sh options of a VM.
vm_spec() {
	case "$1" in
	a) echo "-k debug -c 4" ;;
	release) echo "-k release -c 4" ;;
	many) echo "-k release -c 64 -m 2048" ;;
	one) echo "-k release -c 1" ;;
	two) echo "-k release -c 2" ;;
	i386) echo "-k i386 -c 4 -m 768" ;;
	base) echo "-k release -c 2" ;;
	# Sessions from the kernel command line: three valid, eleven malformed
	# (tools/testing/selftests/perf_events/persistent_boot.c lists them),
	# and mces, the machine checks from boot on (mce:mce_record, which
	# the debug kernel has): guest/boot-sessions.sh injects a corrected
	# one and reads it from there.
	boot)
		echo "-k debug -c 2" \
			-a perf_persistent=boot_execs,sched:sched_process_exec,size=64K \
			-a perf_persistent=boot_faults,page-faults,period=10 \
			-a perf_persistent=9bad,dummy \
			-a perf_persistent=boot_nosuch,nosuch:event \
			-a perf_persistent=boot_size,cpu-clock,size=1Q \
			-a perf_persistent=boot_execs,dummy \
			-a perf_persistent=boot_noevent \
			-a perf_persistent=boot_opt,dummy,color=red \
			-a "perf_persistent=boot_frz,cpu-clock,freeze=task:task_rename,filter=newcomm=='a,b'||newcomm=='bootfrz'" \
			-a perf_persistent=boot_nof,dummy,filter=newcomm==x \
			-a perf_persistent=boot_tmr,dummy,freeze=cpu-clock \
			-a perf_persistent=boot_wrap,dummy,size=18014398509481988K \
			-a perf_persistent=boot_twice,page-faults,freeze=task:task_rename,freeze=sched:sched_process_exec \
			-a perf_persistent=boot_size2,dummy,size=64K,size=64K \
			-a perf_persistent=mces,mce:mce_record,size=64K
		;;
	*) return 1 ;;
	esac
}

# vm_job VM SECONDS: boot VM, run its tests, leave the status in
# $CHECK_DIR/vm-VM/rc and the output in $LOGS/vm-VM.log.
vm_job() {
	local vm=$1 secs=$2 rundir=$CHECK_DIR/vm-$1 start rc=0 cmd opts
	local -a env=()
	start=$(date +%s)
	mkdir -p "$rundir"
	read -ra opts <<<"$(vm_spec "$vm")"
	if [ "$vm" = i386 ]; then
		# init32 runs static binaries: TIMEOUT TEST...
		mapfile -t cmd < <(awk '$1 == "i386" { print $2; exit }' \
			"$ROOT/check/vm-tests.list"
			awk -v d="$BUILD/kselftest-i386/perf_events" \
				'$1 == "i386" && $3 == "kselftest" { print d "/" $4 }' \
				"$ROOT/check/vm-tests.list")
	else
		cmd=(bash "$ROOT/guest/run-tests.sh" "$vm")
	fi
	[ "$vm" != base ] || env=(env KERNEL_OUT="$BUILD/kernel-base")
	# 64 vCPUs on 2 host cores: multi-threaded TCG takes minutes to
	# boot them, single-threaded TCG 14 s (the debug kernel stalls RCU).
	[ "$vm" != many ] || env=(env TCG_OPTS=thread=single)
	echo "==> vm $vm (${opts[*]}, at most $(fmt_secs "$secs"))"
	"${env[@]}" "$ROOT/scripts/vm-run.sh" "${opts[@]}" -o "$rundir" \
		-t "$secs" -- "${cmd[@]}" >"$LOGS/vm-$vm.log" 2>&1 || rc=$?
	echo "$rc" >"$rundir/rc"
	echo "$vm $(($(date +%s) - start))" >>"$CHECK_DIR/vm-times"
	if [ "$rc" = 0 ]; then
		echo "[ ok ] vm $vm ($(fmt_secs $(($(date +%s) - start))))"
	else
		echo "[FAIL] vm $vm: exit $rc ($(fmt_secs $(($(date +%s) - start)))), log: $LOGS/vm-$vm.log"
		tail -n 30 "$LOGS/vm-$vm.log" | sed 's/^/    /'
	fi
}

vm_stage() {
	local vm secs left running=0 name want
	local -a vms=(a release base boot many two one i386)
	rm -rf "$CHECK_DIR"/vm-*
	mkdir -p "$LOGS"
	if grep -qE '^FAIL (kernel-|perf$|selftests)' "$RESULTS"; then
		record FAIL "vm-tests (not run: a build failed)"
		return
	fi
	for vm in "${vms[@]}"; do
		if [ "$running" -ge 2 ]; then
			wait -n || true
			running=$((running - 1))
		fi
		# Whatever is left, less a minute to classify and report.
		left=$(($(remaining) - 60))
		secs=$((left < ${VM_TIMEOUT:-2700} ? left : ${VM_TIMEOUT:-2700}))
		if [ "$secs" -lt 120 ]; then
			mkdir -p "$CHECK_DIR/vm-$vm"
			echo "no time left" >"$CHECK_DIR/vm-$vm/rc"
			echo "[FAIL] vm $vm: not started, no time left"
			continue
		fi
		# A base that was not built now leaves an older one in place.
		if [ "$vm" = base ] && grep -q '^FAIL bisect 00/' "$RESULTS"; then
			mkdir -p "$CHECK_DIR/vm-$vm"
			echo "the base was not built" >"$CHECK_DIR/vm-$vm/rc"
			echo "[FAIL] vm $vm: not started, the base was not built"
			continue
		fi
		vm_job "$vm" "$secs" &
		running=$((running + 1))
	done
	wait
	for vm in "${vms[@]}"; do
		if [ "$(cat "$CHECK_DIR/vm-$vm/rc" 2>/dev/null)" != 0 ]; then
			record FAIL "vm-$vm (the VM run failed: see $LOGS/vm-$vm.log)"
		fi
		# A fault of classify.sh fails the run by name, not by aborting it.
		"$ROOT/check/classify.sh" "$CHECK_DIR/vm-$vm" "$vm" >>"$RESULTS" ||
			record FAIL "vm-$vm (check/classify.sh exited $?: its results are incomplete)"
	done
	while read -r name want _; do
		case "$name" in '' | '#'*) continue ;; esac
		awk -v n="$name" '$2 == n { f = 1 } END { exit !f }' "$RESULTS" ||
			record FAIL "$name (listed as $want in check/expected-results.txt, but did not run)"
	done <"$ROOT/check/expected-results.txt"
}
