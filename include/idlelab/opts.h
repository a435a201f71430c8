/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Option tables (src/sim/opts.c): the workloads' --wl-opt keys and the
 * engine's --sim-opt keys, each one row of name, type, bounds, default and
 * help, written once. One parser applies the defaults (by parsing the
 * default text), sets a key from its text, checks a filled-in structure
 * against the bounds, and prints the help with default and bounds.
 *
 * A row names a field of the configuration structure by offset; the
 * IL_OPT_* macros below build rows and refuse at compile time a field whose
 * type does not match the option's.
 */
#ifndef IDLELAB_OPTS_H
#define IDLELAB_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idlelab/err.h"
#include "idlelab/state.h"

#ifdef __cplusplus
extern "C" {
#endif

enum il_opt_type {
	IL_OPT_T_U64,       /* uint64_t, a whole number */
	IL_OPT_T_INT,       /* int, a whole number */
	IL_OPT_T_DOUBLE,    /* double */
	IL_OPT_T_DUR,       /* int64_t ns, a duration: "500ns", "20us", "1ms", "2s", bare numbers µs */
	IL_OPT_T_DUR_NS,    /* the same, bare numbers ns (the engine's *_ns keys) */
	IL_OPT_T_BOOL,      /* bool: on/off, yes/no, 1/0, true/false */
	IL_OPT_T_ENUM,      /* an int-sized enum: the index of one of the names in choices */
	IL_OPT_T_DIST,      /* struct il_dist: "const:V", "uniform:A:B", "lognormal:MEDIAN:SIGMA", ...,
			       bare numbers µs */
	IL_OPT_T_DUR_LIST,  /* int64_t[max_n] ns and an int count: durations (bare µs) and ranges */
	IL_OPT_T_U64_LIST,  /* uint64_t[max_n] and an int count: whole numbers and ranges */
	IL_OPT_T_INT_LIST,  /* int[max_n] and an int count */
};

struct il_opt {
	const char *name;
	enum il_opt_type type;
	size_t off;                 /* offset of the field in the configuration */
	size_t count_off;           /* lists: offset of the int count */
	int min_n, max_n;           /* lists: how many values */
	double min, max;            /* bounds of the value (of each value of a list; ns for durations) */
	const char *def;            /* the default, as text the parser takes */
	const char *help;           /* what it is, one line */
	const char *kw;             /* a word also accepted as the value ("same", "none") ... */
	int64_t kw_value;           /* ... and the number it stands for */
	const char *const *choices; /* enums: the names, NULL-terminated */
};

/* offsetof(T, f), a compile error unless the field has type FT (arrays: FT is the element pointer) */
#define IL_OPT_OFF(T, f, FT) \
	(offsetof(T, f) + 0 * sizeof(_Generic(((T *)0)->f, FT: 1)))

#define IL_OPT_U64(T, f, name, lo, hi, def, help) \
	{ name, IL_OPT_T_U64, IL_OPT_OFF(T, f, uint64_t), 0, 0, 0, lo, hi, def, help, NULL, 0, NULL }
#define IL_OPT_INT(T, f, name, lo, hi, def, help) \
	{ name, IL_OPT_T_INT, IL_OPT_OFF(T, f, int), 0, 0, 0, lo, hi, def, help, NULL, 0, NULL }
/* an int that also takes the word kw for kw_value ("irq_cpu=same" for -1) */
#define IL_OPT_INT_KW(T, f, name, lo, hi, kw, kwv, def, help) \
	{ name, IL_OPT_T_INT, IL_OPT_OFF(T, f, int), 0, 0, 0, lo, hi, def, help, kw, kwv, NULL }
#define IL_OPT_DOUBLE(T, f, name, lo, hi, def, help) \
	{ name, IL_OPT_T_DOUBLE, IL_OPT_OFF(T, f, double), 0, 0, 0, lo, hi, def, help, NULL, 0, NULL }
#define IL_OPT_DUR(T, f, name, lo, hi, def, help) \
	{ name, IL_OPT_T_DUR, IL_OPT_OFF(T, f, int64_t), 0, 0, 0, lo, hi, def, help, NULL, 0, NULL }
#define IL_OPT_DUR_NS(T, f, name, lo, hi, def, help) \
	{ name, IL_OPT_T_DUR_NS, IL_OPT_OFF(T, f, int64_t), 0, 0, 0, lo, hi, def, help, NULL, 0, NULL }
#define IL_OPT_DUR_NS_KW(T, f, name, lo, hi, kw, kwv, def, help) \
	{ name, IL_OPT_T_DUR_NS, IL_OPT_OFF(T, f, int64_t), 0, 0, 0, lo, hi, def, help, kw, kwv, NULL }
#define IL_OPT_BOOL(T, f, name, def, help) \
	{ name, IL_OPT_T_BOOL, IL_OPT_OFF(T, f, bool), 0, 0, 0, 0, 1, def, help, NULL, 0, NULL }
/* FT: the enum type of the field, which must have the size of an int */
#define IL_OPT_ENUM(T, f, FT, name, choices, def, help) \
	{ name, IL_OPT_T_ENUM, IL_OPT_OFF(T, f, FT) + 0 * sizeof(char[sizeof(FT) == sizeof(int) ? 1 : -1]), \
	  0, 0, 0, 0, 0, def, help, NULL, 0, choices }
#define IL_OPT_DIST(T, f, name, def, help) \
	{ name, IL_OPT_T_DIST, IL_OPT_OFF(T, f, struct il_dist), 0, 0, 0, 0, 0, def, help, NULL, 0, NULL }
#define IL_OPT_DUR_LIST(T, f, n, name, lo_n, hi_n, lo, hi, def, help) \
	{ name, IL_OPT_T_DUR_LIST, IL_OPT_OFF(T, f, int64_t *), IL_OPT_OFF(T, n, int), lo_n, hi_n, \
	  lo, hi, def, help, NULL, 0, NULL }
#define IL_OPT_U64_LIST(T, f, n, name, lo_n, hi_n, lo, hi, def, help) \
	{ name, IL_OPT_T_U64_LIST, IL_OPT_OFF(T, f, uint64_t *), IL_OPT_OFF(T, n, int), lo_n, hi_n, \
	  lo, hi, def, help, NULL, 0, NULL }
#define IL_OPT_INT_LIST(T, f, n, name, lo_n, hi_n, lo, hi, def, help) \
	{ name, IL_OPT_T_INT_LIST, IL_OPT_OFF(T, f, int *), IL_OPT_OFF(T, n, int), lo_n, hi_n, \
	  lo, hi, def, help, NULL, 0, NULL }
/* the end of a table */
#define IL_OPT_END { NULL, 0, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL }

/* The row for key, NULL if none. */
const struct il_opt *il_opt_find(const struct il_opt *tbl, const char *key);
/* Set every option of cfg to its default. Fails only for a table whose default is wrong. */
int il_opts_defaults(const struct il_opt *tbl, void *cfg, struct il_err *err);
/*
 * Set option o of cfg from text. Lists take values separated by commas;
 * a value "A..B step S" stands for A, A+S, ... up to B. Errors name the
 * option and say its bounds ("loops: 'x' is not a whole number in
 * 1..100000000").
 */
int il_opt_set(const struct il_opt *o, void *cfg, const char *text, struct il_err *err);
/* Every option of cfg within its bounds (a structure filled in by code)? 0 or -EINVAL naming it. */
int il_opts_check(const struct il_opt *tbl, const void *cfg, struct il_err *err);
/*
 * The help of a table, one "<indent>name=default  help (bounds)" line per
 * option, into buf (always terminated); returns the length it needs, as
 * snprintf does.
 */
size_t il_opts_help(const struct il_opt *tbl, const char *indent, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
