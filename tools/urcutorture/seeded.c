/* SPDX-License-Identifier: MIT */
/*
 * The seeded ordering-bug flavors, busted-order-updater and
 * busted-order-reader (test-only; issue 11).
 *
 * Each is the real grace-period engine of its base flavor with one ordering
 * step removed at build time (URCU_I_SEED_ORDER_UPDATER: memb's B1 before
 * the flip; URCU_I_SEED_ORDER_READER: mb's reader fence after publishing its
 * word).  That engine cannot be linked into this binary beside the real
 * flavor libraries (same symbol names), so tools/meson.build builds it as a
 * module (seed-module.c) whose only exported symbol is ut_seed_flavor_ops,
 * and we dlopen() it RTLD_LOCAL on first use: its copy of the engine, its
 * registry, global word and thread-local reader records are its own.
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

const struct ut_flavor_ops *ut_seeded_ops(const char *name);

struct ut_seeded {
	const char *name;		/* --flavor=NAME */
	const char *module;		/* file name of its module */
	struct ut_flavor_ops ops;	/* the module's table, renamed; filled once */
};

static struct ut_seeded seeded[] = {
	{ "busted-order-updater", "ut-busted-order-updater.so", { 0 } },
	{ "busted-order-reader", "ut-busted-order-reader.so", { 0 } },
};

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
 * The seeded flavor NAME, or NULL when NAME is not one.  Called from option
 * parsing (main thread) only; the first call per name loads its module and
 * exits with status 3 after one line on stderr if that fails.
 */
const struct ut_flavor_ops *ut_seeded_ops(const char *name)
{
	for (size_t i = 0; i < sizeof(seeded) / sizeof(seeded[0]); i++) {
		struct ut_seeded *s = &seeded[i];
		char dir[PATH_MAX] = "", why[512] = "";
		const struct ut_flavor_ops *(*get)(void);
		const struct ut_flavor_entry *entry;
		const char *base, *mod;
		void *h;

		if (strcmp(s->name, name))
			continue;
		if (s->ops.name)
			return &s->ops;
		h = open_module(s->module, dir, sizeof(dir), why, sizeof(why));
		if (!h) {
			fprintf(stderr, "urcutorture: --flavor=%s: cannot load %s (looked in %s and %s)%s%s\n",
				name, s->module, dir, UT_SEED_MODULE_DIR, why[0] ? ": " : "", why);
			exit(UT_EXIT_ENV);
		}
		*(void **)&get = dlsym(h, "ut_seed_flavor_ops");
		if (!get || !get()) {
			fprintf(stderr, "urcutorture: --flavor=%s: %s has no ut_seed_flavor_ops\n",
				name, s->module);
			exit(UT_EXIT_ENV);
		}
		/* The registry's base column names the engine the module is
		 * built from (tools/meson.build's ut_seeded): they must agree. */
		mod = get()->name;
		entry = ut_flavor_entry_find(name);
		base = entry ? entry->base : NULL;
		if (!base || !mod || strcmp(base, mod)) {
			fprintf(stderr, "urcutorture: --flavor=%s: %s is built from %s, the flavor "
				"registry says %s (tools/meson.build's ut_seeded and flavors.c disagree)\n",
				name, s->module, mod ? mod : "?", base ? base : "no base");
			exit(UT_EXIT_ENV);
		}
		/* The real engine of the base flavor with one step removed:
		 * not is_busted (its callbacks and barriers are the real ones). */
		s->ops = *get();
		s->ops.name = s->name;
		return &s->ops;
	}
	return NULL;
}
