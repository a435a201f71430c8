// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlelab info over time: --interval D [--count N] (counter differences
 * per interval, as turbostat and `cpupower monitor` show them), --diff A B
 * (two saved snapshots) and the metadata --save writes beside the copy.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "idlelab/host.h"
#include "idlelab/json.h"
#include "idlelab/report.h"
#include "idlelab/sysfs.h"
#include "info.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Rows of differences: into a table (text, CSV) or the JSON writer */

struct sink {
	struct il_table *t;
	struct il_json *w;
};

static void s_row(struct sink *s)
{
	if (s->t)
		il_table_row(s->t);
	if (s->w)
		il_json_object(s->w, IL_JSON_INLINE);
}

static void s_end(struct sink *s)
{
	if (s->w)
		il_json_end(s->w);
}

static void s_i64(struct sink *s, const char *k, long long v)
{
	if (s->t)
		il_table_i64(s->t, v);
	if (s->w)
		il_json_kint(s->w, k, v);
}

static void s_str(struct sink *s, const char *k, const char *v)
{
	if (s->t)
		il_table_str(s->t, v);
	if (s->w)
		il_json_kstring(s->w, k, v);
}

static void s_na(struct sink *s, const char *k)
{
	if (s->t)
		il_table_na(s->t);
	if (s->w)
		il_json_knull(s->w, k);
}

static void s_val(struct sink *s, const char *k, const struct il_sysfs_val *v)
{
	if (v->status != IL_SYSFS_OK) {
		s_na(s, k);
		return;
	}
	if (s->t)
		il_table_u64(s->t, (unsigned long long)v->v);
	if (s->w)
		il_json_kuint(s->w, k, (unsigned long long)v->v);
}

/* A number with decimals, the same text in every format. */
static void s_dbl(struct sink *s, const char *k, double v, int decimals)
{
	char buf[64];

	if (s->t)
		il_table_dbl(s->t, v, decimals);
	if (s->w) {
		snprintf(buf, sizeof(buf), "%.*f", decimals, v);
		il_json_key(s->w, k);
		il_json_number_text(s->w, buf);
	}
}

/* part/whole in %, n/a when either is missing or whole is 0. */
static void s_pct(struct sink *s, const char *k, const struct il_sysfs_val *part,
		  const struct il_sysfs_val *whole)
{
	if (part->status != IL_SYSFS_OK || whole->status != IL_SYSFS_OK || !whole->v)
		s_na(s, k);
	else
		s_dbl(s, k, 100.0 * (double)part->v / (double)whole->v, 2);
}

static const char *const delta_cols[] = {
	"cpu", "state", "name", "usage", "time_us", "above", "below", "residency_pct",
	"usage_per_s", "above_pct", "below_pct",
};

/* The columns of a difference's table; lead columns (timestamp, interval) when given. */
static struct il_table *delta_table_new(const char *title, bool lead)
{
	struct il_table *t = il_table_new(title);

	il_table_keys(t, lead ? 6 : 3);
	if (lead) {
		il_table_col(t, "timestamp");
		il_table_col(t, "interval");
		il_table_col(t, "elapsed_s");
	}
	for (size_t i = 0; i < sizeof(delta_cols) / sizeof(delta_cols[0]); i++)
		il_table_col(t, delta_cols[i]);
	return t;
}

/* The rows of one difference (timestamp NULL: no lead columns). */
static void delta_rows(struct sink *s, const struct il_sysfs_delta *d, const char *timestamp,
		       int interval)
{
	double el_s = (double)d->elapsed_ns / 1e9;

	for (int r = 0; r < d->n; r++) {
		const struct il_sysfs_delta_row *row = &d->rows[r];
		const struct il_sysfs_val *u = &row->d[IL_SF_USAGE], *tm = &row->d[IL_SF_TIME];

		s_row(s);
		if (timestamp) {
			s_str(s, "timestamp", timestamp);
			s_i64(s, "interval", interval);
			if (d->elapsed_ns)
				s_dbl(s, "elapsed_s", el_s, 6);
			else
				s_na(s, "elapsed_s");
		}
		s_i64(s, "cpu", row->cpu);
		s_i64(s, "state", row->state);
		s_str(s, "name", row->name);
		s_val(s, "usage", u);
		s_val(s, "time_us", tm);
		s_val(s, "above", &row->d[IL_SF_ABOVE]);
		s_val(s, "below", &row->d[IL_SF_BELOW]);
		/* time is in us, the interval in ns: residency = time / interval */
		if (d->elapsed_ns && tm->status == IL_SYSFS_OK)
			s_dbl(s, "residency_pct", 100.0 * (double)tm->v * 1000.0 / (double)d->elapsed_ns, 2);
		else
			s_na(s, "residency_pct");
		if (d->elapsed_ns && u->status == IL_SYSFS_OK)
			s_dbl(s, "usage_per_s", (double)u->v / el_s, 2);
		else
			s_na(s, "usage_per_s");
		s_pct(s, "above_pct", &row->d[IL_SF_ABOVE], u);
		s_pct(s, "below_pct", &row->d[IL_SF_BELOW], u);
		s_end(s);
	}
}

/*
 * The text's note on a CPU whose idle time exceeds the interval: the kernel
 * adds a period's time (and usage) when the period ends
 * (cpuidle_enter_state()), so one that began before the interval counts
 * whole in the interval where it ends, and a CPU idle throughout shows
 * nothing until it wakes. CSV and JSON keep the numbers as read.
 */
static void over_note(const struct il_sysfs_delta *d, FILE *out)
{
	if (!d->elapsed_ns)
		return;
	for (int r = 0; r < d->n;) {
		int cpu = d->rows[r].cpu;
		double us = 0;

		for (; r < d->n && d->rows[r].cpu == cpu; r++)
			if (d->rows[r].d[IL_SF_TIME].status == IL_SYSFS_OK)
				us += (double)d->rows[r].d[IL_SF_TIME].v;
		double pct = 100.0 * us * 1000.0 / (double)d->elapsed_ns;
		if (pct >= 100.005)
			fprintf(out, "note: cpu%d: idle time over 100 %% of the interval (%.2f %%): the "
				"kernel counts an idle period\n      when it ends, whole, so one that "
				"began before the interval counts in it (and a CPU\n      idle all "
				"along shows 0 until it wakes)\n", cpu, pct);
	}
}

/* Print a table as part of a stream: text tables one after the other, CSV with one header. */
static int stream_table(const struct il_table *t, enum il_format fmt, bool first)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int r;

	if (!m)
		return -ENOMEM;
	r = il_table_print(t, fmt, m);
	if (fclose(m) != 0 || r) {
		free(buf);
		return -EIO;
	}
	if (fmt == IL_FORMAT_TABLE) {
		printf("%s%s", first ? "" : "\n", buf);
	} else {
		const char *body = first ? buf : strchr(buf, '\n');
		fputs(body ? (first ? body : body + 1) : "", stdout);
	}
	free(buf);
	fflush(stdout);
	return ferror(stdout) ? -EIO : 0;
}

static void iso_now(char *buf, size_t size)
{
	struct timespec ts;
	struct tm tm;
	char s[40];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, size, "%.32s.%03dZ", s, (int)(ts.tv_nsec / 1000000) % 1000);
}

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ------------------------------------------------------------------ */
/* --interval */

static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	stop_sig = sig;
}

/* Stop at SIGINT/SIGTERM (where nobody else handles them): the output is then completed. */
static void catch_stop(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old, sa;

		if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_stop;   /* no SA_RESTART: the sleep ends at once */
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
}

/* Read the tree; *t is the middle of the read on CLOCK_MONOTONIC. */
static int timed_read(const char *root, const struct il_cpulist *only,
		      struct il_sysfs_info *info, int64_t *t, struct il_err *err)
{
	int64_t t0 = mono_ns();
	int r = il_sysfs_read(root, only, info, err);

	*t = t0 + (mono_ns() - t0) / 2;
	return r;
}

int info_interval(const char *root, const struct il_cpulist *only, enum il_format fmt,
		  int64_t interval_ns, long count)
{
	struct il_sysfs_info prev, cur;
	struct il_err err;
	struct il_json w;
	int64_t tprev, tcur, start;
	bool first = true, noted;
	int r = 0;

	if (timed_read(root, only, &prev, &tprev, &err))
		return cli_report(&err);
	for (int i = 0; i < prev.notes.n; i++)
		cli_report(&prev.notes.items[i]);
	noted = prev.notes.n > 0;
	if (!prev.ncpus) {
		/* nothing to sample: say why rather than print empty tables */
		il_sysfs_info_free(&prev);
		return cli_error("%s: no CPU has a cpuidle directory (no cpuidle driver: the "
				 "kernel idles in its default routine and counts nothing)", root);
	}
	catch_stop();
	if (fmt == IL_FORMAT_JSON) {
		/* one array of every interval's rows, written as they come */
		il_json_init(&w, stdout);
		il_json_array(&w, IL_JSON_BLOCK);
	}
	start = mono_ns();
	for (long k = 1; !count || k <= count; k++) {
		struct timespec until;
		int64_t deadline = start + k * interval_ns;
		struct il_sysfs_delta d;
		char ts[48], title[128];

		until.tv_sec = (time_t)(deadline / 1000000000);
		until.tv_nsec = (long)(deadline % 1000000000);
		while (!stop_sig &&
		       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR)
			;
		if (stop_sig)
			break;
		if (timed_read(root, only, &cur, &tcur, &err)) {
			r = cli_report(&err);
			break;
		}
		noted |= cur.notes.n > 0;
		iso_now(ts, sizeof(ts));
		if (il_sysfs_delta(&prev, &cur, tcur - tprev, &d, &err)) {
			il_sysfs_info_free(&cur);
			r = cli_error("%s: %s", root, err.msg);
			break;
		}
		if (fmt == IL_FORMAT_JSON) {
			struct sink s = { .w = &w };
			delta_rows(&s, &d, ts, (int)k);
			fflush(stdout);
			if (ferror(stdout))
				r = 1;
		} else {
			struct il_table *t;
			struct sink s;
			snprintf(title, sizeof(title), "interval %ld at %s: %.3f s", k, ts,
				 (double)d.elapsed_ns / 1e9);
			t = delta_table_new(fmt == IL_FORMAT_TABLE ? title : NULL, fmt != IL_FORMAT_TABLE);
			s = (struct sink){ .t = t };
			delta_rows(&s, &d, fmt == IL_FORMAT_TABLE ? NULL : ts, (int)k);
			if (stream_table(t, fmt, first))
				r = 1;
			if (fmt == IL_FORMAT_TABLE) {
				over_note(&d, stdout);
				fflush(stdout);
			}
			first = false;
			il_table_free(t);
		}
		il_sysfs_delta_free(&d);
		il_sysfs_info_free(&prev);
		prev = cur;
		tprev = tcur;
		if (r)
			break;
	}
	il_sysfs_info_free(&prev);
	if (fmt == IL_FORMAT_JSON) {
		il_json_end(&w);
		if (il_json_finish(&w))
			r = 1;
	}
	if (fflush(stdout) != 0)
		r = 1;
	return r ? 1 : noted ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* Metadata of a snapshot directory */

/*
 * The sysfs tree of a snapshot: DIR itself (info --save) or
 * DIR/sys/devices/system/cpu (a capture): NULL or that path below DIR.
 */
static const char *snapshot_rel(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), sub;

	if (fd < 0)
		return NULL;
	sub = openat(fd, "sys", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	close(fd);
	if (sub < 0)
		return NULL;
	close(sub);
	return "sys/devices/system/cpu";
}

char *info_save_meta(const char *root, struct il_err *err)
{
	struct il_meta m = { 0 };
	char *text;

	if (!strcmp(root, IL_SYSFS_DEFAULT_ROOT)) {
		struct il_host h;
		if (il_host_read(IL_HOST_LIVE_ROOT, false, &h, err))
			return NULL;
		il_host_meta(&h, &m);
		il_meta_add(&m, "sysfs_root", root);
		il_host_free(&h);
	} else {
		int r = il_meta_read_dir(root, &m, err);
		if (r == -ENOENT) {
			/* a copy of a tree without metadata: when, and what, is not known */
			il_meta_add(&m, "format", "idlelab-meta 1");
			il_meta_add(&m, "sysfs_root", root);
			il_meta_add(&m, "note", "copied from a tree without metadata");
		} else if (r) {
			return NULL;
		}
	}
	text = il_meta_text(&m);
	il_meta_free(&m);
	return text;
}

/* ------------------------------------------------------------------ */
/* --diff */

/* Metadata keys that change between any two snapshots: not listed as changes. */
static bool volatile_key(const char *k)
{
	static const char *const v[] = {
		"format", "timestamp", "boottime_ns", "uptime_s", "root", "sysfs_root",
		"source_timestamp", "pm_qos.holder", "note",
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!strcmp(k, v[i]))
			return true;
	return false;
}

struct change {
	const char *key, *a, *b;
	char abuf[160], bbuf[160];
};

static void add_change(struct change **ch, int *n, const char *key, const char *a, const char *b)
{
	struct change *c;

	*ch = il_xrealloc(*ch, sizeof(**ch) * (size_t)(*n + 1));
	c = &(*ch)[(*n)++];
	c->key = key;
	c->a = a;
	c->b = b;
}

static const char *str_or(const struct il_sysfs_str *s, const char *none)
{
	return s->status == IL_SYSFS_OK ? s->s : none;
}

/*
 * A snapshot that cannot be read: a directory without the cpuidle tree is
 * no snapshot at all (the reader's message blames the kernel's
 * configuration, which is right for a live /sys only).
 */
static int not_snapshot(const char *dir, int code, const struct il_err *err)
{
	/* a capture (DIR/sys/...) of a machine without cpuidle keeps the reader's word */
	if (code == -ENOENT && !snapshot_rel(dir) && strstr(err->msg, "no cpuidle directory"))
		return cli_error("%s: not a snapshot: no cpuidle/ (as info --save writes it) nor "
				 "sys/devices/system/cpu/cpuidle/ (as capture writes it)", dir);
	return cli_report(err);
}

int info_diff(const char *a, const char *b, const struct il_cpulist *only, enum il_format fmt)
{
	struct il_sysfs_info ia, ib;
	struct il_meta ma, mb;
	struct il_sysfs_delta d;
	struct il_err err;
	struct change *ch = NULL;
	int nch = 0, r, ra, rb;
	int64_t elapsed = 0;
	const char *why = NULL;

	ra = il_meta_read_dir(a, &ma, &err);
	if (ra && ra != -ENOENT)
		return cli_report(&err);
	rb = il_meta_read_dir(b, &mb, &err);
	if (rb && rb != -ENOENT) {
		il_meta_free(&ma);
		return cli_report(&err);
	}
	if ((r = il_sysfs_read_below(a, snapshot_rel(a), only, &ia, &err))) {
		r = not_snapshot(a, r, &err);
		goto out_meta;
	}
	if ((r = il_sysfs_read_below(b, snapshot_rel(b), only, &ib, &err))) {
		r = not_snapshot(b, r, &err);
		il_sysfs_info_free(&ia);
		goto out_meta;
	}
	for (int i = 0; i < ia.notes.n; i++)
		cli_report(&ia.notes.items[i]);
	for (int i = 0; i < ib.notes.n; i++)
		cli_report(&ib.notes.items[i]);
	/*
	 * A saved snapshot is input, not a machine read while it runs: a file
	 * in it that is garbage, unreadable or missing makes it no snapshot to
	 * take differences from, and no table with holes is printed.
	 */
	if (ia.notes.n || ib.notes.n) {
		r = cli_error("%s: a file of the snapshot is bad (above): no differences printed",
			      ia.notes.n ? a : b);
		goto out;
	}

	/* the interval: CLOCK_BOOTTIME of both reads, within one boot */
	{
		const char *ba = il_meta_get(&ma, "boot_id"), *bb = il_meta_get(&mb, "boot_id");
		const char *ta = il_meta_get(&ma, "boottime_ns"), *tb = il_meta_get(&mb, "boottime_ns");
		long long xa, xb;
		char *e1, *e2;

		if (ba && bb && strcmp(ba, bb)) {
			r = cli_error("%s, %s: snapshots of different boots (boot_id %s, %s): "
				      "the counters restarted in between", a, b, ba, bb);
			goto out;
		}
		if (!ta || !tb)
			why = "no boottime_ns in both idlelab-meta.txt";
		else if (!ba || !bb)
			why = "no boot_id in both idlelab-meta.txt";
		if (!why) {
			errno = 0;
			xa = strtoll(ta, &e1, 10);
			xb = strtoll(tb, &e2, 10);
			if (errno || e1 == ta || e2 == tb || *e1 || *e2 || xa < 0 || xb < 0)
				why = "boottime_ns is not a number";
			else if (xb < xa) {
				r = cli_error("%s was saved before %s: give the earlier snapshot first",
					      b, a);
				goto out;
			} else
				elapsed = xb - xa;
		}
	}
	if (il_sysfs_delta(&ia, &ib, elapsed, &d, &err)) {
		r = cli_error("%s, %s: %s", a, b, err.msg);
		goto out;
	}

	/* what changed besides the counters */
	if (strcmp(str_or(&ia.driver, "n/a"), str_or(&ib.driver, "n/a")))
		add_change(&ch, &nch, "driver", str_or(&ia.driver, "n/a"), str_or(&ib.driver, "n/a"));
	if (strcmp(str_or(&ia.governor, "n/a"), str_or(&ib.governor, "n/a")))
		add_change(&ch, &nch, "governor", str_or(&ia.governor, "n/a"),
			   str_or(&ib.governor, "n/a"));
	/* metadata only when both have some: one side's facts are no change */
	for (int i = 0; i < ma.n && mb.n; i++) {
		const char *k = ma.items[i].key, *vb = il_meta_get(&mb, k);
		if (volatile_key(k) || il_meta_get(&ma, k) != ma.items[i].value)
			continue;
		if (!vb || strcmp(vb, ma.items[i].value))
			add_change(&ch, &nch, k, ma.items[i].value, vb ? vb : "(none)");
	}
	for (int i = 0; i < mb.n && ma.n; i++) {
		const char *k = mb.items[i].key;
		if (volatile_key(k) || il_meta_get(&mb, k) != mb.items[i].value ||
		    il_meta_get(&ma, k))
			continue;
		add_change(&ch, &nch, k, "(none)", mb.items[i].value);
	}
	for (int i = 0; i < ia.ncpus && i < ib.ncpus; i++)
		for (int s = 0; s < ia.cpus[i].nstates && s < ib.cpus[i].nstates; s++) {
			const struct il_sysfs_val *da = &ia.cpus[i].states[s].val[IL_SF_DISABLE];
			const struct il_sysfs_val *db = &ib.cpus[i].states[s].val[IL_SF_DISABLE];
			if (da->status == IL_SYSFS_OK && db->status == IL_SYSFS_OK && da->v != db->v) {
				struct change *c;
				add_change(&ch, &nch, "disable", NULL, NULL);
				c = &ch[nch - 1];
				snprintf(c->abuf, sizeof(c->abuf), "cpu%d state%d disable %llu",
					 ia.cpus[i].cpu, ia.cpus[i].states[s].index,
					 (unsigned long long)da->v);
				snprintf(c->bbuf, sizeof(c->bbuf), "%llu", (unsigned long long)db->v);
			}
		}
	for (int i = 0; i < nch; i++)
		if (!ch[i].a) {
			ch[i].a = ch[i].abuf;
			ch[i].b = ch[i].bbuf;
		}

	{
		/* a copy of a capture (capture --root) says when its source was read */
		const char *tsa = il_meta_get(&ma, "source_timestamp"),
			   *tsb = il_meta_get(&mb, "source_timestamp");

		if (!tsa)
			tsa = il_meta_get(&ma, "timestamp");
		if (!tsb)
			tsb = il_meta_get(&mb, "timestamp");

		if (fmt == IL_FORMAT_JSON) {
			struct il_json w;
			struct sink s = { .w = &w };

			il_json_init(&w, stdout);
			il_json_object(&w, IL_JSON_BLOCK);
			il_json_kstring(&w, "a", a);
			il_json_kstring(&w, "b", b);
			il_json_kstring(&w, "a_timestamp", tsa);
			il_json_kstring(&w, "b_timestamp", tsb);
			if (elapsed)
				s_dbl(&s, "elapsed_s", (double)elapsed / 1e9, 9);
			else
				il_json_knull(&w, "elapsed_s");
			il_json_key(&w, "changes");
			il_json_array(&w, IL_JSON_BLOCK);
			for (int i = 0; i < nch; i++) {
				il_json_object(&w, IL_JSON_INLINE);
				il_json_kstring(&w, "key", ch[i].key);
				il_json_kstring(&w, "a", ch[i].a);
				il_json_kstring(&w, "b", ch[i].b);
				il_json_end(&w);
			}
			il_json_end(&w);
			il_json_key(&w, "rows");
			il_json_array(&w, IL_JSON_BLOCK);
			delta_rows(&s, &d, NULL, 0);
			il_json_end(&w);
			il_json_end(&w);
			r = il_json_finish(&w) ? 1 : 0;
		} else {
			struct il_table *t = delta_table_new(fmt == IL_FORMAT_TABLE ? "differences:" : NULL,
							     false);
			struct sink s = { .t = t };

			delta_rows(&s, &d, NULL, 0);
			if (fmt == IL_FORMAT_TABLE) {
				/* paths and metadata values are text from files: escaped */
				printf("a: ");
				il_text_fputs(a, stdout);
				printf(" (");
				il_text_fputs(tsa ? tsa : "time not known", stdout);
				printf(")\nb: ");
				il_text_fputs(b, stdout);
				printf(" (");
				il_text_fputs(tsb ? tsb : "time not known", stdout);
				printf(")\n");
				if (elapsed)
					printf("interval: %.3f s\n", (double)elapsed / 1e9);
				else
					printf("interval: not known (%s): no rates or residency %%\n", why);
				if (nch) {
					printf("changed:\n");
					for (int i = 0; i < nch; i++) {
						printf("  %s: ", ch[i].key);
						il_text_fputs(ch[i].a, stdout);
						printf(" -> ");
						il_text_fputs(ch[i].b, stdout);
						printf("\n");
					}
				}
				printf("\n");
			}
			r = il_table_print(t, fmt, stdout) ? 1 : 0;
			if (fmt == IL_FORMAT_TABLE)
				over_note(&d, stdout);
			/* as info says it: an empty table would read as counters that did not move */
			if (fmt == IL_FORMAT_TABLE && !ia.ncpus && !ib.ncpus)
				printf("no CPU has a cpuidle directory: no counters to take differences "
				       "of\n");
			il_table_free(t);
		}
	}
	il_sysfs_delta_free(&d);
out:
	free(ch);
	il_sysfs_info_free(&ia);
	il_sysfs_info_free(&ib);
out_meta:
	il_meta_free(&ma);
	il_meta_free(&mb);
	if (fflush(stdout) != 0)
		r = 1;
	return r;
}
