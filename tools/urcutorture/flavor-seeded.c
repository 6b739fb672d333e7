/* SPDX-License-Identifier: MIT */
/*
 * The seeded ordering-bug flavors, busted-order-updater and
 * busted-order-reader (test-only: they prove that the litmus mode catches
 * a missing barrier, which the other modes do not).
 *
 * Each is the real grace-period engine of its base flavor with one ordering
 * step removed at build time (URCU_I_SEED_ORDER_UPDATER: memb's B1 before
 * the flip; URCU_I_SEED_ORDER_READER: mb's reader fence after publishing its
 * word).  That engine cannot be linked into this binary beside the real
 * flavor libraries (same symbol names), so tools/meson.build builds it as a
 * module (seed-module.c) whose only exported symbol is ut_seed_flavor_ops,
 * and we dlopen() it RTLD_LOCAL on first use: its copy of the engine, its
 * registry, global word and thread-local reader records are its own.  The
 * flavor registry (flavor-registry.c, its seeded lines generated from
 * tools/meson.build's ut_seeded) then copies the module's table under the
 * flavor's name, as it does for every test-only flavor.
 *
 * Where: next to this executable (the build tree), then UT_SEED_MODULE_DIR
 * (the installed libdir/urcutorture).  A module that is found nowhere is a
 * one-line error and exit 3 (an environment problem, not a usage error).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ut.h"

#ifndef UT_SEED_MODULE_DIR
# define UT_SEED_MODULE_DIR "/usr/local/lib/urcutorture"
#endif

/* dlopen dir/file; NULL (and the loader's message in why) when absent. */
static void *try_open(const char *dir, const char *file, char *why, size_t len)
{
	char path[PATH_MAX];
	void *h;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, file) >= sizeof(path))
		return NULL;
	if (access(path, R_OK))
		return NULL;
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		snprintf(why, len, "%s", dlerror());
	return h;
}

static void *open_module(const char *file, char *exe_dir, size_t dirlen, char *why, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", exe_dir, dirlen - 1);
	void *h = NULL;

	if (n > 0) {
		char *slash;

		exe_dir[n] = '\0';
		slash = strrchr(exe_dir, '/');
		if (slash)
			*slash = '\0';
		h = try_open(exe_dir, file, why, len);
	} else {
		snprintf(exe_dir, dirlen, "(unknown executable directory)");
	}
	if (!h && !why[0])
		h = try_open(UT_SEED_MODULE_DIR, file, why, len);
	return h;
}

/*
 * The file name of a seeded flavor's module, the one rule tools/meson.build
 * follows too: flavor NAME is ut-NAME.so.
 */
static void module_file(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "ut-%s.so", name);
}

/*
 * The module's table of seeded flavor E, which ut_flavor_entry_ops
 * (flavor-registry.c) then copies under E's name.  Called from option
 * parsing (main thread) only, once per flavor; a module that cannot be
 * loaded, or that is built from another engine than E's base, is one line
 * on stderr and exit 3.
 */
const struct ut_flavor_ops *ut_seeded_base(const struct ut_flavor_entry *e)
{
	char dir[PATH_MAX] = "", why[512] = "", file[128];
	const struct ut_flavor_ops *(*get)(void);
	const struct ut_flavor_ops *ops;
	const char *mod;
	void *h;

	module_file(e->name, file, sizeof(file));
	h = open_module(file, dir, sizeof(dir), why, sizeof(why));
	if (!h) {
		fprintf(stderr, "urcutorture: --flavor=%s: cannot load %s (looked in %s and %s)%s%s\n",
			e->name, file, dir, UT_SEED_MODULE_DIR, why[0] ? ": " : "", why);
		exit(UT_EXIT_ENV);
	}
	*(void **)&get = dlsym(h, "ut_seed_flavor_ops");
	ops = get ? get() : NULL;
	if (!ops) {
		fprintf(stderr, "urcutorture: --flavor=%s: %s has no ut_seed_flavor_ops\n",
			e->name, file);
		exit(UT_EXIT_ENV);
	}
	/* The registry's base column names the engine the module is built
	 * from (both come from tools/meson.build's ut_seeded): a module of
	 * another build may disagree. */
	mod = ops->name;
	if (!e->base || !mod || strcmp(e->base, mod)) {
		fprintf(stderr, "urcutorture: --flavor=%s: %s is built from %s, the flavor "
			"registry says %s (a module of another build of tools/meson.build's ut_seeded)\n",
			e->name, file, mod ? mod : "?", e->base ? e->base : "no base");
		exit(UT_EXIT_ENV);
	}
	/* The real engine of the base flavor with one step removed:
	 * not is_busted (its callbacks and barriers are the real ones). */
	return ops;
}
