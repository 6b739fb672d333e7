// SPDX-License-Identifier: MIT
/*
 * Registration traps of the hash table (ours, CDS.md section 3): instead of
 * a hang or silent corruption, one line on stderr that names the function,
 * then SIGABRT, as the core's misuse checks do:
 *   - cds_lfht_resize from a qsbr thread that is online;
 *   - cds_lfht_resize from a thread not registered with the table's
 *     flavor (not for bp, which registers on demand);
 *   - cds_lfht_resize inside a read-side critical section (not qsbr, whose
 *     read-side sections leave no trace outside debug builds); here the
 *     message may come from the core's synchronize_rcu check instead.
 * Each case runs in a forked child (alarm 10 s, no core dump) whose stderr
 * the parent reads.  A correct resize is the control: exit 0, nothing on
 * stderr.  Skipped against liburcu (which prints and returns, or hangs).
 */
#include "hash-test.h"
#include "child-stderr.h"

#if !HT_OURS
int main(void)
{
	tap_skip_all("misuse messages: our improvement");
}
#else

static struct cds_lfht *ht;

static void resize_online_qsbr(void)
{
	T_FN(register_thread)();	/* qsbr: online from here on */
	cds_lfht_resize(ht, 64);
}

static void resize_unregistered(void)
{
	cds_lfht_resize(ht, 64);
}

static void resize_in_read_section(void)
{
	T_FN(register_thread)();
	T_FN(read_lock)();
	cds_lfht_resize(ht, 64);
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

int main(void)
{
	struct outcome o;

	tap_diag("flavor %s, %s", T_FLAVOR, T_MODE);
	ht = cds_lfht_new_flavor(1, 1, 0, 0, HT_FLAVOR, NULL);
	if (!ht)
		tap_bail("cds_lfht_new_flavor failed");

	memset(&o, 0, sizeof(o));
	child_stderr_run(resize_correctly, &o.status, o.err, sizeof(o.err));
	tap_ok(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0 && o.err[0] == '\0',
		"control: a registered thread outside read-side sections resizes cleanly");
	if (o.err[0])
		tap_diag("child stderr: %s", o.err);

	if (T_IS_QSBR)
		expect_death("qsbr thread online in cds_lfht_resize", resize_online_qsbr,
			"cds_lfht_resize", NULL);
	if (!T_IS_BP)
		expect_death("cds_lfht_resize from an unregistered thread", resize_unregistered,
			"cds_lfht_resize", NULL);
	if (!T_IS_QSBR)
		expect_death("cds_lfht_resize in a read-side critical section",
			resize_in_read_section, "cds_lfht_resize", "synchronize_rcu");

	T_FN(register_thread)();
	tap_ok(t_destroy(ht, NULL) == 0, "destroy");
	T_FN(unregister_thread)();
	return tap_done();
}
#endif /* HT_OURS */
