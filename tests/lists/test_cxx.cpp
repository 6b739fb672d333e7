// SPDX-License-Identifier: MIT
/*
 * One of this suite's C tests compiled as C++11, to prove the headers'
 * macros and inline functions work there too.  Meson builds this file once
 * per test, naming the C source in LISTS_CXX_SOURCE; the C sources are
 * written in the common subset of the two languages.
 */
#ifndef LISTS_CXX_SOURCE
#error "build with -DLISTS_CXX_SOURCE=\"test_<name>.c\""
#endif
#include LISTS_CXX_SOURCE
