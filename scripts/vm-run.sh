#!/usr/bin/env bash
# vm-run.sh [options] -- COMMAND...: boot a built kernel in QEMU and run
# COMMAND in it as root; stream its output; exit with its status.
#
# The guest's root file system is the host's, over virtio-9p and read-only
# (as virtme-ng does): the built perf, selftests and scripts are at the
# same paths as on the host, nothing is copied and nothing needs an image.
# /tmp is a tmpfs (scratch; the repository stays visible even if it lives
# under /tmp), and $VM_OUT is a writable 9p share whose files come back
# to the host in the run directory.
#
# The run fails if the kernel log shows a BUG, WARNING, KASAN, lockdep or
# kmemleak report, an oops or a panic; the report is printed, on a timeout
# too. A minute before the timeout the guest dumps its blocked tasks and
# saves its kernel log itself (guest/init.sh), so a hang keeps its evidence.
#
# The i386 flavour boots qemu-system-i386 with guest/init32.c as PID 1:
# COMMAND is then TIMEOUT TEST... (static i386 kselftest binaries).
#
# Options:
#   -k release|debug|i386|bench   kernel flavour (default: debug)
#   -c N         CPUs (default 4)         -m MB   memory (default 1024)
#   -t SECONDS   timeout (default 1800)   -o DIR  run directory to keep
#   -i           deterministic timing: -icount shift=0,sleep=off
#   -a ARGS      append ARGS to the kernel command line (repeatable)
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

flavour=debug cpus=${VM_CPUS:-4} mem=1024 timeout=1800 rundir='' icount='' append=''
while getopts "k:c:m:t:o:ia:" opt; do
	case "$opt" in
	k) flavour=$OPTARG ;;
	c) cpus=$OPTARG ;;
	m) mem=$OPTARG ;;
	t) timeout=$OPTARG ;;
	o) rundir=$OPTARG ;;
	i) icount=1 ;;
	a) append+=" $OPTARG" ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" != -- ] || shift
[ $# -gt 0 ] || die "usage: vm-run.sh [options] -- COMMAND..."

kernel=${KERNEL_OUT:-$BUILD/kernel-$flavour}/arch/x86/boot/bzImage
[ -f "$kernel" ] || die "no kernel at $kernel: run 'make kernel-$flavour'"

if [ -z "$rundir" ]; then
	mkdir -p "$BUILD/vm"
	rundir=$(mktemp -d "$BUILD/vm/run.XXXXXX")
fi
rm -rf "$rundir"
mkdir -p "$rundir/out"
rundir=$(cd "$rundir" && pwd)

# The guest gives up a minute before the host does, keeping the evidence.
# Under -icount the guest skips its idle time, so its clock cannot time
# anything: no guest timeout then.
guest_timeout=$((timeout > 120 ? timeout - 60 : timeout / 2))
[ -z "$icount" ] || guest_timeout=0

# The command and its environment, read by guest/init.sh.
{
	printf 'export ROOT=%q BUILD=%q VM_OUT=/run/vm/out GUEST_TIMEOUT=%d\n' \
		"$ROOT" "$BUILD" "$guest_timeout"
	# PATH is expanded in the guest.
	# shellcheck disable=SC2016
	printf 'export PATH=%q:"$PATH"\n' "$BUILD/perf"
} >"$rundir/env.sh"
printf '%q ' "$@" >"$rundir/cmd.sh"

# loglevel=5: the console shows KERN_WARNING, so WARN and lockdep reports
# reach console.log even when the guest hangs before saving dmesg.
# tsc=reliable: under TCG on a loaded host the clocksource watchdog finds
# the TSC (the host's clock) skewed against jiffies, which the kernels use
# for want of an HPET (only ACPI would list one), and falls back to
# jiffies as its clock.
# reboot=t: without ACPI or a keyboard controller, the kernel's default
# reboot methods take 25 s to fall through to a triple fault.
cmdline=(console=ttyS0 loglevel=5 printk.time=1 panic=-1 reboot=t tsc=reliable
	root=hostroot rootfstype=9p ro
	"rootflags=trans=virtio,version=9p2000.L,msize=512000,cache=loose")
# host_tsc_khz: the host's TSC frequency in kHz, as its kernel found it
# (refined against an HPET or PM timer, or detected: a "MHz TSC" line when
# it differs from the CPU's). Without the kernel log, /proc/cpuinfo's
# "cpu MHz" where it is the TSC's: a constant TSC and no cpufreq (with
# cpufreq it is the current frequency). Fails if neither is known.
host_tsc_khz() {
	local mhz
	mhz=$(dmesg 2>/dev/null | sed -nE \
		-e 's/.*tsc: Refined TSC clocksource calibration: ([0-9.]+) MHz.*/1 \1/p' \
		-e 's/.*tsc: Detected ([0-9.]+) MHz TSC.*/2 \1/p' \
		-e 's/.*tsc: Detected ([0-9.]+) MHz processor.*/3 \1/p' |
		sort -s -n -k1,1 | awk 'NR == 1 { print $2 }')
	if [ -z "$mhz" ] && [ ! -e /sys/devices/system/cpu/cpu0/cpufreq ]; then
		mhz=$(awk '/^flags/ && / constant_tsc / { c = 1 }
			/^cpu MHz/ && !m { m = $4 }
			END { if (c) print m }' /proc/cpuinfo)
	fi
	awk -v m="${mhz:-0}" 'BEGIN { if (m < 100) exit 1; printf "%d\n", m * 1000 }'
}

# tsc_early_khz: under TCG the guest's TSC is the host's, and on a loaded
# host the guest fails to calibrate it against the PIT. microvm has no HPET
# or ACPI PM timer to fall back on, so the kernel then gives up the TSC
# and its clock ticks in jiffies: records of one 4 ms tick share a
# timestamp, and perf sorts a process's EXIT before its own samples. The
# host's TSC frequency is given instead (under -icount the TSC follows the
# virtual clock, and the PIT calibration is exact).
rm -f "$rundir/tsc_khz"
if [ -z "$icount" ] && tsc_khz=$(host_tsc_khz); then
	cmdline+=("tsc_early_khz=$tsc_khz")
	echo "$tsc_khz" >"$rundir/tsc_khz"
fi
if [ -n "$append" ]; then
	read -ra extra <<<"$append"
	cmdline+=("${extra[@]}")
fi
# TCG's "max" CPU says AuthenticAMD, and a 32-bit kernel warns that such
# an "Athlon" is not fit for SMP: the i386 guest gets the same CPU as Intel.
if [ "$flavour" = i386 ]; then
	qemu=(qemu-system-i386 -cpu "max,vendor=GenuineIntel")
	# Not behind "--": microvm appends its devices to the command line.
	cmdline+=(init="$BUILD/kselftest-i386/init32")
	printf '%s\n' "$@" >"$rundir/args"
else
	qemu=(qemu-system-x86_64 -cpu max)
	cmdline+=(init="$ROOT/guest/init.sh")
fi
qemu+=(-machine "microvm,acpi=off" -accel "tcg${TCG_OPTS:+,$TCG_OPTS}"
	-smp "$cpus" -m "$mem" -nodefaults -no-user-config -display none
	-no-reboot -serial stdio -kernel "$kernel"
	-fsdev "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap"
	-device "virtio-9p-device,fsdev=hostroot,mount_tag=hostroot"
	-fsdev "local,id=vmrun,path=$rundir,security_model=none"
	-device "virtio-9p-device,fsdev=vmrun,mount_tag=vmrun"
	-append "${cmdline[*]}")
[ -z "$icount" ] || qemu+=(-icount "shift=0,sleep=off")

# QEMU runs in the background so that a signal to this script is handled
# at once (bash runs traps only between foreground commands) and takes
# QEMU down with it: Ctrl-C or CI's SIGTERM leaves no VM behind.
trap 'trap - INT TERM; kill_tree_below $$; exit 130' INT TERM
start=$(date +%s.%N)
rc=0
{
	timeout --kill-after=10 "$timeout" "${qemu[@]}" </dev/null
	echo $? >"$rundir/qemu-rc"
} | sed -u 's/\r$//' | tee "$rundir/console.log" &
wait $! || true
rc=$(cat "$rundir/qemu-rc" 2>/dev/null || echo 1)
secs=$(echo "$(date +%s.%N) - $start" | bc)

log_ok=0
"$ROOT/scripts/kernel-log-check.sh" "$rundir/dmesg.txt" \
	"$rundir/kmemleak.txt" "$rundir/console.log" >&2 || log_ok=1

if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	echo "vm-run: TIMEOUT after ${timeout}s (run dir $rundir)" >&2
	exit 124
fi
[ "$log_ok" = 0 ] || exit 1

if [ ! -f "$rundir/status" ]; then
	echo "vm-run: the guest stopped before the command finished" >&2
	exit 1
fi
status=$(cat "$rundir/status")
echo "vm-run: exit $status, $(printf '%.1f' "$secs") s, run dir $rundir" >&2
exit "$status"
