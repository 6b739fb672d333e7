// SPDX-License-Identifier: MIT
/*
 * API misuse, both kinds (docs/DESIGN.md, "Misuse: what aborts and what
 * runs"):
 *
 * - where liburcu would deadlock, crash or corrupt its reader state too, we
 *   abort: one line "urcu: <function>: <problem>" on stderr, then SIGABRT;
 * - where liburcu runs, we run: the child exits 0 with nothing on stderr,
 *   and the event is counted (urcu_misuse_events() > 0).  With URCU_DEBUG=1
 *   the same child also exits 0 but prints one line naming the function;
 *   with URCU_DEBUG=abort it prints that line and dies of SIGABRT.
 *
 * Each case runs in a forked child whose stderr goes to a pipe; the child has
 * an alarm, so a misuse that deadlocks instead of aborting shows up as a
 * failure, not as a hung test.  The parent itself never misuses the API, so
 * every child reads URCU_DEBUG afresh at its first event.  Correct usage is
 * the control: exit 0, nothing on stderr, no event counted.
 *
 * qsbr's read_lock and read_unlock are free and keep no state outside debug
 * builds (CONFIG_RCU_DEBUG, -Ddebug_checks=true), so its critical-section
 * cases exist only there, and there they run (liburcu's qsbr runs them).
 */
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "flavor-select.h"
#include "test-util.h"
#include "child-stderr.h"

#include <urcu/config.h>
#include <urcu/debug.h>

#if defined(CONFIG_RCU_DEBUG) || defined(DEBUG_RCU)
# define T_DEBUG_BUILD	1
#else
# define T_DEBUG_BUILD	0
#endif

/* ---- cases where liburcu breaks too: abort ------------------------------- */

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

static void case_register_twice(void)
{
	T_FN(register_thread)();
	T_FN(register_thread)();
}

static void case_unregister_unregistered(void)
{
	T_FN(unregister_thread)();
}

/* ---- cases where liburcu runs: run, count, report on request ------------- */

static void case_lock_unregistered(void)
{
	T_FN(read_lock)();
	T_FN(read_unlock)();
	T_FN(synchronize_rcu)();
}

static void case_lock_after_unregister(void)
{
	T_FN(register_thread)();
	T_FN(unregister_thread)();
	T_FN(read_lock)();
	T_FN(read_unlock)();
	T_FN(synchronize_rcu)();
}

static void case_unregister_in_cs(void)
{
	T_FN(register_thread)();
	T_FN(read_lock)();
	T_FN(unregister_thread)();
	t_reader_exit();
	T_FN(synchronize_rcu)();
	T_FN(unregister_thread)();	/* outside the section: unregisters now */
	T_FN(synchronize_rcu)();
}

static void case_unlock_unregistered(void)
{
	T_FN(read_unlock)();
	T_FN(synchronize_rcu)();
}

static void case_qsbr_online_unregistered(void)
{
	T_FN(thread_online)();
	T_FN(quiescent_state)();
	T_FN(thread_offline)();
	T_FN(synchronize_rcu)();
}

/* qsbr debug builds only: the depth count sees these; liburcu's qsbr runs them. */
static void case_qsbr_sync_in_cs(void)
{
	T_FN(register_thread)();
	T_FN(read_lock)();
	T_FN(synchronize_rcu)();
	T_FN(read_unlock)();
	T_FN(unregister_thread)();
}

static void case_qsbr_unlock_without_lock(void)
{
	T_FN(register_thread)();
	T_FN(read_unlock)();
	T_FN(read_lock)();	/* the depth count did not underflow */
	T_FN(read_unlock)();
	T_FN(unregister_thread)();
}

/* ---- controls -------------------------------------------------------------- */

static void case_correct_usage(void)
{
	T_FN(register_thread)();
	T_FN(read_lock)();
	T_FN(read_lock)();
	T_FN(read_unlock)();
	t_reader_exit();
	T_FN(synchronize_rcu)();
	T_FN(unregister_thread)();
	if (urcu_misuse_events() != 0)
		_exit(3);
}

/* bp: reading unregistered is its design, registering twice is harmless. */
static void case_bp_lazy_reader(void)
{
	T_FN(read_lock)();
	T_FN(read_unlock)();
	T_FN(synchronize_rcu)();
	T_FN(register_thread)();
	T_FN(register_thread)();
	T_FN(unregister_thread)();
	if (urcu_misuse_events() != 0)
		_exit(3);
}

/* ---- runners -------------------------------------------------------------- */

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

/* Every line of err is "urcu: <...func...>: <problem>"; at least one line. */
static bool lines_name(const char *err, const char *func)
{
	const char *line = err;

	if (!*err)
		return false;
	while (*line) {
		const char *nl = strchr(line, '\n');
		const char *end = strstr(line + 6, ": ");
		const char *hit = strstr(line, func);

		if (!nl || strncmp(line, "urcu: ", 6) != 0 || !end
				|| !hit || hit > end || end > nl)
			return false;
		line = nl + 1;
	}
	return true;
}

static void run_child(void (*fn)(void), const char *debug_env, struct child_result *res)
{
	memset(res, 0, sizeof(*res));
	if (debug_env)
		setenv("URCU_DEBUG", debug_env, 1);
	else
		unsetenv("URCU_DEBUG");
	child_stderr_run(fn, &res->status, res->err, sizeof(res->err));
	unsetenv("URCU_DEBUG");
}

static bool died_of_abort(const struct child_result *res)
{
	return WIFSIGNALED(res->status) && WTERMSIG(res->status) == SIGABRT;
}

/* fn must abort with exactly one line "urcu: ...<func>...: ...", URCU_DEBUG or not. */
static void expect_abort(const char *name, void (*fn)(void), const char *func)
{
	struct child_result res;
	bool ok;

	run_child(fn, NULL, &res);
	ok = died_of_abort(&res) && lines_name(res.err, func) && !strchr(res.err, '\n')[1];
	tap_ok(ok, "%s/%s: %s: aborts with one line \"urcu: %s: ...\"", T_FLAVOR, T_MODE,
		name, func);
	if (!ok)
		describe(&res);
}

/* Counts the events fn caused: the child exits 4 when there were none. */
static void (*counted_fn)(void);

static void counted_child(void)
{
	counted_fn();
	if (urcu_misuse_events() == 0)
		_exit(4);
}

/*
 * fn must run to completion (liburcu runs it): silent and counted by
 * default, one line per event naming func under URCU_DEBUG=1, SIGABRT after
 * that line under URCU_DEBUG=abort.
 */
static void expect_runs(const char *name, void (*fn)(void), const char *func)
{
	struct child_result res;
	bool ok;

	counted_fn = fn;
	run_child(counted_child, NULL, &res);
	ok = WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0 && res.err[0] == '\0';
	tap_ok(ok, "%s/%s: %s: runs, silent and counted", T_FLAVOR, T_MODE, name);
	if (!ok)
		describe(&res);

	run_child(counted_child, "1", &res);
	ok = WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0 && lines_name(res.err, func);
	tap_ok(ok, "%s/%s: %s: URCU_DEBUG=1: runs, reports \"urcu: %s: ...\"", T_FLAVOR, T_MODE,
		name, func);
	if (!ok)
		describe(&res);

	run_child(counted_child, "abort", &res);
	ok = died_of_abort(&res) && lines_name(res.err, func);
	tap_ok(ok, "%s/%s: %s: URCU_DEBUG=abort: one line, then SIGABRT", T_FLAVOR, T_MODE, name);
	if (!ok)
		describe(&res);
}

static void expect_clean(const char *name, void (*fn)(void))
{
	struct child_result res;
	bool clean;

	run_child(fn, "1", &res);
	clean = WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0 && res.err[0] == '\0';
	tap_ok(clean, "%s/%s: %s: correct usage exits 0, nothing on stderr even with URCU_DEBUG=1,"
		" no event counted", T_FLAVOR, T_MODE, name);
	if (!clean)
		describe(&res);
}

int main(void)
{
	expect_clean("control", case_correct_usage);
	if (T_IS_BP)
		expect_clean("bp: read unregistered, register twice", case_bp_lazy_reader);

	/* Where liburcu breaks too. */
	if (!T_IS_QSBR) {
		expect_abort("synchronize_rcu inside a critical section", case_sync_in_cs,
			"synchronize_rcu");
		expect_abort("synchronize_rcu inside a nested critical section",
			case_nested_sync_in_cs, "synchronize_rcu");
		expect_abort("read_unlock without read_lock", case_unlock_without_lock,
			"read_unlock");
		expect_abort("one read_unlock too many", case_unbalanced_unlock, "read_unlock");
	}
	if (!T_IS_BP)
		expect_abort("register_thread twice", case_register_twice, "register_thread");
	expect_abort("unregister_thread when not registered", case_unregister_unregistered,
		"unregister_thread");

	/* Where liburcu runs. */
	if (!T_IS_QSBR) {
		if (!T_IS_BP) {
			expect_runs("read_lock in a never-registered thread",
				case_lock_unregistered, "read_lock");
			expect_runs("read_lock after unregister_thread",
				case_lock_after_unregister, "read_lock");
		}
		expect_runs("unregister_thread inside a critical section", case_unregister_in_cs,
			"unregister_thread");
		expect_runs("read_unlock in a never-registered thread", case_unlock_unregistered,
			"read_unlock");
	} else {
		expect_runs("thread_online/offline in a never-registered thread",
			case_qsbr_online_unregistered, "thread_o");
		if (T_DEBUG_BUILD) {
			expect_runs("debug: synchronize_rcu inside a critical section",
				case_qsbr_sync_in_cs, "synchronize_rcu");
			expect_runs("debug: read_unlock without read_lock",
				case_qsbr_unlock_without_lock, "read_unlock");
		} else {
			tap_skip("qsbr critical-section misuse: detectable in debug_checks builds only");
		}
	}
	return tap_done();
}
