#!/bin/bash
# PID 1 in the VM started by scripts/vm-run.sh: mount what a test needs, run the
# command from the run directory (/run/vm), save the kernel log and the
# exit status there, and reboot (QEMU runs with -no-reboot, so it exits).
# Not set -e: whatever the command does, the status must reach the host.
set -u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp/home LANG=C.UTF-8 TERM=dumb

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
# What udev would add; scripts write to /dev/stdout (kselftest's runner).
ln -s /proc/self/fd /dev/fd
ln -s fd/0 /dev/stdin
ln -s fd/1 /dev/stdout
ln -s fd/2 /dev/stderr
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing
mount -t tmpfs tmpfs /run
mkdir -p /run/vm
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 vmrun /run/vm

# shellcheck source=/dev/null
. /run/vm/env.sh

# Scratch space on /tmp and /var/tmp that does not hide the repository or
# build folder if they live there: bind them aside, mount the tmpfs, and
# move them back on top.
keep=()
for dir in "$ROOT" "$BUILD"; do
	case "$dir" in /tmp/* | /var/tmp/*) keep+=("$dir") ;; esac
done
for i in "${!keep[@]}"; do
	mkdir -p "/run/keep/$i"
	mount --bind "${keep[$i]}" "/run/keep/$i"
done
mount -t tmpfs -o size=50% tmpfs /tmp
mount -t tmpfs tmpfs /var/tmp
for i in "${!keep[@]}"; do
	mkdir -p "${keep[$i]}"
	mount --move "/run/keep/$i" "${keep[$i]}"
done
mkdir -p "$HOME"
hostname flightrec-vm

cd /tmp || exit 1
# The command in a session of its own, so that a timeout can end all of it.
setsid bash /run/vm/cmd.sh </dev/null &
cmd=$!
# The guest's own timeout, before the host's: what is blocked, and which
# locks are held, reach the console and the saved kernel log.
# GUEST_TIMEOUT counts from the boot (the guest's uptime follows the
# host's clock under TCG), so a slow boot shortens it; 0 (under -icount,
# where idle time is skipped) means none.
watchdog=
if [ "${GUEST_TIMEOUT:-0}" -gt 0 ]; then
	read -r up _ </proc/uptime
	left=$((GUEST_TIMEOUT - ${up%.*}))
	[ "$left" -gt 0 ] || left=1
	(
		sleep "$left"
		echo "guest: no end after $GUEST_TIMEOUT s: blocked tasks and held locks follow"
		: >/run/vm/guest-timeout
		echo w >/proc/sysrq-trigger
		echo d >/proc/sysrq-trigger
		# The evidence first: the leak scans below take a while
		# under KASAN, and the host may not wait for them.
		dmesg >/run/vm/dmesg.txt
		kill -KILL -- "-$cmd"
	) &
	watchdog=$!
fi
wait "$cmd"
rc=$?
[ -z "$watchdog" ] || kill "$watchdog" 2>/dev/null
[ ! -e /run/vm/guest-timeout ] || rc=124

# Report leaks: two scans, because kmemleak only reports an object that
# stayed unreferenced and unchanged across a scan.
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak
	echo scan >/sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak >/run/vm/kmemleak.txt
fi
dmesg >/run/vm/dmesg.txt
echo "$rc" >/run/vm/status
sync
umount /run/vm
echo b >/proc/sysrq-trigger
