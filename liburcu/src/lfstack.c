// SPDX-License-Identifier: MIT
/* Placeholder: being written (issues 7 and 8). */
