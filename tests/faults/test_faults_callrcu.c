// SPDX-License-Identifier: MIT
/*
 * Allocation and thread-creation failures in call_rcu worker creation
 * (compiled per flavor).  What each check holds the library to:
 *
 *   - the default worker, created lazily by the first call_rcu() or
 *     get_default_call_rcu_data(): call_rcu(3) and create_call_rcu_data(3)
 *     ERRORS: "urcu: get_default_call_rcu_data: cannot create the default
 *     call_rcu worker: <strerror>" on stderr, then abort (neither function
 *     can return an error);
 *   - create_call_rcu_data(): create_call_rcu_data(3) RETURN VALUE: NULL with
 *     errno set (ENOMEM when the worker cannot be allocated; the
 *     pthread_create error, EAGAIN here, when its thread cannot start); a
 *     CPU that refuses the affinity (EINVAL) gives an unbound worker;
 *   - create_all_cpu_call_rcu_data(): the same page: a negative error number
 *     with errno set to it (-ENOMEM: the per-CPU table or a worker; -EAGAIN:
 *     a worker's thread, the pthread_create error negated), CPUs equipped before
 *     the error keep their workers;
 *   - and in every case nothing the library allocated stays allocated once
 *     the caller has cleaned up (free_all_cpu_call_rcu_data /
 *     call_rcu_data_free), except the per-CPU table, which call-rcu.c keeps
 *     for the life of the process by design.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flavor-select.h"
#include "faults-common.h"

static struct rcu_head child_head;

static void child_cb(struct rcu_head *head)
{
	(void) head;
}

/* Children: the first call_rcu() cannot create the default worker. */
static void default_worker_no_thread(void)
{
	fi_fail_thread(1, 1, EAGAIN);
	T_FN(call_rcu)(&child_head, child_cb);
}

static void default_worker_no_memory(void)
{
	fi_fail_alloc(1, FI_LIB_ONLY);
	T_FN(call_rcu)(&child_head, child_cb);
}

static void default_worker_getter_no_thread(void)
{
	fi_fail_thread(1, 1, EAGAIN);
	(void) T_FN(get_default_call_rcu_data)();
}

/* create_call_rcu_data: fail each of its allocations in turn, then none. */
static void create_alloc_sweep(int cpu)
{
	int nth, bad = 0, points = 0;

	for (nth = 1; nth < 16; nth++) {
		struct call_rcu_data *crdp;
		int err;

		fi_track_begin();
		fi_fail_alloc(nth, FI_LIB_ONLY);
		errno = 0;
		crdp = T_FN(create_call_rcu_data)(0, cpu);
		err = errno;
		if (!fi_injected()) {
			fi_disarm();
			tap_ok(crdp != NULL, "create_call_rcu_data(0, %d): succeeds once no allocation fails", cpu);
			/* The count sees the worker: the leak checks can fail. */
			tap_ok(fi_track_live() >= 1, "the live-block count sees the new worker (%ld blocks)",
				fi_track_live());
			T_FN(call_rcu_data_free)(crdp);
			faults_no_leak("create_call_rcu_data + call_rcu_data_free");
			break;
		}
		fi_disarm();
		points++;
		if (crdp || err != ENOMEM) {
			tap_diag("allocation %d failing: crdp %p, errno %d", nth, (void *) crdp, err);
			bad++;
			T_FN(call_rcu_data_free)(crdp);
		}
		if (fi_track_live()) {
			tap_diag("allocation %d failing: %ld library blocks left", nth, fi_track_live());
			bad++;
		}
	}
	tap_ok(points >= 1 && !bad,
		"create_call_rcu_data(0, %d): each of its %d allocations failing gives NULL, errno ENOMEM, no leak",
		cpu, points);
}

static void create_thread_failures(void)
{
	struct call_rcu_data *crdp;
	int err;

	fi_track_begin();
	fi_fail_thread(1, 1, EAGAIN);
	errno = 0;
	crdp = T_FN(create_call_rcu_data)(0, -1);
	err = errno;
	tap_ok(fi_injected() == 1 && crdp == NULL && err == EAGAIN,
		"create_call_rcu_data: pthread_create failing with EAGAIN gives NULL, errno EAGAIN (got %p, %s)",
		(void *) crdp, strerror(err));
	fi_disarm();
	faults_no_leak("create_call_rcu_data, thread failure");

	/* An unusable CPU: the first attempt fails with EINVAL, the retry is unbound. */
	fi_track_begin();
	fi_fail_thread(1, 1, EINVAL);
	crdp = T_FN(create_call_rcu_data)(0, 0);
	tap_ok(fi_injected() == 1 && crdp != NULL,
		"create_call_rcu_data(0, 0): EINVAL for the affinity falls back to an unbound worker");
	fi_disarm();
	T_FN(call_rcu_data_free)(crdp);
	faults_no_leak("unbound fallback worker freed");

	/* Both attempts fail: the second error is reported. */
	fi_track_begin();
	fi_fail_thread(1, 2, EINVAL);
	errno = 0;
	crdp = T_FN(create_call_rcu_data)(0, 0);
	err = errno;
	fi_disarm();
	if (crdp)
		T_FN(call_rcu_data_free)(crdp);
	tap_ok(crdp == NULL && err == EINVAL && fi_thread_calls() == 2,
		"create_call_rcu_data(0, 0): the unbound retry failing too gives NULL, errno EINVAL (got %p, %s)",
		(void *) crdp, strerror(err));
	faults_no_leak("create_call_rcu_data, both attempts failing");
}

/*
 * One create_all_cpu_call_rcu_data() with a fault armed by arm(); check the
 * result, that CPUs before the failing one kept a worker, clean up, check
 * for leaks.  Returns 0 when no fault was injected (the sweep is over).
 */
static int create_all_once(int nth, int thread, int ncpus, int *bad)
{
	int ret, err, injected, equipped = 0;
	int want = thread ? EAGAIN : ENOMEM;

	fi_track_begin();
	if (thread)
		fi_fail_thread(nth, 1, EAGAIN);
	else
		fi_fail_alloc(nth, FI_LIB_ONLY);
	errno = 0;
	ret = T_FN(create_all_cpu_call_rcu_data)(0);
	err = errno;
	injected = fi_injected();
	fi_disarm();
	for (int cpu = 0; cpu < ncpus; cpu++)
		equipped += T_FN(get_cpu_call_rcu_data)(cpu) != NULL;
	if (injected && (ret != -want || err != want)) {
		tap_diag("%s %d failing: returned %d, errno %d", thread ? "thread" : "allocation",
			nth, ret, err);
		(*bad)++;
	}
	if (!injected && (ret != 0 || equipped != ncpus)) {
		tap_diag("no fault: returned %d, %d of %d CPUs equipped", ret, equipped, ncpus);
		(*bad)++;
	}
	/* One worker per CPU, one allocation and one thread each, in CPU order. */
	if (injected && equipped != nth - 1) {
		tap_diag("%s %d failing: %d CPUs kept a worker, want %d",
			thread ? "thread" : "allocation", nth, equipped, nth - 1);
		(*bad)++;
	}
	T_FN(free_all_cpu_call_rcu_data)();
	if (fi_track_live()) {
		tap_diag("%s %d failing: %ld library blocks left after free_all_cpu_call_rcu_data",
			thread ? "thread" : "allocation", nth, fi_track_live());
		(*bad)++;
	}
	return injected;
}

static void create_all_failures(void)
{
	int ncpus = (int) sysconf(_SC_NPROCESSORS_CONF);
	int ret, err, bad = 0;
	struct call_rcu_data *crdp;

	if (ncpus <= 0) {
		tap_skip("create_all_cpu_call_rcu_data: the CPU count is unknown");
		return;
	}
	/* First call of the process: the per-CPU table is not allocated yet. */
	fi_track_begin();
	fi_fail_alloc(2, FI_LIB_ONLY);		/* CPU 0's worker, then the table */
	errno = 0;
	ret = T_FN(create_all_cpu_call_rcu_data)(0);
	err = errno;
	fi_disarm();
	crdp = T_FN(get_cpu_call_rcu_data)(0);
	tap_ok(ret == -ENOMEM && err == ENOMEM && !crdp,
		"create_all_cpu_call_rcu_data: the per-CPU table failing gives -ENOMEM, errno ENOMEM, no worker (got %d, %s)",
		ret, strerror(err));
	faults_no_leak("per-CPU table failure (CPU 0's worker freed)");

	/* The table, kept for the life of the process, is not a leak. */
	if (T_FN(set_cpu_call_rcu_data)(0, NULL))
		tap_bail("set_cpu_call_rcu_data(0, NULL) failed: %s", strerror(errno));

	/* Fail worker k for a few k (all of them on small machines), then none. */
	for (int thread = 0; thread <= 1; thread++) {
		int points = 0, nth;

		bad = 0;
		for (nth = 1; nth <= ncpus + 1; nth++) {
			if (nth > 3 && nth < ncpus)
				continue;	/* large machines: first three and last */
			if (!create_all_once(nth, thread, ncpus, &bad))
				break;
			points++;
		}
		tap_ok(!bad && points >= 1 && nth == ncpus + 1,
			"create_all_cpu_call_rcu_data, %d CPUs: %s k failing gives -%s with errno set, CPUs before k keep workers, no leak after free_all (%d points)",
			ncpus, thread ? "thread" : "worker allocation", thread ? "EAGAIN" : "ENOMEM",
			points);
	}
}

int main(void)
{
	alarm(60);
	fi_scan_libs();
	tap_diag("flavor %s", T_FLAVOR);

	/* Deaths first, while this process has no thread to lose in fork. */
	faults_expect_death(default_worker_no_thread,
		"urcu: get_default_call_rcu_data: cannot create the default call_rcu worker: Resource temporarily unavailable",
		"first call_rcu, pthread_create failing");
	faults_expect_death(default_worker_no_memory,
		"urcu: get_default_call_rcu_data: cannot create the default call_rcu worker: Cannot allocate memory",
		"first call_rcu, worker allocation failing");
	faults_expect_death(default_worker_getter_no_thread,
		"urcu: get_default_call_rcu_data: cannot create the default call_rcu worker: Resource temporarily unavailable",
		"get_default_call_rcu_data, pthread_create failing");

	create_alloc_sweep(-1);
	create_alloc_sweep(0);
	create_thread_failures();
	create_all_failures();
	return tap_done();
}
