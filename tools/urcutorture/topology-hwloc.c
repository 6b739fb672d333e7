/* SPDX-License-Identifier: MIT */
/*
 * hwloc backend: the topology of this machine, of a synthetic description
 * or of an XML file, flattened into the PU table of topology.h; and
 * binding the calling thread with hwloc_set_cpubind().  Compiled to nothing
 * without UT_HAVE_HWLOC.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "topology.h"

#ifdef UT_HAVE_HWLOC

#include <errno.h>
#include <pthread.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hwloc.h>

/* Flatten a loaded hwloc topology: PUs in logical order. */
static int flatten(hwloc_topology_t topo, enum ut_topo_source source, const char *desc,
		   struct ut_topology **out, char *err, size_t errlen)
{
	int npu = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
	int nnuma = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
	struct ut_topo_raw *raw;
	int rc;

	if (npu <= 0) {
		ut_set_err(err, errlen, "hwloc found no PUs in the topology");
		return -1;
	}
	raw = calloc(npu, sizeof(*raw));
	if (!raw) {
		ut_set_err(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < npu; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, i);
		hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, pu);
		hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, pu);

		raw[i].os = (int)pu->os_index;
		raw[i].pkg_key = pkg ? (long)pkg->logical_index : 0;
		/*
		 * No core level (some platforms): every PU counts as a core,
		 * with a negative key (logical indexes are >= 0) that fits a
		 * 32-bit long too (1L << 40 did not) and keeps PUs in order.
		 */
		raw[i].core_key = core ? (long)core->logical_index : LONG_MIN + i;
		raw[i].node_os = -1;
		/* hwloc 2 hangs NUMA nodes off the memory side: match by cpuset. */
		for (int k = 0; k < nnuma; k++) {
			hwloc_obj_t nd = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, k);

			if (nd->cpuset && hwloc_bitmap_isset(nd->cpuset, pu->os_index)) {
				raw[i].node_os = (int)nd->os_index;
				break;
			}
		}
	}
	rc = ut_topo_build(raw, npu, source, desc, "hwloc", out, err, errlen);
	free(raw);
	return rc;
}

int ut_topo_load_hwloc(enum ut_topo_source source, const char *spec, struct ut_topology **out,
		       char *err, size_t errlen)
{
	hwloc_topology_t topo;
	int rc;

	*out = NULL;
	if (hwloc_topology_init(&topo)) {
		ut_set_err(err, errlen, "hwloc_topology_init failed: %s", strerror(errno));
		return -1;
	}
	if (source == UT_TOPO_SYNTHETIC && hwloc_topology_set_synthetic(topo, spec)) {
		ut_set_err(err, errlen, "synthetic topology: hwloc cannot parse \"%s\" "
			   "(example: pack:2 numa:2 core:8 pu:2)", spec);
		goto fail;
	}
	if (source == UT_TOPO_XML) {
		if (access(spec, R_OK)) {
			ut_set_err(err, errlen, "cannot read topology file '%s': %s", spec, strerror(errno));
			goto fail;
		}
		if (hwloc_topology_set_xml(topo, spec)) {
			ut_set_err(err, errlen, "'%s' is not an hwloc XML topology", spec);
			goto fail;
		}
	}
	if (hwloc_topology_load(topo)) {
		if (source == UT_TOPO_XML)
			ut_set_err(err, errlen, "'%s' is not an hwloc XML topology (hwloc could not load it)",
				   spec);
		else
			ut_set_err(err, errlen, "hwloc could not load the topology: %s", strerror(errno));
		goto fail;
	}
	rc = flatten(topo, source, spec, out, err, errlen);
	hwloc_topology_destroy(topo);
	return rc;
fail:
	hwloc_topology_destroy(topo);
	return -1;
}

/* This machine's topology for binding, loaded once on first use. */
static hwloc_topology_t bind_topo;
static int bind_topo_ok;
static pthread_once_t bind_once = PTHREAD_ONCE_INIT;

static void bind_topo_init(void)
{
	if (hwloc_topology_init(&bind_topo))
		return;
	if (hwloc_topology_load(bind_topo)) {
		hwloc_topology_destroy(bind_topo);
		return;
	}
	bind_topo_ok = 1;
}

int ut_topo_hwloc_bind_self(int cpu, char *err, size_t errlen)
{
	hwloc_bitmap_t want, got;
	int rc = -1;

	/* pthread_once orders the initialisation before every use of bind_topo. */
	pthread_once(&bind_once, bind_topo_init);
	if (!bind_topo_ok) {
		ut_set_err(err, errlen, "hwloc cannot load this machine's topology");
		return 1;
	}
	want = hwloc_bitmap_alloc();
	got = hwloc_bitmap_alloc();
	if (!want || !got) {
		ut_set_err(err, errlen, "out of memory");
		goto out;
	}
	hwloc_bitmap_only(want, (unsigned)cpu);
	if (hwloc_set_cpubind(bind_topo, want, HWLOC_CPUBIND_THREAD)) {
		ut_set_err(err, errlen, "cannot bind to CPU %d: %s", cpu, strerror(errno));
		goto out;
	}
	if (hwloc_get_cpubind(bind_topo, got, HWLOC_CPUBIND_THREAD)) {
		ut_set_err(err, errlen, "bound to CPU %d but cannot read the binding back: %s", cpu,
			   strerror(errno));
		goto out;
	}
	if (!hwloc_bitmap_isequal(want, got)) {
		char *s = NULL;

		hwloc_bitmap_list_asprintf(&s, got);
		ut_set_err(err, errlen, "asked to bind to CPU %d, the binding reads back as CPUs %s",
			   cpu, s ? s : "?");
		free(s);
		goto out;
	}
	rc = 0;
out:
	hwloc_bitmap_free(want);
	hwloc_bitmap_free(got);
	return rc;
}

#else

/* Keeps this translation unit non-empty in builds without hwloc. */
typedef int ut_topology_hwloc_unused;

#endif /* UT_HAVE_HWLOC */
