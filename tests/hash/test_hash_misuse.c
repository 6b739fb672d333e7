// SPDX-License-Identifier: MIT
/*
 * Who may call cds_lfht_resize (docs/DESIGN.md, "Misuse: what aborts and
 * what runs"):
 *   - a qsbr thread that is online: it goes offline for the resize and is
 *     online again afterwards (liburcu 0.15 accepts this call);
 *   - a thread not registered with the table's flavor: it is registered for
 *     the duration, as the background resizer is (liburcu runs the walk
 *     unprotected);
 *   - inside a read-side critical section of another flavor: a grow runs
 *     (it needs no grace period, as in liburcu); a shrink would wait for that
 *     very section, so it aborts with one line naming the function.
 * Each case runs in a forked child (alarm 10 s, no core dump) whose stderr
 * the parent reads; the resizes that run must change the table's bucket
 * memory (grow to 2^16 buckets, then back to 1) and leave nothing on
 * stderr.  Skipped against liburcu (0.13 hangs or walks unprotected).
 */
#include "hash-test.h"
#include "child-stderr.h"

#if !HT_OURS
int main(void)
{
	tap_skip_all("who may resize: our behaviour");
}
#else

static struct cds_lfht *ht;

#define BIG	(1UL << 16)

/* Grow, then shrink; exit 8 when the grow allocated no buckets, 9 when the shrink freed none. */
static void grow_and_shrink(void)
{
	long before = t_heap_bytes(), grown, shrunk;

	cds_lfht_resize(ht, BIG);
	grown = t_heap_bytes();
	cds_lfht_resize(ht, 1);
	shrunk = t_heap_bytes();
	if (grown - before < (long) (BIG * sizeof(void *)))
		_exit(8);
	if (grown - shrunk < (long) (BIG * sizeof(void *)))
		_exit(9);
}

static void resize_online_qsbr(void)
{
	T_FN(register_thread)();	/* qsbr: online from here on */
	grow_and_shrink();
	if (!T_FN(read_ongoing)())	/* qsbr: "ongoing" means online */
		_exit(10);
	T_FN(unregister_thread)();
}

static void resize_unregistered(void)
{
	grow_and_shrink();
}

static void grow_in_read_section(void)
{
	long before;

	T_FN(register_thread)();
	T_FN(read_lock)();
	before = t_heap_bytes();
	cds_lfht_resize(ht, BIG);
	if (t_heap_bytes() - before < (long) (BIG * sizeof(void *)))
		_exit(8);
	T_FN(read_unlock)();
	T_FN(unregister_thread)();
}

static void shrink_in_read_section(void)
{
	T_FN(register_thread)();
	cds_lfht_resize(ht, BIG);
	T_FN(read_lock)();
	cds_lfht_resize(ht, 1);
}

static void resize_correctly(void)
{
	T_FN(register_thread)();
	t_resize(ht, 64);
	t_resize(ht, 1);
	T_FN(unregister_thread)();
}

struct outcome {
	int status;
	char err[2048];
};

/*
 * fn must die of SIGABRT after one line on stderr that contains func (or,
 * when alt is not NULL, alt: the core's own check may fire first).
 */
static void expect_death(const char *what, void (*fn)(void), const char *func,
		const char *alt)
{
	struct outcome o;
	const char *nl;
	int died, named, one_line;

	memset(&o, 0, sizeof(o));
	child_stderr_run(fn, &o.status, o.err, sizeof(o.err));
	died = WIFSIGNALED(o.status) && WTERMSIG(o.status) == SIGABRT;
	named = strstr(o.err, func) || (alt && strstr(o.err, alt));
	nl = strchr(o.err, '\n');
	one_line = nl && nl[1] == '\0';
	tap_ok(died, "%s: the child dies of SIGABRT", what);
	tap_ok(named && one_line, "%s: one line on stderr naming %s%s%s", what, func,
		alt ? " or " : "", alt ? alt : "");
	if (!died || !named || !one_line) {
		if (WIFSIGNALED(o.status))
			tap_diag("child: signal %d", WTERMSIG(o.status));
		else
			tap_diag("child: exit %d", WEXITSTATUS(o.status));
		tap_diag("child stderr: %s", o.err);
	}
}

static void expect_runs(const char *what, void (*fn)(void))
{
	struct outcome o;

	memset(&o, 0, sizeof(o));
	child_stderr_run(fn, &o.status, o.err, sizeof(o.err));
	tap_ok(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0 && o.err[0] == '\0',
		"%s: runs (resizes change the bucket memory), nothing on stderr", what);
	if (WIFSIGNALED(o.status))
		tap_diag("child: signal %d", WTERMSIG(o.status));
	else if (WEXITSTATUS(o.status))
		tap_diag("child: exit %d", WEXITSTATUS(o.status));
	if (o.err[0])
		tap_diag("child stderr: %s", o.err);
}

int main(void)
{
	tap_diag("flavor %s, %s", T_FLAVOR, T_MODE);
	ht = cds_lfht_new_flavor(1, 1, 0, 0, HT_FLAVOR, NULL);
	if (!ht)
		tap_bail("cds_lfht_new_flavor failed");
	expect_runs("control: a registered thread outside read-side sections", resize_correctly);
	if (T_IS_QSBR)
		expect_runs("cds_lfht_resize from an online qsbr thread (online again after)",
			resize_online_qsbr);
	expect_runs("cds_lfht_resize from an unregistered thread", resize_unregistered);
	if (!T_IS_QSBR) {
		expect_runs("cds_lfht_resize growing inside a read-side critical section",
			grow_in_read_section);
		expect_death("cds_lfht_resize shrinking inside a read-side critical section",
			shrink_in_read_section, "cds_lfht_resize", NULL);
	}
	T_FN(register_thread)();
	tap_ok(t_destroy(ht, NULL) == 0, "destroy");
	T_FN(unregister_thread)();
	return tap_done();
}
#endif /* HT_OURS */
