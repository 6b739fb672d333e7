// SPDX-License-Identifier: MIT
/*
 * test_later_names.c compiled as C++: the headers' C++ side (the
 * cmm_cast_volatile template, the wfcqueue cast overloads) under the same
 * checks.
 */
#include "test_later_names.c"
