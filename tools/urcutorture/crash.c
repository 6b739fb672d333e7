/* SPDX-License-Identifier: MIT */
/*
 * A crash is a verdict.  A use after free in a broken library usually ends
 * the process with SIGSEGV (or SIGBUS, or SIGABRT from the allocator's own
 * checks), which would leave no report at all.  Instead a handler for
 * SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT prints what ran (mode, flavor,
 * call_rcu layout, seed), which thread crashed (its role and index), the
 * signal and the fault address, the line "FAILURE: crashed (likely use after
 * free)" and the closing "End of test: CRASH ..." line, writes the JSON
 * report (--json) with the verdict CRASH, and exits 1.
 *
 * Async-signal safety.  The heap may be what broke, and the crashing thread
 * may hold any lock (malloc's, stdio's, the library's), so the handler calls
 * nothing but write(2), _exit(2), gettid, clock_gettime(2) and pause(2):
 *  - Before each combination the controller renders everything a crash can
 *    print that does not depend on the crash (ut_crash_arm): the "what ran"
 *    line, the End-of-test line, the TAP lines, and the whole JSON document
 *    (the finished combinations, then this one with the verdict CRASH and
 *    its figures zero: they are never collected) with a marker where the
 *    "crash" member's value goes.  It publishes the texts with one release
 *    store; the handler's acquire load pairs with it.  Texts of an earlier
 *    combination are freed only after the new ones are published, and no
 *    thread of that combination is left by then (all joined).
 *  - The handler formats the signal, the address and the thread's name into
 *    a buffer on its stack with the integer helpers below, and writes the
 *    document's two halves around the "crash" object it formats the same way.
 *  - One thread reports: the first to enter takes crash_owner (its kernel
 *    thread id).  Another thread crashing meanwhile waits in pause() for the
 *    reporter's _exit; a fault inside the handler itself (owner == self;
 *    SA_NODEFER lets it re-enter) exits 1 at once, without a report.
 *  - Each thread of a mode runs the handler on an alternate signal stack of
 *    its own (ut_crash_thread_enter), as does the main thread, so a stack
 *    overflow is reported too.  Threads urcutorture does not start (call_rcu
 *    workers, the flavor's own threads, stress mode's churn children) run it
 *    on their own stack: everything but a stack overflow is reported there.
 * What is not in the report: the crashed combination's counters (zero in the
 * JSON, absent from the human report) and anything stdio had buffered but not
 * flushed (the report's lines are flushed one by one).
 *
 * Test hook: URCUTORTURE_TEST_CRASH=ROLE (or ROLE:stack) makes the first
 * thread of that role ("reader", "consumer", ...) read an unmapped page
 * (a freed mapping) 100 ms after it starts, or overflow its stack by
 * recursion; tests/torture/check.py uses it (check "crash").
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "crash.h"

#define CRASH_MARKER		"@@urcutorture-crash@@"
#define CRASH_ALTSTACK		(256 * 1024)

/* Everything a crash in the armed combination prints that is known before it. */
struct crash_text {
	int human_fd;		/* the human report's stream */
	bool tap;		/* human lines as "# " comments, TAP lines on stdout */
	const char *mode, *flavor, *layout;
	uint64_t t0_ns;		/* the run's start (ut_now_ns), for the crash's time */
	char what[256];		/* "  mode queue, flavor memb, call_rcu layout default, seed 1\n" */
	char *end;		/* "End of test: CRASH ...\n" ("# " first under TAP) */
	char *tap_lines;	/* "not ok N - ... # CRASH ...\nBail out! crash\n", or "" */
	int json_fd;		/* -1: no --json */
	char *doc;		/* the rendered document */
	size_t pre_len;		/* doc[0, pre_len): up to the crash member's value */
	const char *post;	/* after the marker, to the end */
	size_t post_len;
};

static struct crash_text *armed;	/* release / acquire, see the top of the file */
static struct ut_run *crash_run;	/* relaxed: set and cleared by the controller */
static int crash_owner;		/* kernel thread id of the reporting thread, 0: none */
static __thread struct ut_thread *crash_self;
static __thread void *crash_stack;
static const char *test_role;
static bool test_stack;

/* ---- async-signal-safe output ---- */

struct cbuf {
	char b[1024];
	size_t n;
};

static void put(struct cbuf *c, const char *s)
{
	while (s && *s && c->n < sizeof(c->b) - 1)
		c->b[c->n++] = *s++;
}

static void put_u64(struct cbuf *c, uint64_t v, unsigned int base)
{
	char tmp[24];
	int i = 0;

	do {
		tmp[i++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (base == 16)
		put(c, "0x");
	while (i > 0 && c->n < sizeof(c->b) - 1)
		c->b[c->n++] = tmp[--i];
}

/* Seconds from the run's start to now, "S.mmm" (clock_gettime is
 * async-signal-safe). */
static void put_elapsed(struct cbuf *c, const struct crash_text *t)
{
	uint64_t ms = (ut_now_ns() - t->t0_ns) / 1000000;

	put_u64(c, ms / 1000, 10);
	put(c, ".");
	put(c, ms % 1000 < 100 ? (ms % 1000 < 10 ? "00" : "0") : "");
	put_u64(c, ms % 1000, 10);
}

static void put_json_str(struct cbuf *c, const char *s)
{
	put(c, "\"");
	/* Names the tool chose; drop the two characters JSON would escape. */
	for (; s && *s && c->n < sizeof(c->b) - 2; s++)
		if (*s != '"' && *s != '\\' && (unsigned char)*s >= 0x20)
			c->b[c->n++] = *s;
	put(c, "\"");
}

static void write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0)
			return;		/* EINTR cannot happen: no handler but this one runs */
		p += w;
		n -= (size_t)w;
	}
}

static void emit(const struct crash_text *t, struct cbuf *c)
{
	write_all(t ? t->human_fd : 2, c->b, c->n);
	c->n = 0;
}

/* The start of one human line ("# " in TAP). */
static void line(const struct crash_text *t, struct cbuf *c)
{
	if (t && t->tap)
		put(c, "# ");
}

static const char *sig_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGILL: return "SIGILL";
	case SIGFPE: return "SIGFPE";
	case SIGABRT: return "SIGABRT";
	}
	return "signal";
}

static bool has_address(int sig)
{
	return sig != SIGABRT;
}

/* ---- the crashing thread ---- */

/* The thread's role and index; index -1 for threads without one. */
static void thread_name(const char **role, int *idx, const char **label)
{
	struct ut_run *run = __atomic_load_n(&crash_run, __ATOMIC_RELAXED);
	pthread_t self = pthread_self();

	*label = NULL;
	*idx = -1;
	if (crash_self) {
		*role = ut_thread_role_name(crash_self);
		*idx = crash_self->idx;
		return;
	}
	if (syscall(SYS_gettid) == getpid()) {
		*role = "controller";
		return;
	}
	*role = "other";
	/* Acquire: pairs with the release publication of a worker (layout.c). */
	for (int i = 0; run && i < __atomic_load_n(&run->nworkers, __ATOMIC_ACQUIRE); i++) {
		if (run->workers[i].thread_known && pthread_equal(run->workers[i].thread, self)) {
			*role = "call_rcu worker";
			*label = run->workers[i].label;
			return;
		}
	}
}

static void put_thread(struct cbuf *c, const char *role, int idx, const char *label)
{
	if (!strcmp(role, "other")) {
		put(c, "a thread urcutorture did not start (library thread or churn child)");
		return;
	}
	put(c, role);
	if (idx >= 0) {
		put(c, " ");
		put_u64(c, (uint64_t)idx, 10);
	}
	if (label) {
		put(c, " ");
		put(c, label);
	}
}

static void human_report(const struct crash_text *t, int sig, const void *addr,
			 const char *role, int idx, const char *label)
{
	struct cbuf c = { .n = 0 };

	line(t, &c);
	put(&c, "!!! CRASH: ");
	put(&c, sig_name(sig));
	if (has_address(sig)) {
		put(&c, " at fault address ");
		put_u64(&c, (uint64_t)(uintptr_t)addr, 16);
	}
	put(&c, " in ");
	put_thread(&c, role, idx, label);
	if (t) {
		put(&c, " after ");
		put_elapsed(&c, t);
		put(&c, " s");
	}
	put(&c, "\n");
	emit(t, &c);
	if (t) {
		line(t, &c);
		put(&c, t->what);
		emit(t, &c);
	}
	line(t, &c);
	put(&c, "FAILURE: crashed (likely use after free)\n");
	emit(t, &c);
	if (t) {
		if (t->end)
			write_all(t->human_fd, t->end, strlen(t->end));
		if (t->tap_lines)
			write_all(1, t->tap_lines, strlen(t->tap_lines));
	}
}

static void json_report(const struct crash_text *t, int sig, const void *addr,
			const char *role, int idx, const char *label)
{
	struct cbuf c = { .n = 0 };

	if (!t || t->json_fd < 0)
		return;
	put(&c, "{\"signal\": ");
	put_json_str(&c, sig_name(sig));
	put(&c, ", \"signal_number\": ");
	put_u64(&c, (uint64_t)sig, 10);
	put(&c, ", \"fault_address\": ");
	if (has_address(sig)) {
		put(&c, "\"");
		put_u64(&c, (uint64_t)(uintptr_t)addr, 16);
		put(&c, "\"");
	} else {
		put(&c, "null");
	}
	put(&c, ", \"role\": ");
	put_json_str(&c, role);
	put(&c, ", \"index\": ");
	if (idx >= 0)
		put_u64(&c, (uint64_t)idx, 10);
	else
		put(&c, "null");
	put(&c, ", \"worker\": ");
	if (label)
		put_json_str(&c, label);
	else
		put(&c, "null");
	put(&c, ", \"mode\": ");
	put_json_str(&c, t->mode);
	put(&c, ", \"flavor\": ");
	put_json_str(&c, t->flavor);
	put(&c, ", \"layout\": ");
	put_json_str(&c, t->layout);
	put(&c, ", \"after_s\": ");
	put_elapsed(&c, t);
	put(&c, ", \"message\": \"crashed (likely use after free)\"}");
	write_all(t->json_fd, t->doc, t->pre_len);
	write_all(t->json_fd, c.b, c.n);
	write_all(t->json_fd, t->post, t->post_len);
}

static void crash_handler(int sig, siginfo_t *si, void *uc)
{
	int self = (int)syscall(SYS_gettid), owner = 0;
	const struct crash_text *t;
	const char *role, *label;
	int idx;

	(void)uc;
	/* Acquire/release: one reporter; nothing else is published through it. */
	if (!__atomic_compare_exchange_n(&crash_owner, &owner, self, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		if (owner == self)
			_exit(UT_EXIT_FAILURE);	/* a fault inside this handler */
		for (;;)
			pause();		/* the reporter ends the process */
	}
	/* Acquire: pairs with the release store in ut_crash_arm. */
	t = __atomic_load_n(&armed, __ATOMIC_ACQUIRE);
	thread_name(&role, &idx, &label);
	human_report(t, sig, si ? si->si_addr : NULL, role, idx, label);
	json_report(t, sig, si ? si->si_addr : NULL, role, idx, label);
	_exit(UT_EXIT_FAILURE);
}

/* ---- alternate stacks ---- */

static void *altstack_new(void)
{
	stack_t ss;
	void *p = mmap(NULL, CRASH_ALTSTACK, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	ss.ss_sp = p;
	ss.ss_size = CRASH_ALTSTACK;
	ss.ss_flags = 0;
	if (sigaltstack(&ss, NULL)) {
		munmap(p, CRASH_ALTSTACK);
		return NULL;
	}
	return p;
}

static void altstack_free(void *p)
{
	stack_t ss = { .ss_flags = SS_DISABLE };

	if (!p)
		return;
	sigaltstack(&ss, NULL);
	munmap(p, CRASH_ALTSTACK);
}

/* ---- the test hook ---- */

static unsigned long __attribute__((noinline)) overflow(volatile char *up, unsigned long depth)
{
	volatile char frame[2048];

	frame[0] = (char)(up ? up[0] + 1 : 0);
	if (depth == ~0ul)	/* never: keeps the recursion from being infinite to the compiler */
		return frame[0];
	/* Used after the call: not a tail call, every frame stays. */
	return overflow(frame, depth + 1) + (unsigned long)frame[1];
}

static void test_crash(struct ut_thread *t)
{
	void *page;

	if (!test_role || t->idx != 0 || strcmp(test_role, ut_thread_role_name(t)))
		return;
	ut_sleep_ns(100000000ull);
	if (test_stack) {
		overflow(NULL, 0);
		return;
	}
	/* A freed mapping: reading it faults at a known address. */
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return;
	munmap(page, 4096);
	(void)*(volatile int *)page;
}

/* ---- the public side ---- */

void ut_crash_install(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
	struct sigaction sa;
	const char *hook = getenv("URCUTORTURE_TEST_CRASH");

	if (hook && *hook) {
		const char *colon = strchr(hook, ':');

		test_role = colon ? strndup(hook, (size_t)(colon - hook)) : hook;
		test_stack = colon && !strcmp(colon + 1, "stack");
	}
	crash_stack = altstack_new();
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = crash_handler;
	/* SA_NODEFER: a fault inside the handler re-enters it and exits 1. */
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

void ut_crash_thread_enter(struct ut_thread *t)
{
	crash_self = t;
	crash_stack = altstack_new();
	test_crash(t);
}

void ut_crash_thread_leave(void)
{
	altstack_free(crash_stack);
	crash_stack = NULL;
	crash_self = NULL;
}

void ut_crash_attach(struct ut_run *run)
{
	__atomic_store_n(&crash_run, run, __ATOMIC_RELAXED);
}

void ut_crash_json_marker(const void *arg, FILE *f)
{
	(void)arg;
	fputs(CRASH_MARKER, f);
}

/* The JSON document, split at the marker where the "crash" member goes. */
static void split_json(struct crash_text *t, FILE *json)
{
	char *at = t->doc ? strstr(t->doc, CRASH_MARKER) : NULL;

	t->json_fd = -1;
	if (!at)
		return;
	t->pre_len = (size_t)(at - t->doc);
	t->post = at + strlen(CRASH_MARKER);
	t->post_len = strlen(t->post);
	t->json_fd = fileno(json);
}

/*
 * The end of a run a crash would leave, rendered ahead into memory by the
 * one function every end of a run goes through (ut_report_finish): the
 * End-of-test line, the TAP lines and the JSON document.
 */
static void render(struct crash_text *t, const struct ut_session *s, const struct ut_result *all,
		   int n)
{
	const struct ut_invocation *inv = s->batch->global->inv;
	struct ut_batch copy = *s->batch;
	struct ut_end_out out = { .sink = inv->sink };
	size_t hsize = 0, tsize = 0, jsize = 0;

	copy.elapsed_s = (ut_now_ns() - s->batch->t_start_ns) / 1e9;
	out.sink.human = open_memstream(&t->end, &hsize);
	out.tap = open_memstream(&t->tap_lines, &tsize);
	out.json = inv->json ? open_memstream(&t->doc, &jsize) : NULL;
	if (out.sink.human && out.tap && (out.json || !inv->json))
		ut_report_finish(&copy, all, n, UT_CRASH, NULL, &out);
	if (out.sink.human)
		fclose(out.sink.human);
	if (out.tap)
		fclose(out.tap);
	if (out.json)
		fclose(out.json);
	split_json(t, inv->json);
}

static void crash_text_free(struct crash_text *t)
{
	free(t->doc);
	free(t->end);
	free(t->tap_lines);
	free(t);
}

void ut_crash_arm(const struct ut_session *s, const struct ut_config *cfg,
		  const struct ut_flavor_ops *ops, enum ut_layout layout)
{
	int ndone = s->ndone;
	struct crash_text *t = calloc(1, sizeof(*t)), *old;
	struct ut_result *all = calloc((size_t)ndone + 1, sizeof(*all)), *now;

	if (!t || !all) {
		free(t);
		free(all);
		return;		/* the previous texts stay: a crash reports less exactly */
	}
	t->human_fd = fileno(cfg->inv->sink.human);
	t->tap = cfg->inv->sink.tap;
	t->mode = cfg->mode->name;
	t->flavor = ops->name;
	t->layout = ut_layout_names[layout];
	t->t0_ns = s->batch->t_start_ns;

	/* The finished combinations, then this one as a crash would leave it. */
	if (ndone)
		memcpy(all, s->results, (size_t)ndone * sizeof(*all));
	now = &all[ndone];
	now->cfg = cfg;
	now->flavor = ops;
	now->layout = layout;
	now->mode = cfg->mode;
	now->verdict = UT_CRASH;
	now->gp_lat_what = "none";
	ut_hist_init(&now->gp_lat);
	ut_hist_init(&now->cb_lat);
	snprintf(now->note, sizeof(now->note), "crashed (likely use after free); figures not collected");
	if (cfg->mode->result_size)
		now->mode_data = calloc(1, cfg->mode->result_size);
	snprintf(t->what, sizeof(t->what), "  mode %s, flavor %s, call_rcu layout %s, seed %llu\n",
		 t->mode, t->flavor, t->layout, (unsigned long long)cfg->seed);
	render(t, s, all, ndone + 1);
	free(now->mode_data);
	free(all);

	/* Release: the texts are complete before the handler can see them. */
	old = __atomic_exchange_n(&armed, t, __ATOMIC_ACQ_REL);
	if (old)
		crash_text_free(old);
}
