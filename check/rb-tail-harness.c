// SPDX-License-Identifier: GPL-2.0
/*
 * rb-tail-harness: the kernel's tail-tracking reservation
 * (kernel/events/rb_tail.h, included as it is) in user space, with a
 * nested writer run at random before the accesses of READ_ONCE(),
 * WRITE_ONCE() and local_t that this file gives it, and before each word
 * a writer stores, as interrupts and NMIs nest on one CPU.
 *
 * Ground truth is a log of every record reserved. Wherever a nested
 * writer may come in, the harness checks what a reader of the mapping
 * relies on:
 *   1. data_tail is at a record start (or past the published head);
 *   2. every record in [data_tail, data_head) is whole and its own;
 *   3. no writer stores at or past the published data_tail + data_size;
 *   4. data_overwritten counts at least the records before data_tail;
 *   5. data_tail never moves back; data_head - data_tail <= data_size;
 * after every reservation that moved the tail:
 *   6. the record before the new tail starts before what the record
 *      needed (nothing complete dropped beyond need);
 * and at rest:
 *   7. records reserved == records held + data_overwritten, and records
 *      refused == those reported in PERF_RECORD_LOST + those pending.
 *
 * Usage: rb-tail-harness SEED ROUNDS PAGES START [bad-header]
 *   START: 0, or "wrap" for positions 50000 bytes below the wrap of an
 *   unsigned long (2^64, or 2^32 built with -m32).
 *   bad-header: halfway, break the size in the header of a record held
 *   (the oldest or one in the middle; size 0, 12 or 65528, after SEED),
 *   as only a kernel bug could, and want the buffer to drop it and go on
 *   keeping new records (the counts, 4 and 7, are then no longer exact,
 *   nor is 6 for the move that drops it).
 * Exits 1 at the first broken check, naming it.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What rb_tail.h uses of the kernel, for one CPU. */
#define PAGE_SHIFT		12
#define noinline		__attribute__((noinline))
#undef __always_inline
#define __always_inline		inline __attribute__((always_inline))
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define barrier()		__asm__ __volatile__("" ::: "memory")
#define smp_wmb()		barrier()

/*
 * Every access of the reservation to what a nested writer also touches:
 * an interrupt may come before each. The checks read with PEEK().
 */
static void nested_writer(void);
#define PEEK(x)			(*(const volatile __typeof__(x) *)&(x))
#define READ_ONCE(x)		({ nested_writer(); PEEK(x); })
#define WRITE_ONCE(x, v)	do {					\
		__typeof__(x) __v = (v);				\
		nested_writer();					\
		*(volatile __typeof__(x) *)&(x) = __v;			\
	} while (0)

typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef struct { long v; } local_t;

static long local_read(local_t *l) { return READ_ONCE(l->v); }

static bool local_try_cmpxchg(local_t *l, unsigned long *old,
			      unsigned long new)
{
	nested_writer();
	if ((unsigned long)l->v == *old) {
		l->v = new;
		return true;
	}
	*old = l->v;
	return false;
}

static int warnings;
#define WARN_ON_ONCE(c)		({ bool __c = (c); warnings += __c; __c; })

struct perf_event_header {
	u32	type;
	u16	misc;
	u16	size;
};

struct perf_event_mmap_page {
	u64	data_head;
	u64	data_tail;
	u64	data_overwritten;
};

/* The fields of kernel/events/internal.h that rb_tail.h reads. */
struct rb_tail {
	unsigned long	end;
	unsigned long	complete;
	unsigned long	overwritten;
	local_t		written;
	unsigned int	busy;
	int		wakeups;
};

struct perf_buffer {
	int				nr_pages;
	local_t				head;
	unsigned int			nest;
	struct rb_tail			tail;
	struct perf_event_mmap_page	*user_page;
	void				*data_pages[];
};

static int page_order(struct perf_buffer *rb) { (void)rb; return 0; }

static unsigned long perf_data_size(struct perf_buffer *rb)
{
	return (unsigned long)rb->nr_pages << PAGE_SHIFT;
}

#include "rb_tail.h"

#define RECORD_SAMPLE	9	/* PERF_RECORD_SAMPLE */
#define RECORD_LOST	2	/* PERF_RECORD_LOST */
#define LOST_SIZE	24

static struct perf_buffer *rb;
static struct perf_event_mmap_page page;
static unsigned long data_size;

/* Every record reserved, in the order of the positions reserved. */
struct logged {
	unsigned long	start;
	u32		size;
	u32		id;
	u32		type;
};
static struct logged *log_;
static size_t nr_log, max_log;

static u64 seed, seed0;
static int depth;
static u32 next_id;
static u64 reserved, refused, lost_reported, lost_pending;
static unsigned long last_tail;
/* bad-header: the record whose header was broken, and when. */
static unsigned long broken = 1;
static long broken_at_round;
static const char *where = "start";

static u32 rnd(void)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return seed >> 33;
}

static void fail(const char *check, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

static void fail(const char *check, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "rb-tail-harness: check %s broken (%s, depth %d): ",
		check, where, depth);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static unsigned char *byte_at(unsigned long pos)
{
	return (unsigned char *)rb->data_pages[(pos >> PAGE_SHIFT) &
					       (rb->nr_pages - 1)] +
	       (pos & ((1UL << PAGE_SHIFT) - 1));
}

/* The byte @i of record @id: its header, then a pattern of its id. */
static unsigned char content(u32 id, u32 size, u32 type, u32 i)
{
	struct perf_event_header h = { .type = type, .size = size };

	if (i < sizeof(h))
		return ((unsigned char *)&h)[i];
	if (i < sizeof(h) + 4)
		return ((unsigned char *)&id)[i - sizeof(h)];
	return (unsigned char)(id * 31 + i);
}

/* The number of records logged that start before @pos. */
static size_t before(unsigned long pos)
{
	size_t lo = 0, hi = nr_log;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if ((long)(log_[mid].start - pos) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct logged *find(unsigned long start)
{
	size_t i = before(start);

	return i < nr_log && log_[i].start == start ? &log_[i] : NULL;
}

/*
 * A writer notes its records once its reservation returned; one that
 * interrupted it in between (at a hook of the reservation) may note
 * records further on first.
 */
static void note(unsigned long start, u32 size, u32 id, u32 type)
{
	size_t i;

	if (nr_log == max_log) {
		max_log = max_log ? 2 * max_log : 4096;
		log_ = realloc(log_, max_log * sizeof(*log_));
		if (!log_)
			abort();
	}
	i = before(start);
	if (i < nr_log && (long)(log_[i].start - (start + size)) < 0)
		fail("log", "record at %lu+%u overlaps one at %lu", start,
		     size, log_[i].start);
	memmove(&log_[i + 1], &log_[i], (nr_log - i) * sizeof(*log_));
	log_[i] = (struct logged){ start, size, id, type };
	nr_log++;
}

/* 1, 2, 4, 5: what a reader may rely on at any moment. */
static void check_reader_view(void)
{
	unsigned long head = PEEK(page.data_head);
	unsigned long tail = PEEK(page.data_tail);
	unsigned long pos;

	if ((long)(tail - last_tail) < 0)
		fail("5", "data_tail went back from %lu to %lu", last_tail, tail);
	last_tail = tail;
	if ((long)(tail - head) > 0)
		return;		/* a reservation is in flight: nothing valid */
	if (head - tail > data_size)
		fail("5", "head %lu - tail %lu > %lu", head, tail, data_size);
	for (pos = tail; pos != head;) {
		struct logged *l = find(pos);
		u32 j;

		if (!l)
			fail("1/2", "no record starts at %lu in [%lu, %lu)",
			     pos, tail, head);
		if ((long)(pos + l->size - head) > 0)
			fail("2", "record %u at %lu passes head %lu", l->id,
			     pos, head);
		for (j = pos == broken ? sizeof(struct perf_event_header) : 0;
		     j < l->size; j++)
			if (*byte_at(pos + j) != content(l->id, l->size, l->type, j))
				fail("2", "record %u at %lu torn at byte %u",
				     l->id, pos, j);
		pos += l->size;
	}
	/* G-H: the count covers every record before the tail. */
	if (!broken_at_round && before(tail) > PEEK(page.data_overwritten))
		fail("4", "%zu records before tail %lu, %llu counted",
		     before(tail), tail,
		     (unsigned long long)page.data_overwritten);
}

static void store(unsigned long pos, unsigned char c)
{
	/* 3 (E): the tail is published before the freed space is written. */
	if ((long)(pos - (PEEK(page.data_tail) + data_size)) >= 0)
		fail("3", "store at %lu, past tail %lu + %lu", pos,
		     (unsigned long)page.data_tail, data_size);
	*byte_at(pos) = c;
}

static void put_handle(void)
{
	unsigned long head;
	unsigned int nest;

again:
	nest = READ_ONCE(rb->nest);
	if (nest > 1) {
		WRITE_ONCE(rb->nest, nest - 1);
		return;
	}
	head = local_read(&rb->head);
	smp_wmb();
	WRITE_ONCE(page.data_head, head);
	barrier();
	WRITE_ONCE(rb->nest, 0);
	barrier();
	if (head != (unsigned long)local_read(&rb->head)) {
		WRITE_ONCE(rb->nest, 1);
		goto again;
	}
}

static void fill(unsigned long start, u32 size, u32 id, u32 type)
{
	u32 j;

	for (j = 0; j < size; j++) {
		if (j % 8 == 0)
			nested_writer();
		store(start + j, content(id, size, type, j));
	}
}

/*
 * One writer: a record of @size bytes, or a batch of @nr records of @size
 * bytes, led by a PERF_RECORD_LOST when records were refused before it,
 * unless that would not fit, as __perf_output_begin() does.
 */
static void writer(u32 size, u32 nr)
{
	unsigned long offset, head, tail0 = PEEK(page.data_tail);
	int warned = warnings;
	u32 total = nr ? size * nr : size, lead = 0, keep = nr, i;
	u64 lost = 0;
	bool ok;

	WRITE_ONCE(rb->nest, READ_ONCE(rb->nest) + 1);
	barrier();
	if (lost_pending && total + LOST_SIZE <= data_size) {
		lead = LOST_SIZE;
		total += lead;
	}
	offset = local_read(&rb->head);
	if (nr && total > data_size)
		ok = rb_tail_reserve_batch(rb, size, &keep, &offset, &head);
	else
		ok = rb_tail_reserve(rb, total, &offset, &head);
	if (!ok) {
		refused += nr ? nr : 1;
		lost_pending += nr ? nr : 1;
		put_handle();
		return;
	}
	/* 6: what the tail passed, all of it needed. */
	if (PEEK(page.data_tail) != tail0 && warnings == warned) {
		unsigned long t = page.data_tail, need = head - data_size;
		struct logged *l = find(t);

		if (l && l > log_ && (long)(l[-1].start - need) >= 0)
			fail("6", "record %u at %lu dropped, need was %lu",
			     l[-1].id, l[-1].start, need);
	}
	if (nr && keep != nr) {
		if (keep != data_size / size || head - offset != keep * size)
			fail("batch", "kept %u of %u at %lu..%lu", keep, nr,
			     offset, head);
		/* The older ones: written and dropped at once. */
		reserved += nr - keep;
		next_id += nr - keep;
	}
	if (lead) {
		lost = lost_pending;
		lost_pending = 0;
		note(offset, lead, next_id, RECORD_LOST);
		reserved++;
		fill(offset, lead, next_id++, RECORD_LOST);
		lost_reported += lost;
		offset += lead;
	}
	for (i = 0; i < (nr ? keep : 1); i++) {
		note(offset, size, next_id, RECORD_SAMPLE);
		reserved++;
		fill(offset, size, next_id++, RECORD_SAMPLE);
		offset += size;
	}
	put_handle();
}

static u32 record_size(void)
{
	u32 r = rnd() % 100;

	if (r < 60)
		return 8 * (2 + rnd() % 6);
	if (r < 95)
		return 8 * (2 + rnd() % (data_size / 8 / 4));
	return data_size + 8 * (1 + rnd() % 4);	/* refused */
}

static void write_one(void)
{
	u32 r = rnd() % 100, size = record_size();

	if (r < 10)
		writer(24, 2 + rnd() % 40);
	else if (r < 13)
		writer(24, data_size / 24 + 1 + rnd() % 200);
	else
		writer(size, 0);
}

/*
 * Before an access or a word stored: check, then maybe interrupt with a
 * writer of our own.
 */
static void nested_writer(void)
{
	const char *was = where;

	check_reader_view();
	if (depth >= 4 || rnd() % 24)
		return;
	depth++;
	where = "nested";
	write_one();
	where = was;
	depth--;
}

static void check_at_rest(void)
{
	unsigned long head = page.data_head, tail = page.data_tail, pos;
	u64 held = 0;

	check_reader_view();
	for (pos = tail; pos != head; pos += find(pos)->size)
		held++;
	if (broken_at_round)
		goto refused;
	if (reserved != held + page.data_overwritten)
		fail("7", "%llu reserved, %llu held + %llu overwritten",
		     (unsigned long long)reserved, (unsigned long long)held,
		     (unsigned long long)page.data_overwritten);
	if (warnings)
		fail("header", "%d bad headers met", warnings);
refused:
	if (refused != lost_reported + lost_pending)
		fail("7", "%llu refused, %llu reported + %llu pending",
		     (unsigned long long)refused,
		     (unsigned long long)lost_reported,
		     (unsigned long long)lost_pending);
}

/*
 * bad-header: break the size of a record held (at rest, so not one a walk
 * is reading), as a kernel bug would: too small, not a multiple of 8, or
 * past the buffer; the oldest record, or the one halfway to the head, so
 * that the walk meets it first or after records it counts.
 */
static void break_header(long round)
{
	static const u16 sizes[] = { 0, 12, 65528 };
	unsigned long pos = page.data_tail, head = page.data_head;
	size_t held = 0, i;
	struct perf_event_header *h;

	for (; pos != head; pos += find(pos)->size)
		held++;
	if (!held)
		return;
	pos = page.data_tail;
	if (seed0 % 2)
		for (i = 0; i < held / 2; i++)
			pos += find(pos)->size;
	h = (struct perf_event_header *)byte_at(pos);
	h->size = sizes[seed0 % 3];
	broken = pos;
	broken_at_round = round;
}

/*
 * At the end of a bad-header run: the walk met the header and dropped it,
 * and the buffer went on keeping new records: the tail is past the broken
 * record, and records were kept after it.
 */
static void check_recovered(long rounds)
{
	if (!broken_at_round)
		fail("bad-header", "no record was held to break");
	if (!warnings)
		fail("bad-header", "the broken header at %lu was never met",
		     broken);
	if ((long)(page.data_tail - broken) <= 0)
		fail("bad-header", "tail %lu still at the broken record %lu after %ld rounds",
		     (unsigned long)page.data_tail, broken,
		     rounds - broken_at_round);
	if (page.data_tail == page.data_head)
		fail("bad-header", "nothing held since the broken record");
}

int main(int argc, char **argv)
{
	unsigned long start = 0;
	long rounds, i;
	int pages, p;

	if (argc != 5 && !(argc == 6 && !strcmp(argv[5], "bad-header"))) {
		fprintf(stderr, "usage: %s SEED ROUNDS PAGES 0|wrap [bad-header]\n",
			argv[0]);
		return 2;
	}
	seed = seed0 = strtoull(argv[1], NULL, 0);
	rounds = strtol(argv[2], NULL, 0);
	pages = atoi(argv[3]);
	if (!strcmp(argv[4], "wrap"))
		start = 0UL - 50000;
	rb = calloc(1, sizeof(*rb) + pages * sizeof(void *));
	for (p = 0; p < pages; p++)
		rb->data_pages[p] = calloc(1, 1UL << PAGE_SHIFT);
	rb->nr_pages = pages;
	rb->user_page = &page;
	data_size = perf_data_size(rb);
	rb->head.v = start;
	rb->tail.end = start + data_size;
	rb->tail.complete = start;
	page.data_head = page.data_tail = start;
	last_tail = start;

	for (i = 0; i < rounds; i++) {
		where = "outermost";
		write_one();
		where = "at rest";
		check_at_rest();
		if (argc == 6 && !broken_at_round && i >= rounds / 2)
			break_header(i);
	}
	if (argc == 6)
		check_recovered(rounds);
	printf("seed %s, %d pages, start %s%s: %llu records, %llu held at the end, %llu overwritten, %llu refused\n",
	       argv[1], pages, argv[4], argc == 6 ? ", bad header" : "",
	       (unsigned long long)reserved,
	       (unsigned long long)(reserved - page.data_overwritten),
	       (unsigned long long)page.data_overwritten,
	       (unsigned long long)refused);
	return 0;
}
