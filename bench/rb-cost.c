// SPDX-License-Identifier: GPL-2.0
/*
 * Write-path cost of perf ring buffers, per record: a syscall tracepoint
 * with sample_period = 1 fires on every getppid(); the same loop runs with
 * the event writing into no buffer, a forward writable buffer, a forward
 * read-only overwrite buffer as the base kernel has it, the same with
 * attr.tail_track (the kernel keeps data_tail at the oldest record), that
 * with a trigger that could freeze it (PERF_EVENT_IOC_SET_TRIGGER, never
 * firing) and a backward buffer; and, for a peer, with no perf event but
 * ftrace recording the same tracepoint into an overwriting instance
 * buffer of the same size, against the loop with nothing traced. Run it
 * under QEMU -icount so that time counts guest instructions.
 *
 * Built against the series' UAPI headers; on a kernel without tail
 * tracking those modes print n/a.
 *
 * Usage: rb-cost [loops] [rounds] [data pages...]  (default 1 8 64)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define TRACING		"/sys/kernel/tracing"
#define TRACEPOINT	TRACING "/events/syscalls/sys_enter_getppid/id"
#define INSTANCE	TRACING "/instances/rb-cost"

enum mode {
	NO_BUFFER, WRITABLE, OVERWRITE, TAIL_TRACKED, TRIGGER, BACKWARD,
	UNTRACED, FTRACE, NR_MODES
};

/* Data pages of the buffers of this table. */
static long data_pages;

static const char * const mode_name[NR_MODES] = {
	"no buffer", "forward writable", "forward overwrite", "tail-tracked",
	"tail+trigger", "backward", "untraced", "ftrace overwrite",
};

/* A record: header, ip, pid/tid, time. */
#define RECORD_SIZE	32

/*
 * What the tail-tracked buffer held after its last run: the bytes free
 * after the last overflow (less than a record if nothing was dropped
 * beyond need), the records held and those counted as overwritten.
 */
static long tail_free, tail_held, tail_overwritten;

static double now_ns(void);

static int write_file(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -1;
	ret = fputs(val, f) < 0;
	return fclose(f) || ret ? -1 : 0;
}

/* Entries held plus overwritten in the instance's buffer of CPU 0. */
static long ftrace_records(void)
{
	char line[128];
	long n, sum = 0;
	FILE *f = fopen(INSTANCE "/per_cpu/cpu0/stats", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "entries: %ld", &n) == 1 ||
		    sscanf(line, "overrun: %ld", &n) == 1)
			sum += n;
	fclose(f);
	return sum;
}

/*
 * The peer: getppid() with no perf event, untraced or recorded by ftrace
 * into an instance of data_pages pages per CPU (overwrite, its default).
 */
static double run_untraced(enum mode mode, long loops, long *records)
{
	long page = sysconf(_SC_PAGESIZE), i;
	char kb[32];
	double t0, t1;

	*records = loops;
	if (mode == FTRACE) {
		snprintf(kb, sizeof(kb), "%ld", data_pages * page / 1024);
		rmdir(INSTANCE);
		if (mkdir(INSTANCE, 0700) ||
		    write_file(INSTANCE "/buffer_size_kb", kb) ||
		    write_file(INSTANCE "/options/overwrite", "1") ||
		    write_file(INSTANCE "/events/syscalls/sys_enter_getppid/enable", "1")) {
			fprintf(stderr, "rb-cost: no ftrace instance: %s\n",
				strerror(errno));
			rmdir(INSTANCE);
			return -1;
		}
	}
	t0 = now_ns();
	for (i = 0; i < loops; i++)
		syscall(__NR_getppid);
	t1 = now_ns();
	if (mode == FTRACE) {
		write_file(INSTANCE "/events/syscalls/sys_enter_getppid/enable", "0");
		*records = ftrace_records();
		rmdir(INSTANCE);
	}
	return (t1 - t0) / loops;
}

static int tracepoint_id(void)
{
	FILE *f = fopen(TRACEPOINT, "r");
	int id = -1;

	if (!f || fscanf(f, "%d", &id) != 1)
		id = -1;
	if (f)
		fclose(f);
	return id;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/*
 * A trigger on @fd's buffer that never fires (a dummy event): what the
 * write path pays for a buffer that can be frozen. 0 or -errno.
 */
static int set_idle_trigger(int fd)
{
	struct perf_event_attr trig = {
		.size		= sizeof(trig),
		.type		= PERF_TYPE_SOFTWARE,
		.config		= PERF_COUNT_SW_DUMMY,
		.sample_period	= 1,
	};
	struct perf_event_trigger t = {
		.size		= sizeof(t),
		.attr		= (uintptr_t)&trig,
		.buffers	= (uintptr_t)&fd,
		.nr_buffers	= 1,
	};

	return ioctl(fd, PERF_EVENT_IOC_SET_TRIGGER, &t) ? -errno : 0;
}

/*
 * Nanoseconds (guest instructions under -icount) per getppid() in @mode,
 * or -1 if the kernel has no such mode.
 */
static double run(enum mode mode, int id, long loops, long *records)
{
	struct perf_event_attr attr = {
		.size		= sizeof(attr),
		.type		= PERF_TYPE_TRACEPOINT,
		.config		= id,
		.sample_period	= 1,
		.sample_type	= PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
		.disabled	= 1,
		.write_backward	= mode == BACKWARD,
		.tail_track	= mode == TAIL_TRACKED || mode == TRIGGER,
	};
	long page = sysconf(_SC_PAGESIZE), i;
	size_t len = (data_pages + 1) * page;
	struct perf_event_mmap_page *pc = NULL;
	double t0, t1;
	__u64 count;
	int fd;

	if (mode == UNTRACED || mode == FTRACE)
		return run_untraced(mode, loops, records);
	fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0 && errno == EINVAL && attr.tail_track) {
		*records = loops;
		return -1;	/* a kernel without tail tracking */
	}
	if (fd < 0) {
		fprintf(stderr, "rb-cost: perf_event_open: %s\n", strerror(errno));
		exit(1);
	}
	if (mode != NO_BUFFER) {
		pc = mmap(NULL, len, PROT_READ | (mode == WRITABLE ? PROT_WRITE : 0),
			  MAP_SHARED, fd, 0);
		if (pc == MAP_FAILED) {
			fprintf(stderr, "rb-cost: mmap: %s\n", strerror(errno));
			exit(1);
		}
	}
	if (mode == TRIGGER && set_idle_trigger(fd)) {
		munmap(pc, len);
		close(fd);
		*records = loops;
		return -1;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	t0 = now_ns();
	for (i = 0; i < loops; i++) {
		syscall(__NR_getppid);
		/* Keep the writable buffer from filling: consume every 64. */
		if (mode == WRITABLE && !(i & 63))
			__atomic_store_n(&pc->data_tail,
					 __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE),
					 __ATOMIC_RELEASE);
	}
	t1 = now_ns();
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		count = 0;
	*records = count;
	if (mode == TAIL_TRACKED) {
		__u64 head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);

		tail_free = data_pages * page - (long)(head - pc->data_tail);
		tail_held = (head - pc->data_tail) / RECORD_SIZE;
		tail_overwritten = pc->data_overwritten;
	}
	if (pc)
		munmap(pc, len);
	close(fd);
	return (t1 - t0) / loops;
}

/* One table: every mode in buffers of data_pages pages. */
static int bench(int id, long loops, int rounds)
{
	double best[NR_MODES], cost[NR_MODES];
	long records;
	int r, m;

	for (m = 0; m < NR_MODES; m++)
		best[m] = 1e30;
	/* Interleave the modes so that drift hits all of them alike. */
	for (r = 0; r < rounds; r++) {
		for (m = 0; m < NR_MODES; m++) {
			double t = run(m, id, loops, &records);

			if (records != loops) {
				fprintf(stderr, "rb-cost: %s: %ld events for %ld calls\n",
					mode_name[m], records, loops);
				return 1;
			}
			if (t >= 0 && t < best[m])
				best[m] = t;
		}
	}
	printf("%ld data pages, %ld calls, best of %d rounds\n", data_pages,
	       loops, rounds);
	printf("%-20s %14s %14s %10s\n", "buffer", "ns/call", "ns/record", "ratio");
	for (m = 0; m < NR_MODES; m++) {
		if (best[m] == 1e30) {
			printf("%-20s %14s %14s %10s\n", mode_name[m], "n/a", "n/a", "-");
			continue;
		}
		if (m == UNTRACED) {
			printf("%-20s %14.1f %14s %10s\n", mode_name[m], best[m],
			       "-", "-");
			continue;
		}
		/* perf's buffers against its event without one; ftrace's
		 * against nothing traced, so not a ratio to perf's.
		 */
		cost[m] = best[m] - best[m == FTRACE ? UNTRACED : NO_BUFFER];
		printf("%-20s %14.1f %14.1f", mode_name[m], best[m], cost[m]);
		if (m == NO_BUFFER || m == FTRACE)
			printf(" %10s\n", "-");
		else
			printf(" %10.4f\n", cost[m] / cost[WRITABLE]);
	}
	if (best[TAIL_TRACKED] < 1e30) {
		printf("tail-tracked after the last run: %ld held + %ld overwritten of %ld, %ld bytes free (a record is %d)\n",
		       tail_held, tail_overwritten, loops, tail_free,
		       RECORD_SIZE);
		if (tail_held + tail_overwritten != loops ||
		    (tail_overwritten && tail_free >= RECORD_SIZE)) {
			fprintf(stderr, "rb-cost: tail-tracked: %ld held + %ld overwritten for %ld records, %ld bytes free\n",
				tail_held, tail_overwritten, loops, tail_free);
			return 1;
		}
	}
	/* The peer row: a traced call, perf's tail-tracked buffer / ftrace. */
	if (best[FTRACE] < 1e30 && best[TAIL_TRACKED] < 1e30)
		printf("perf tail-tracked / ftrace overwrite, per traced call: %.4f\n",
		       (best[TAIL_TRACKED] - best[UNTRACED]) /
		       (best[FTRACE] - best[UNTRACED]));
	return 0;
}

int main(int argc, char **argv)
{
	static const long default_pages[] = { 1, 8, 64 };
	long loops = argc > 1 ? atol(argv[1]) : 20000;
	int rounds = argc > 2 ? atoi(argv[2]) : 3, i, n;
	int id = tracepoint_id();

	if (id < 0) {
		fprintf(stderr, "rb-cost: cannot read %s\n", TRACEPOINT);
		return 1;
	}
	n = argc > 3 ? argc - 3 : 3;
	for (i = 0; i < n; i++) {
		data_pages = argc > 3 ? atol(argv[3 + i]) : default_pages[i];
		if (data_pages < 1 || (data_pages & (data_pages - 1))) {
			fprintf(stderr, "rb-cost: data pages must be a power of 2\n");
			return 1;
		}
		if (i)
			printf("\n");
		if (bench(id, loops, rounds))
			return 1;
	}
	return 0;
}
