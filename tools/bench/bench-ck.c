// SPDX-License-Identifier: MIT
/*
 * The ck_epoch side of the Concurrency Kit peer (bench-ck.h): one global
 * epoch, one record per thread.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "bench-ck.h"
#include "bench-util.h"

ck_epoch_t bench_ck_epoch;
__thread ck_epoch_record_t *bench_ck_rec;

static __attribute__((constructor)) void bench_ck_init(void)
{
	ck_epoch_init(&bench_ck_epoch);
}

ck_epoch_record_t *bench_ck_self(void)
{
	ck_epoch_record_t *rec = bench_ck_rec;

	if (rec)
		return rec;
	rec = ck_epoch_recycle(&bench_ck_epoch, NULL);
	if (!rec) {
		rec = bench_xmalloc(sizeof(*rec));
		ck_epoch_register(&bench_ck_epoch, rec, NULL);
	}
	bench_ck_rec = rec;
	return rec;
}

/*
 * ck_epoch_unregister drops the record's pending callbacks without running
 * them: run them first (after a grace period), as an application must.
 */
void rcu_unregister_thread(void)
{
	if (!bench_ck_rec)
		return;
	ck_epoch_barrier(bench_ck_rec);
	ck_epoch_unregister(bench_ck_rec);
	bench_ck_rec = NULL;
}
