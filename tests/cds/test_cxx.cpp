// SPDX-License-Identifier: MIT
/*
 * One of this suite's C tests compiled as C++: Meson builds this file once
 * per test, naming the C source in CDS_CXX_SOURCE.  The C sources are written
 * in the common subset of the two languages, so that the headers' C++ side
 * (the cast overloads and templates of liburcu 0.14+) is exercised by the
 * same checks.
 */
#ifndef CDS_CXX_SOURCE
#error "build with -DCDS_CXX_SOURCE=\"test_<name>.c\""
#endif
#include CDS_CXX_SOURCE
