// SPDX-License-Identifier: MIT
/*
 * Run one function in a forked child and keep what it wrote on stderr: the
 * runner of the death tests (tests/unit/test_misuse.c,
 * tests/hash/test_hash_misuse.c), where a misuse must end the child with a
 * message and SIGABRT.
 *
 *   child_stderr_run(fn, &status, err, size)
 *     forks; the child gets no core dump, its stderr on a pipe and an alarm
 *     of CHILD_STDERR_ALARM_S seconds (a misuse that hangs instead of
 *     aborting dies of SIGALRM, a failure, not a hung test), runs fn() and
 *     exits 0.  The parent reads the child's stderr into err (at most
 *     size - 1 bytes, then NUL-terminated) until the pipe closes, and stores
 *     the wait status in *status.  A failed pipe, fork or waitpid bails out.
 *
 * Under qemu-user (tools/check-arch.sh) the emulator itself adds one line,
 * "qemu: uncaught target signal N (...) - core dumped", to the stderr of a
 * guest killed by a signal, after the guest's own output.  That line is
 * not the program's: it is dropped when the wait status says the child died
 * of a signal, which the status still reports, so a test comparing the
 * child's exact stderr checks what the library wrote on every architecture.
 */
#ifndef TESTS_COMMON_CHILD_STDERR_H
#define TESTS_COMMON_CHILD_STDERR_H

#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

#define CHILD_STDERR_ALARM_S	10

#define CHILD_STDERR_QEMU_LINE	"qemu: uncaught target signal "

/* Drop qemu-user's own last line from a signalled child's stderr (above). */
static inline void child_stderr_drop_qemu_line(char *err)
{
	char *line = strstr(err, CHILD_STDERR_QEMU_LINE);
	const char *nl;

	if (!line || (line != err && line[-1] != '\n'))
		return;
	nl = strchr(line, '\n');
	if (!nl || !nl[1])
		*line = '\0';
}

static inline void child_stderr_run(void (*fn)(void), int *status, char *err, size_t size)
{
	int fds[2];
	size_t len = 0;
	pid_t pid;

	if (pipe(fds))
		tap_bail("pipe: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		tap_bail("fork: %s", strerror(errno));
	if (pid == 0) {
		struct rlimit nocore = { 0, 0 };

		setrlimit(RLIMIT_CORE, &nocore);
		close(fds[0]);
		if (dup2(fds[1], STDERR_FILENO) < 0)
			_exit(99);
		close(fds[1]);
		alarm(CHILD_STDERR_ALARM_S);
		fn();
		_exit(0);
	}
	close(fds[1]);
	while (len < size - 1) {
		ssize_t n = read(fds[0], err + len, size - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t) n;
	}
	err[len] = '\0';
	close(fds[0]);
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR)
			tap_bail("waitpid: %s", strerror(errno));
	}
	if (WIFSIGNALED(*status))
		child_stderr_drop_qemu_line(err);
}

#endif /* TESTS_COMMON_CHILD_STDERR_H */
