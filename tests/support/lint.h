/*
 * lint.h - what clang-tidy is told of cmocka when it reads the suites:
 * scripts/lint.sh includes this first in every file under tests/, never
 * in a build. A failed cmocka assertion does not return (cmocka jumps out
 * of the test), which <cmocka.h> does not declare, so without this the
 * analyzer follows a NULL or a failed call past the assertion that
 * stopped it. Here each assertion the suites guard values with evaluates
 * its arguments once, as cmocka's do, and ends the path when it fails.
 */
#ifndef MENTAT_TESTS_SUPPORT_LINT_H
#define MENTAT_TESTS_SUPPORT_LINT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#undef assert_true
#undef assert_false
#undef assert_non_null
#undef assert_null
#undef assert_int_equal
#undef assert_int_not_equal
#undef assert_ptr_equal
#undef assert_ptr_not_equal
#undef assert_string_equal
#undef fail
#undef fail_msg
#undef skip

#define assert_true(c) do { if (!(c)) abort(); } while (0)
#define assert_false(c) do { if (c) abort(); } while (0)
#define assert_non_null(c) do { if ((c) == NULL) abort(); } while (0)
#define assert_null(c) do { if ((c) != NULL) abort(); } while (0)
#define assert_int_equal(a, b)                                                        \
    do {                                                                              \
        LargestIntegralType lint_a_ = (LargestIntegralType)(a), lint_b_ = (LargestIntegralType)(b); \
        if (lint_a_ != lint_b_)                                                       \
            abort();                                                                  \
    } while (0)
#define assert_int_not_equal(a, b)                                                    \
    do {                                                                              \
        LargestIntegralType lint_a_ = (LargestIntegralType)(a), lint_b_ = (LargestIntegralType)(b); \
        if (lint_a_ == lint_b_)                                                       \
            abort();                                                                  \
    } while (0)
#define assert_ptr_equal(a, b) do { if ((const void *)(a) != (const void *)(b)) abort(); } while (0)
#define assert_ptr_not_equal(a, b) do { if ((const void *)(a) == (const void *)(b)) abort(); } while (0)
#define assert_string_equal(a, b) do { if (strcmp((a), (b)) != 0) abort(); } while (0)
#define fail() abort()
#define fail_msg(...) abort()
#define skip() abort()

#endif
