// SPDX-License-Identifier: MIT
/*
 * API-misuse checks fire: one line "urcu: <function>: <problem>" on stderr,
 * then SIGABRT.
 *
 * Each case runs in a forked child whose stderr goes to a pipe; the parent
 * checks that the child died of SIGABRT and that the message starts with
 * "urcu: " and names the function.  The child has an alarm, so a misuse that
 * deadlocks instead of aborting (synchronize_rcu inside a critical section)
 * shows up as a failure, not as a hung test.  Core dumps are disabled in the
 * children.  Correct-usage children are the control: they must exit 0 and
 * write nothing to stderr.
 *
 * qsbr cannot detect the critical-section misuses (its read_lock and
 * read_unlock are free and keep no state outside debug builds), so those
 * cases are skipped for qsbr unless the build has debug checks
 * (CONFIG_RCU_DEBUG in <urcu/config.h>, from -Ddebug_checks=true), which
 * count qsbr's nesting.  bp registers lazily, so a read_lock in an
 * unregistered thread is correct usage there.
 */
#include <signal.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

#include "flavor-select.h"
#include "test-util.h"
#include "child-stderr.h"

#include <urcu/config.h>

#if !T_IS_QSBR || defined(CONFIG_RCU_DEBUG) || defined(DEBUG_RCU)
# define T_DETECTS_CS	1
#else
# define T_DETECTS_CS	0
#endif

static void case_sync_in_cs(void)
{
	T_FN(register_thread)();
	T_FN(read_lock)();
	T_FN(synchronize_rcu)();
}

static void case_nested_sync_in_cs(void)
{
	T_FN(register_thread)();
	T_FN(read_lock)();
	T_FN(read_lock)();
	T_FN(read_unlock)();
	T_FN(synchronize_rcu)();
}

static void case_unlock_without_lock(void)
{
	T_FN(register_thread)();
	T_FN(read_unlock)();
}

static void case_unbalanced_unlock(void)
{
	T_FN(register_thread)();
	T_FN(read_lock)();
	T_FN(read_unlock)();
	T_FN(read_unlock)();
}

static void case_unregister_in_cs(void)
{
	T_FN(register_thread)();
	T_FN(read_lock)();
	T_FN(unregister_thread)();
}

static void case_lock_unregistered(void)
{
	T_FN(read_lock)();
	T_FN(read_unlock)();
}

static void case_register_twice(void)
{
	T_FN(register_thread)();
	T_FN(register_thread)();
}

static void case_correct_usage(void)
{
	T_FN(register_thread)();
	T_FN(read_lock)();
	T_FN(read_lock)();
	T_FN(read_unlock)();
	t_reader_exit();
	T_FN(synchronize_rcu)();
	T_FN(unregister_thread)();
}

/* bp: an unregistered thread may read, and synchronize_rcu works after. */
static void case_bp_lazy_reader(void)
{
	T_FN(read_lock)();
	T_FN(read_unlock)();
	T_FN(synchronize_rcu)();
}

struct child_result {
	int status;
	char err[1024];
};

static void describe(const struct child_result *res)
{
	if (WIFSIGNALED(res->status))
		tap_diag("child killed by signal %d (%s)", WTERMSIG(res->status),
			strsignal(WTERMSIG(res->status)));
	else if (WIFEXITED(res->status))
		tap_diag("child exited with status %d", WEXITSTATUS(res->status));
	if (res->err[0])
		tap_diag("child stderr: %s", res->err);
}

/* fn must abort with a one-line "urcu: ...<func>...: ..." message. */
static void expect_abort(const char *name, void (*fn)(void), const char *func)
{
	struct child_result res;
	bool aborted, prefixed, named, one_line;
	const char *nl;

	memset(&res, 0, sizeof(res));
	child_stderr_run(fn, &res.status, res.err, sizeof(res.err));
	aborted = WIFSIGNALED(res.status) && WTERMSIG(res.status) == SIGABRT;
	prefixed = strncmp(res.err, "urcu: ", 6) == 0;
	nl = strchr(res.err, '\n');
	/* The name sits between "urcu: " and the next ": ". */
	named = false;
	if (prefixed) {
		const char *end = strstr(res.err + 6, ": ");
		const char *hit = strstr(res.err + 6, func);

		named = end && hit && hit < end;
	}
	one_line = nl && nl[1] == '\0';
	tap_ok(aborted, "%s/%s: %s: child dies of SIGABRT", T_FLAVOR, T_MODE, name);
	tap_ok(prefixed && named, "%s/%s: %s: message is \"urcu: <...%s...>: <problem>\"",
		T_FLAVOR, T_MODE, name, func);
	tap_ok(one_line, "%s/%s: %s: message is a single line", T_FLAVOR, T_MODE, name);
	if (!aborted || !prefixed || !named || !one_line)
		describe(&res);
}

static void expect_clean(const char *name, void (*fn)(void))
{
	struct child_result res;
	bool clean;

	memset(&res, 0, sizeof(res));
	child_stderr_run(fn, &res.status, res.err, sizeof(res.err));
	clean = WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0 && res.err[0] == '\0';
	tap_ok(clean, "%s/%s: %s: correct usage exits 0 with nothing on stderr",
		T_FLAVOR, T_MODE, name);
	if (!clean)
		describe(&res);
}

int main(void)
{
	expect_clean("control", case_correct_usage);
	if (!T_DETECTS_CS) {
		tap_skip("synchronize_rcu inside a critical section: not detectable by qsbr");
		tap_skip("nested: not detectable by qsbr");
		tap_skip("read_unlock without read_lock: not detectable by qsbr");
		tap_skip("unbalanced read_unlock: not detectable by qsbr");
		tap_skip("unregister inside a critical section: not detectable by qsbr");
		tap_skip("read_lock unregistered: qsbr read_lock is a no-op");
	} else {
		if (T_IS_QSBR)
			tap_diag("qsbr with debug checks: critical-section misuse is detected");
		expect_abort("synchronize_rcu inside a critical section", case_sync_in_cs,
			"synchronize_rcu");
		expect_abort("synchronize_rcu inside a nested critical section",
			case_nested_sync_in_cs, "synchronize_rcu");
		expect_abort("read_unlock without read_lock", case_unlock_without_lock,
			"read_unlock");
		expect_abort("one read_unlock too many", case_unbalanced_unlock, "read_unlock");
		expect_abort("unregister_thread inside a critical section", case_unregister_in_cs,
			"unregister_thread");
		if (T_IS_BP)
			expect_clean("read_lock in an unregistered thread (bp: lazy registration)",
				case_bp_lazy_reader);
		else
			expect_abort("read_lock in an unregistered thread", case_lock_unregistered,
				"read_lock");
	}
	expect_abort("register_thread twice", case_register_twice, "register_thread");
	return tap_done();
}
