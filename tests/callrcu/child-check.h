// SPDX-License-Identifier: MIT
/*
 * Run a function in a child process and report how it ended: its exit status
 * or signal, and what it wrote on stderr.  Used by the misuse and exit tests.
 */
#ifndef TESTS_CALLRCU_CHILD_CHECK_H
#define TESTS_CALLRCU_CHILD_CHECK_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct child_result {
	bool exited;		/* normal exit, code in status */
	bool signaled;		/* killed, signal in status */
	bool timed_out;		/* still running after the limit: killed */
	int status;
	double seconds;
	char err[1024];		/* start of its stderr */
};

/* Run fn() in a child (its return value is the exit code); wait at most limit_s. */
static inline struct child_result run_child(int (*fn)(void), double limit_s)
{
	struct child_result r;
	struct timespec t0, t1;
	int pipefd[2], wstatus = 0;
	ssize_t got, len = 0;
	pid_t pid;

	memset(&r, 0, sizeof(r));
	if (pipe(pipefd))
		abort();
	fflush(stdout);
	fflush(stderr);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		close(pipefd[0]);
		dup2(pipefd[1], STDERR_FILENO);
		_exit(fn());
	}
	close(pipefd[1]);
	for (;;) {
		pid_t w = waitpid(pid, &wstatus, WNOHANG);

		clock_gettime(CLOCK_MONOTONIC, &t1);
		r.seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
		if (w == pid)
			break;
		if (r.seconds > limit_s) {
			r.timed_out = true;
			kill(pid, SIGKILL);
			waitpid(pid, &wstatus, 0);
			break;
		}
		usleep(2000);
	}
	while (len < (ssize_t) sizeof(r.err) - 1
			&& (got = read(pipefd[0], r.err + len, sizeof(r.err) - 1 - len)) > 0)
		len += got;
	close(pipefd[0]);
	if (!r.timed_out && WIFEXITED(wstatus)) {
		r.exited = true;
		r.status = WEXITSTATUS(wstatus);
	} else if (!r.timed_out && WIFSIGNALED(wstatus)) {
		r.signaled = true;
		r.status = WTERMSIG(wstatus);
	}
	return r;
}

/* The child died of SIGABRT after printing a line containing msg. */
static inline bool died_with(const struct child_result *r, const char *msg)
{
	return r->signaled && r->status == SIGABRT && strstr(r->err, msg) != NULL;
}

#endif /* TESTS_CALLRCU_CHILD_CHECK_H */
