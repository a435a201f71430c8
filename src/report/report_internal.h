/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared inside src/report/: text checks. */
#ifndef IDLELAB_REPORT_INTERNAL_H
#define IDLELAB_REPORT_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

/* Length of the well-formed UTF-8 sequence of 2-4 bytes at p (n bytes left), 0 if none. */
size_t il_utf8_len(const unsigned char *p, size_t n);
/* s with each byte that is not UTF-8 written as U+FFFD. */
void il_utf8_fputs(const char *s, FILE *out);
/* Columns s takes on a terminal (one per character; s already escaped). */
size_t il_text_width(const char *s);
/* The same for the first n bytes of s. */
int il_text_width_n(const char *s, size_t n);

#endif
