// SPDX-License-Identifier: GPL-2.0
/*
 * PID 1 of the i386 guest (scripts/vm-run.sh -k i386). The guest's root is
 * the host's file system over 9p, as for the other guests, but its
 * programs are x86_64 and cannot run on a 32-bit kernel: so this init is
 * a static i386 binary, and so are the tests it runs.
 *
 * Its command, TIMEOUT TEST..., is in /run/vm/args, one word a line (QEMU's
 * microvm machine appends its devices to the kernel command line, behind
 * a "--" that would carry init's arguments). It
 * runs each TEST (a static kselftest binary) with TIMEOUT seconds, prints
 * and saves its output in run_kselftest.sh's TAP shape to
 * /run/vm/out/kselftest.tap, saves the kernel log and a status, and
 * reboots, which ends QEMU (-no-reboot).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define KSFT_SKIP 4
#define MAX_ARGS 64

static volatile sig_atomic_t child;

static void on_alarm(int sig)
{
	(void)sig;
	if (child > 0)
		kill(-child, SIGKILL);
}

static void must_mount(const char *src, const char *dir, const char *type,
		       unsigned long flags, const char *opts)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, flags, opts))
		fprintf(stderr, "init32: mount %s on %s: %s\n", type, dir,
			strerror(errno));
}

/* Print a line to the console and to the TAP file. */
static void out(FILE *tap, const char *line)
{
	fputs(line, stdout);
	fputs(line, tap);
	fflush(stdout);
	fflush(tap);
}

/*
 * Run one test: its output as TAP comments, then its result line. A test
 * given as "PATH,ARG" runs PATH with the argument ARG (a command line has
 * no spaces to spare) and is named after both.
 */
static void run_test(FILE *tap, int n, const char *test, unsigned int secs)
{
	const char *name = strrchr(test, '/') ? strrchr(test, '/') + 1 : test;
	char path[4096], line[4096], buf[4200], *arg;
	int fds[2], status = 0, timed_out;
	FILE *in;

	snprintf(path, sizeof(path), "%s", test);
	arg = strchr(path, ',');
	if (arg)
		*arg++ = '\0';
	snprintf(buf, sizeof(buf), "# selftests: perf_events: %s\n", name);
	out(tap, buf);
	if (pipe(fds))
		return;
	child = fork();
	if (child < 0) {
		close(fds[0]);
		close(fds[1]);
		snprintf(buf, sizeof(buf),
			 "not ok %d selftests: perf_events: %s # fork: %s\n",
			 n, name, strerror(errno));
		out(tap, buf);
		return;
	}
	if (child == 0) {
		setpgid(0, 0);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		execl(path, path, arg, (char *)NULL);
		fprintf(stderr, "exec %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	alarm(secs);
	in = fdopen(fds[0], "r");
	while (in && fgets(line, sizeof(line), in)) {
		snprintf(buf, sizeof(buf), "# %s", line);
		out(tap, buf);
	}
	if (in)
		fclose(in);
	waitpid(child, &status, 0);
	timed_out = alarm(0) == 0 && WIFSIGNALED(status) &&
		    WTERMSIG(status) == SIGKILL;
	child = 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		snprintf(buf, sizeof(buf), "ok %d selftests: perf_events: %s\n",
			 n, name);
	else if (WIFEXITED(status) && WEXITSTATUS(status) == KSFT_SKIP)
		snprintf(buf, sizeof(buf),
			 "ok %d selftests: perf_events: %s # SKIP\n", n, name);
	else
		snprintf(buf, sizeof(buf),
			 "not ok %d selftests: perf_events: %s%s\n", n, name,
			 timed_out ? " # TIMEOUT" : "");
	out(tap, buf);
}

static void mkdir_p(const char *path)
{
	char dir[4096], *p;

	snprintf(dir, sizeof(dir), "%s", path);
	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(dir, 0755);
		*p = '/';
	}
	mkdir(dir, 0755);
}

/*
 * A tmpfs on /tmp as scratch, without hiding the tests when the
 * repository lives under /tmp: their folder is moved aside and back on
 * top, as guest/init.sh does for the other guests.
 */
static void scratch_tmp(const char *test)
{
	char dir[4096], *slash;
	int keep = test && !strncmp(test, "/tmp/", 5);

	if (keep) {
		snprintf(dir, sizeof(dir), "%s", test);
		slash = strrchr(dir, '/');
		*slash = '\0';
		mkdir("/run/keep", 0755);
		if (mount(dir, "/run/keep", NULL, MS_BIND, NULL))
			keep = 0;
	}
	must_mount("tmpfs", "/tmp", "tmpfs", 0, NULL);
	if (keep) {
		mkdir_p(dir);
		if (mount("/run/keep", dir, NULL, MS_MOVE, NULL))
			fprintf(stderr, "init32: cannot keep %s: %s\n", dir,
				strerror(errno));
	}
}

static void save_kernel_log(void)
{
	int size = klogctl(10, NULL, 0), len;
	char *log = size > 0 ? malloc(size) : NULL;
	FILE *f;

	if (!log)
		return;
	len = klogctl(3, log, size);
	f = fopen("/run/vm/dmesg.txt", "w");
	if (f && len > 0)
		fwrite(log, 1, len, f);
	if (f)
		fclose(f);
	free(log);
}

/* The words of /run/vm/args, one a line, into args[]; returns how many. */
static int read_args(char **args, int max)
{
	static char buf[16384];
	FILE *f = fopen("/run/vm/args", "r");
	char *word, *save;
	size_t len;
	int n = 0;

	if (!f)
		return 0;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	if (!feof(f))
		fprintf(stderr, "init32: /run/vm/args is cut at %zu bytes\n", len);
	fclose(f);
	buf[len] = '\0';
	for (word = strtok_r(buf, "\n", &save); word;
	     word = strtok_r(NULL, "\n", &save)) {
		if (n == max) {
			fprintf(stderr, "init32: more than %d words in /run/vm/args\n",
				max);
			break;
		}
		args[n++] = word;
	}
	return n;
}

int main(void)
{
	char *args[MAX_ARGS];
	unsigned int secs;
	FILE *tap, *status;
	int i, nargs;

	must_mount("proc", "/proc", "proc", 0, NULL);
	must_mount("sysfs", "/sys", "sysfs", 0, NULL);
	must_mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	must_mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	must_mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL);
	must_mount("tmpfs", "/run", "tmpfs", 0, NULL);
	must_mount("vmrun", "/run/vm", "9p", 0,
		   "trans=virtio,version=9p2000.L,msize=512000");
	nargs = read_args(args, MAX_ARGS);
	secs = nargs > 0 ? strtoul(args[0], NULL, 0) : 0;
	scratch_tmp(nargs > 1 ? args[1] : NULL);
	signal(SIGALRM, on_alarm);
	chdir("/tmp");

	tap = fopen("/run/vm/out/kselftest.tap", "w");
	if (!tap || !secs) {
		fprintf(stderr, "init32: no TIMEOUT TEST... in /run/vm/args (%s)\n",
			tap ? "no timeout" : strerror(errno));
	} else {
		printf("guest: i386, %ld CPUs online\n",
		       sysconf(_SC_NPROCESSORS_ONLN));
		for (i = 1; i < nargs; i++)
			run_test(tap, i, args[i], secs);
		fclose(tap);
	}
	save_kernel_log();
	status = fopen("/run/vm/status", "w");
	if (status) {
		fprintf(status, "%d\n", tap && secs ? 0 : 2);
		fclose(status);
	}
	sync();
	umount("/run/vm");
	reboot(RB_AUTOBOOT);
	return 0;
}
