// SPDX-License-Identifier: GPL-2.0
/*
 * The demo's first act (guest/demo.sh): the same 1000 records written into
 * three kinds of perf ring buffer too small to hold them, then read the way
 * each kind must be read:
 *
 *   writable         a forward buffer mapped PROT_WRITE whose reader fell
 *                    behind: the kernel drops the newest records;
 *   backward         upstream's overwrite mode (perf record --overwrite):
 *                    the reader pauses the writer and walks back from the
 *                    head, not knowing where valid data ends or what was lost;
 *   tail tracking    a forward buffer mapped read-only (this series): the
 *                    kernel keeps data_tail at the oldest whole record and
 *                    counts what it overwrote in data_overwritten.
 *
 * Record i is the i-th getpgid(i) call, caught by the sys_enter_getpgid
 * tracepoint, so the argument names the record. The table shows what each
 * reader got; the exit status says whether tail tracking kept exactly the
 * newest records and counted every other one.
 *
 * Usage: three-buffers [records]   (run on one CPU: the caller pins it)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#define TRACEPOINT "/sys/kernel/tracing/events/syscalls/sys_enter_getpgid/id"
#define DATA_PAGES 1

enum mode { WRITABLE, BACKWARD, TAIL_TRACKING, NR_MODES };

struct result {
	const char *name, *paused;
	long kept, oldest, newest;	/* newest and oldest: record numbers */
	long lost;			/* dropped or overwritten, counted */
	int counted, in_order;
};

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

/*
 * The record number of a sample: its raw data is the tracepoint entry,
 * 8 bytes of common fields, the syscall number (padded to 8), then the
 * argument as an unsigned long.
 */
static long record_number(const unsigned char *rec)
{
	const unsigned char *raw = rec + sizeof(struct perf_event_header) + 4;
	unsigned long arg;

	memcpy(&arg, raw + 16, sizeof(arg));
	return arg;
}

/* Account record number @n to @r, read oldest first. */
static void take(struct result *r, long n)
{
	if (r->kept && n != r->newest + 1)
		r->in_order = 0;
	if (!r->kept)
		r->oldest = n;
	r->newest = n;
	r->kept++;
}

/* The byte at ring position @pos, copied out of a buffer of @size bytes. */
static void ring_copy(void *dst, const unsigned char *data, __u64 size,
		      __u64 pos, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		((unsigned char *)dst)[i] = data[(pos + i) & (size - 1)];
}

static void walk_forward(struct result *r, const unsigned char *data,
			 __u64 size, __u64 from, __u64 to)
{
	unsigned char rec[512];
	struct perf_event_header h;

	while (from < to) {
		ring_copy(&h, data, size, from, sizeof(h));
		if (h.size < sizeof(h) || h.size > sizeof(rec))
			break;
		ring_copy(rec, data, size, from, h.size);
		if (h.type == PERF_RECORD_SAMPLE)
			take(r, record_number(rec));
		from += h.size;
	}
}

/*
 * A backward buffer from its head: newest first, until the walk would
 * pass one buffer's worth of bytes (the rest is overwritten or empty).
 */
static void walk_backward(struct result *r, const unsigned char *data,
			  __u64 size, __u64 head)
{
	long numbers[4096], n = 0;
	unsigned char rec[512];
	struct perf_event_header h;
	__u64 pos = head;

	while (pos - head + sizeof(h) <= size && n < 4096) {
		ring_copy(&h, data, size, pos, sizeof(h));
		if (h.size < sizeof(h) || h.size > sizeof(rec) ||
		    pos - head + h.size > size)
			break;
		ring_copy(rec, data, size, pos, h.size);
		if (h.type == PERF_RECORD_SAMPLE)
			numbers[n++] = record_number(rec);
		pos += h.size;
	}
	/* Oldest first, as the other readers see them. */
	while (n--)
		take(r, numbers[n]);
}

static int run(enum mode mode, int id, long records, struct result *r)
{
	struct perf_event_attr attr = {
		.size		= sizeof(attr),
		.type		= PERF_TYPE_TRACEPOINT,
		.config		= id,
		.sample_period	= 1,
		.sample_type	= PERF_SAMPLE_RAW,
		.read_format	= PERF_FORMAT_LOST,
		.disabled	= 1,
		.write_backward	= mode == BACKWARD,
	};
	long page = sysconf(_SC_PAGESIZE), i;
	size_t len = (DATA_PAGES + 1) * page;
	struct perf_event_mmap_page *pc;
	struct { __u64 value, lost; } count;
	const unsigned char *data;
	__u64 head, tail;
	int fd;

	fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0) {
		fprintf(stderr, "three-buffers: perf_event_open: %s\n",
			strerror(errno));
		return -1;
	}
	pc = mmap(NULL, len, PROT_READ | (mode == WRITABLE ? PROT_WRITE : 0),
		  MAP_SHARED, fd, 0);
	if (pc == MAP_FAILED) {
		fprintf(stderr, "three-buffers: mmap: %s\n", strerror(errno));
		return -1;
	}
	data = (const unsigned char *)pc + pc->data_offset;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 1; i <= records; i++)
		syscall(__NR_getpgid, i);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		return -1;

	memset(r, 0, sizeof(*r));
	r->in_order = 1;
	switch (mode) {
	case WRITABLE:
		r->name = "writable, reader behind";
		r->paused = "no";
		head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
		walk_forward(r, data, pc->data_size, pc->data_tail, head);
		r->lost = count.lost;	/* dropped, counted in read() */
		r->counted = 1;
		break;
	case BACKWARD:
		r->name = "backward (--overwrite)";
		r->paused = "yes";
		ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1);
		head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
		walk_backward(r, data, pc->data_size, head);
		ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0);
		break;
	case TAIL_TRACKING:
		r->name = "tail tracking (series)";
		r->paused = "no";
		head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
		tail = __atomic_load_n(&pc->data_tail, __ATOMIC_ACQUIRE);
		walk_forward(r, data, pc->data_size, tail, head);
		/* Nothing copied may be stale: the tail must not have moved. */
		if (__atomic_load_n(&pc->data_tail, __ATOMIC_ACQUIRE) != tail)
			r->in_order = 0;
		r->lost = pc->data_overwritten;
		r->counted = 1;
		break;
	default:
		break;
	}
	munmap(pc, len);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	long records = argc > 1 ? atol(argv[1]) : 1000;
	struct result r[NR_MODES], *tt = &r[TAIL_TRACKING];
	int id = tracepoint_id(), m, ok;
	char lost[32];

	if (id < 0) {
		fprintf(stderr, "three-buffers: cannot read %s\n", TRACEPOINT);
		return 1;
	}
	for (m = 0; m < NR_MODES; m++)
		if (run(m, id, records, &r[m]))
			return 1;

	printf("%ld records written into %d-page buffers:\n\n", records,
	       DATA_PAGES);
	printf("%-24s %-14s %-8s %-21s %-12s %s\n", "buffer", "writer paused",
	       "records", "overwritten,", "oldest kept", "newest kept");
	printf("%-24s %-14s %-8s %-21s %-12s %s\n", "", "while reading",
	       "kept", "counted", "record", "record");
	for (m = 0; m < NR_MODES; m++) {
		/* A writable buffer overwrites nothing: it drops the newest. */
		if (m == WRITABLE)
			snprintf(lost, sizeof(lost), "none (%ld dropped)",
				 r[m].lost);
		else if (r[m].counted)
			snprintf(lost, sizeof(lost), "%ld, counted", r[m].lost);
		else
			snprintf(lost, sizeof(lost), "%ld, not counted",
				 records - r[m].kept);
		printf("%-24s %-14s %-8ld %-21s #%-11ld #%ld\n", r[m].name,
		       r[m].paused, r[m].kept, lost, r[m].oldest, r[m].newest);
	}

	ok = tt->in_order && tt->newest == records &&
	     tt->kept + tt->lost == records && tt->kept > 0;
	printf("\nverdict: tail tracking %s: the newest %ld records in order "
	       "(#%ld to #%ld), %ld overwritten and counted, %ld + %ld = %ld "
	       "written, writer never paused\n",
	       ok ? "ok" : "FAILED", tt->kept, tt->oldest, tt->newest,
	       tt->lost, tt->kept, tt->lost, records);
	return ok ? 0 : 1;
}
