// SPDX-License-Identifier: MIT
/*
 * Shared by the tests of the stacks and queues (tests/cds): the build mode,
 * and a compile-time check that _LGPL_SOURCE really switches a family's
 * public names to its inline versions (they become macros or, for the
 * deprecated headers, static inline wrappers), while without it they are the
 * library's exported functions.
 */
#ifndef TESTS_CDS_CDS_TEST_H
#define TESTS_CDS_CDS_TEST_H

#ifdef _LGPL_SOURCE
# define T_CDS_MODE	"inline (_LGPL_SOURCE)"
#else
# define T_CDS_MODE	"exported functions"
#endif

#ifdef __cplusplus
# define T_CDS_LANG	"C++"
#else
# define T_CDS_LANG	"C"
#endif

/*
 * T_CDS_CHECK_MAPPED(name): with _LGPL_SOURCE, name must be a macro (the
 * inline version); without it, it must not be one.
 */
#ifdef _LGPL_SOURCE
# define T_CDS_MAPPED	1
#else
# define T_CDS_MAPPED	0
#endif

#endif /* TESTS_CDS_CDS_TEST_H */
