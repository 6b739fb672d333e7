// SPDX-License-Identifier: MIT
/*
 * Helpers of the faults tests: a check that a scenario run in a child dies
 * with the documented one-line message (and no later than its timeout), and
 * the leak check over fault-inject.c's live-block count.
 */
#ifndef TESTS_FAULTS_FAULTS_COMMON_H
#define TESTS_FAULTS_FAULTS_COMMON_H

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "fault-inject.h"

/* A child that neither dies nor returns within this many seconds is killed. */
#define FAULTS_CHILD_TIMEOUT_S	10

/*
 * Run fn in a forked child, its stderr captured.  The check passes when the
 * child is killed by SIGABRT and its stderr contains want.  Call it before
 * the test creates any thread (fork copies only the caller).
 */
static inline int faults_expect_death(void (*fn)(void), const char *want, const char *what)
{
	char buf[2048];
	size_t n = 0;
	ssize_t r;
	int pfd[2], st = 0, ok;
	pid_t pid;

	if (pipe(pfd))
		tap_bail("pipe failed");
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		tap_bail("fork failed");
	if (pid == 0) {
		dup2(pfd[1], 2);
		close(pfd[0]);
		close(pfd[1]);
		alarm(FAULTS_CHILD_TIMEOUT_S);	/* a hang ends as SIGALRM: the check fails */
		fn();
		_exit(0);
	}
	close(pfd[1]);
	while (n < sizeof(buf) - 1 && (r = read(pfd[0], buf + n, sizeof(buf) - 1 - n)) != 0) {
		if (r < 0)
			break;
		n += (size_t) r;
	}
	buf[n] = '\0';
	close(pfd[0]);
	(void) waitpid(pid, &st, 0);
	ok = WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT && strstr(buf, want) != NULL;
	tap_ok(ok, "%s: aborts with \"%s\"", what, want);
	if (!ok) {
		if (WIFSIGNALED(st))
			tap_diag("child killed by signal %d", WTERMSIG(st));
		else
			tap_diag("child exited with status %d", WEXITSTATUS(st));
		tap_diag("child's stderr: %s", n ? buf : "(empty)");
	}
	return ok;
}

/* Check that no block the library allocated since fi_track_begin() is still live. */
static inline int faults_no_leak(const char *what)
{
	long live = fi_track_live();
	int ok = tap_ok(live == 0, "%s: no library block left (%ld live)", what, live);

	if (!ok) {
		size_t sizes[8];
		int k = fi_track_sizes(sizes, 8);

		for (int i = 0; i < k; i++)
			tap_diag("live block of %zu bytes", sizes[i]);
	}
	return ok;
}

#endif /* TESTS_FAULTS_FAULTS_COMMON_H */
