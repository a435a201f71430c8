// SPDX-License-Identifier: GPL-2.0-only
/*
 * Replay logs and decisions files: parsing (format in docs/replay.md).
 *
 * The parser is strict on purpose: a log that checks a governor against the
 * kernel's decisions must not be half-read, so anything it does not
 * understand is refused with the line it is on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/replay.h"

static const char *const col_names[IL_REPLAY_NCOLS] = {
	"cpu",          "sleep_length_ns", "delta_tick_ns", "tick_stopped",
	"latency_req_ns", "nr_iowait",     "cpu_utilized",  "residency_ns",
	"got_tick",     "poll_time_limit",
};

/* A line being parsed: where it is and its text (NUL-terminated copy). */
struct cursor {
	const char *p, *end;
	int line;
	char *buf;
	size_t bufsz;
};

/* Next line into c->buf without its end of line (and a trailing CR). */
static int next_line(struct cursor *c, const char *file, struct il_err *err)
{
	if (c->p >= c->end)
		return 0;
	const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	size_t n = nl ? (size_t)(nl - c->p) : (size_t)(c->end - c->p);

	c->line++;
	if (memchr(c->p, '\0', n))
		return il_err_set_at(err, EINVAL, file, c->line, "NUL byte in line");
	if (n + 1 > c->bufsz) {
		size_t sz = n + 1 > 256 ? n + 1 : 256;
		char *b = realloc(c->buf, sz);
		if (!b)
			return il_err_set(err, ENOMEM, "out of memory");
		c->buf = b;
		c->bufsz = sz;
	}
	memcpy(c->buf, c->p, n);
	if (n && c->buf[n - 1] == '\r')
		n--;
	c->buf[n] = '\0';
	c->p = nl ? nl + 1 : c->end;
	return 1;
}

/* Split s at commas in place; returns the field count (at most max). */
static int split(char *s, char **f, int max)
{
	int n = 0;

	for (;;) {
		char *comma = strchr(s, ',');
		if (n == max)
			return max + 1;
		f[n++] = s;
		if (!comma)
			return n;
		*comma = '\0';
		s = comma + 1;
	}
}

/* Strict decimal integer (no base prefixes, no spaces, no '+'). */
static int parse_dec(const char *s, int64_t *v)
{
	bool neg = *s == '-';
	uint64_t x = 0;
	const char *p = s + neg;

	if (!*p)
		return -EINVAL;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		unsigned d = (unsigned)(*p - '0');
		if (x > (UINT64_MAX - d) / 10)
			return -ERANGE;
		x = x * 10 + d;
	}
	if (neg) {
		if (x > (uint64_t)INT64_MAX + 1)
			return -ERANGE;
		*v = x == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)x;
	} else {
		if (x > (uint64_t)INT64_MAX)
			return -ERANGE;
		*v = (int64_t)x;
	}
	return 0;
}

/* A numeric field in [lo, hi]; the message names the field. */
static int field_num(const char *s, const char *what, int64_t lo, int64_t hi, int64_t *v,
		     const char *file, int line, struct il_err *err)
{
	int r = parse_dec(s, v);

	if (r == -EINVAL)
		return il_err_set_at(err, EINVAL, file, line, "non-numeric %s '%s'", what, s);
	if (r || *v < lo || *v > hi)
		return il_err_set_at(err, ERANGE, file, line,
				     "%s %s out of range (%lld..%lld)", what, s, (long long)lo,
				     (long long)hi);
	return 0;
}

static void log_reset(struct il_replay_log *log)
{
	free(log->rows);
	free(log->row_line);
	memset(log, 0, sizeof(*log));
}

void il_replay_log_free(struct il_replay_log *log)
{
	log_reset(log);
}

static int add_row(struct il_replay_log *log, const struct il_replay_row *r, int line,
		   struct il_err *err)
{
	if (log->nrows == log->cap) {
		size_t cap = log->cap ? log->cap * 2 : 1024;
		struct il_replay_row *rows = realloc(log->rows, cap * sizeof(*rows));
		if (!rows)
			return il_err_set(err, ENOMEM, "out of memory");
		log->rows = rows;
		int *lines = realloc(log->row_line, cap * sizeof(*lines));
		if (!lines)
			return il_err_set(err, ENOMEM, "out of memory");
		log->row_line = lines;
		log->cap = cap;
	}
	log->rows[log->nrows] = *r;
	log->row_line[log->nrows] = line;
	log->nrows++;
	if (r->cpu + 1 > log->ncpus)
		log->ncpus = r->cpu + 1;
	return 0;
}

/* "# state,IDX,NAME,EXIT_LATENCY_NS,TARGET_RESIDENCY_NS,FLAGS" */
static int parse_state(struct il_replay_log *log, char *args, const char *file, int line,
		       struct il_err *err)
{
	char *f[7];
	int64_t idx, lat, res;
	int n = split(args, f, 6);

	if (n != 6)
		return il_err_set_at(err, EINVAL, file, line,
				     "state line needs 6 fields (state,IDX,NAME,EXIT_LATENCY_NS,"
				     "TARGET_RESIDENCY_NS,FLAGS), got %s%d", n > 6 ? "more than " : "",
				     n > 6 ? 6 : n);
	if (field_num(f[1], "state index", 0, INT32_MAX, &idx, file, line, err))
		return -EINVAL;
	if (log->drv.state_count == IL_STATE_MAX)
		return il_err_set_at(err, EINVAL, file, line, "more than %d states",
				     IL_STATE_MAX);
	if (idx != log->drv.state_count)
		return il_err_set_at(err, EINVAL, file, line,
				     "state index %lld out of order (expected %d)", (long long)idx,
				     log->drv.state_count);
	if (!f[2][0] || strlen(f[2]) >= IL_NAME_LEN)
		return il_err_set_at(err, EINVAL, file, line,
				     "state name must have 1..%d characters", IL_NAME_LEN - 1);
	if (field_num(f[3], "exit latency", 0, INT64_MAX, &lat, file, line, err) ||
	    field_num(f[4], "target residency", 0, INT64_MAX, &res, file, line, err))
		return -EINVAL;

	struct il_state *s = &log->drv.states[log->drv.state_count];
	struct il_err ferr;
	memset(s, 0, sizeof(*s));
	if (il_state_flags_parse(f[5], &s->flags, &ferr))
		return il_err_set_at(err, EINVAL, file, line, "%s", ferr.msg);
	snprintf(s->name, sizeof(s->name), "%s", f[2]);
	snprintf(s->desc, sizeof(s->desc), "%s", f[2]);
	s->exit_latency_ns = lat;
	s->target_residency_ns = res;
	s->power_usage = -1;
	s->entry = (s->flags & IL_FLAG_POLLING) ? IL_ENTRY_POLL : IL_ENTRY_NONE;
	s->power_w = -1;
	s->transition_j = -1;
	log->drv.state_count++;
	return 0;
}

/* "# key=value key=value ..." (hz, governor, kernel; others informational). */
static int parse_keys(struct il_replay_log *log, char *args, bool *have_hz, const char *file,
		      int line, struct il_err *err)
{
	char *save = NULL;

	for (char *tok = strtok_r(args, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(tok, '=');
		if (!eq || eq == tok)
			return il_err_set_at(err, EINVAL, file, line,
					     "bad header item '%s' (expected KEY=VALUE)", tok);
		*eq++ = '\0';
		if (!strcmp(tok, "hz")) {
			int64_t hz;
			if (*have_hz)
				return il_err_set_at(err, EINVAL, file, line, "hz given twice");
			if (field_num(eq, "hz", 1, IL_REPLAY_HZ_MAX, &hz, file, line, err))
				return -EINVAL;
			log->hz = (unsigned int)hz;
			*have_hz = true;
		} else if (!strcmp(tok, "governor")) {
			snprintf(log->governor, sizeof(log->governor), "%s", eq);
		} else if (!strcmp(tok, "kernel")) {
			snprintf(log->kernel, sizeof(log->kernel), "%s", eq);
		}
	}
	return 0;
}

/* One header line (text after '#'). */
static int parse_header(struct il_replay_log *log, char *h, bool *have_hz, int *disable_line,
			const char *file, int line, struct il_err *err)
{
	while (*h == ' ' || *h == '\t')
		h++;
	if (!*h)
		return 0; /* bare "#" */
	if (!strncmp(h, "state,", 6))
		return parse_state(log, h, file, line, err);
	if (!strncmp(h, "disable,", 8)) {
		int64_t idx;
		if (strchr(h + 8, ','))
			return il_err_set_at(err, EINVAL, file, line,
					     "disable line needs 2 fields (disable,IDX)");
		if (field_num(h + 8, "disabled state", 0, IL_STATE_MAX - 1, &idx, file, line, err))
			return -EINVAL;
		log->user_disabled |= 1u << idx;
		disable_line[idx] = line;
		return 0;
	}
	if (!strncmp(h, "param,", 6)) {
		char *name = h + 6, *comma = strchr(name, ',');
		if (!comma || comma == name)
			return il_err_set_at(err, EINVAL, file, line,
					     "param line needs 3 fields (param,NAME,VALUE)");
		*comma = '\0';
		const char *value = comma + 1;
		if (log->nparams == IL_REPLAY_PARAM_MAX)
			return il_err_set_at(err, EINVAL, file, line, "more than %d params",
					     IL_REPLAY_PARAM_MAX);
		struct il_replay_param *p = &log->params[log->nparams];
		if (strlen(name) >= sizeof(p->name) || !*value || strlen(value) >= sizeof(p->value))
			return il_err_set_at(err, EINVAL, file, line,
					     "param name or value empty or too long");
		snprintf(p->name, sizeof(p->name), "%s", name);
		snprintf(p->value, sizeof(p->value), "%s", value);
		p->line = line;
		log->nparams++;
		return 0;
	}
	char *eq = strchr(h, '=');
	char *sp = strpbrk(h, " \t,");
	if (eq && (!sp || eq < sp))
		return parse_keys(log, h, have_hz, file, line, err);
	/*
	 * "# WORD,..." has the form of a directive: one we do not know is most
	 * likely a typo of state/disable/param and must not pass silently. Any
	 * other text is a comment (recorders write notes such as "# cmdline: ...").
	 */
	if (sp && *sp == ',')
		return il_err_set_at(err, EINVAL, file, line,
				     "unknown header line '#%.40s' (directives: state, disable, param)", h);
	return 0;
}

/* One data row. */
static int parse_row(struct il_replay_log *log, char *s, const char *file, int line,
		     struct il_err *err)
{
	static const int64_t hi[IL_REPLAY_NCOLS] = {
		IL_REPLAY_CPU_MAX - 1, INT64_MAX, INT64_MAX, 1, INT64_MAX, UINT32_MAX, 1,
		INT64_MAX, 1, 1,
	};
	static const int64_t lo[IL_REPLAY_NCOLS] = {
		0, INT64_MIN, INT64_MIN, 0, 0, 0, 0, IL_REPLAY_REJECTED, 0, 0,
	};
	char *f[IL_REPLAY_NCOLS + 1];
	int64_t v[IL_REPLAY_NCOLS];
	int n = split(s, f, IL_REPLAY_NCOLS);

	if (n != IL_REPLAY_NCOLS)
		return il_err_set_at(err, EINVAL, file, line,
				     "wrong column count: %s%d, expected %d",
				     n > IL_REPLAY_NCOLS ? "more than " : "",
				     n > IL_REPLAY_NCOLS ? IL_REPLAY_NCOLS : n, IL_REPLAY_NCOLS);
	for (int i = 0; i < IL_REPLAY_NCOLS; i++) {
		int r = parse_dec(f[i], &v[i]);
		if (r == -EINVAL)
			return il_err_set_at(err, EINVAL, file, line, "non-numeric %s '%.40s'",
					     col_names[i], f[i]);
		if (r || v[i] < lo[i] || v[i] > hi[i]) {
			if (i == 0)
				return il_err_set_at(err, ERANGE, file, line,
						     "cpu %.40s out of range (0..%d)", f[i],
						     IL_REPLAY_CPU_MAX - 1);
			return il_err_set_at(err, ERANGE, file, line,
					     "%s %.40s out of range (%lld..%lld)", col_names[i],
					     f[i], (long long)lo[i], (long long)hi[i]);
		}
	}
	struct il_replay_row r = {
		.cpu = (uint16_t)v[0],
		.sleep_length_ns = v[1],
		.delta_tick_ns = v[2],
		.tick_stopped = v[3],
		.latency_req_ns = v[4],
		.nr_iowait = (uint32_t)v[5],
		.cpu_utilized = v[6],
		.residency_ns = v[7],
		.got_tick = v[8],
		.poll_time_limit = v[9],
	};
	return add_row(log, &r, line, err);
}

/* Checks made once the column line closes the header. */
static int header_done(struct il_replay_log *log, bool have_hz, const int *disable_line,
		       const char *file, int line, struct il_err *err)
{
	if (!have_hz)
		return il_err_set_at(err, EINVAL, file, line, "no '# hz=' line before the column line");
	if (log->drv.state_count == 0)
		return il_err_set_at(err, EINVAL, file, line,
				     "no '# state,...' line before the column line");
	for (int i = log->drv.state_count; i < IL_STATE_MAX; i++)
		if (log->user_disabled & (1u << i))
			return il_err_set_at(err, EINVAL, file, disable_line[i],
					     "disabled state %d does not exist (%d states)", i,
					     log->drv.state_count);
	snprintf(log->drv.name, sizeof(log->drv.name), "replay");
	il_driver_init(&log->drv);
	return 0;
}

int il_replay_log_parse(struct il_replay_log *log, const char *text, size_t len,
			const char *name, struct il_err *err)
{
	struct cursor c = { .p = text, .end = text + len };
	bool have_hz = false, columns = false;
	int disable_line[IL_STATE_MAX] = { 0 };
	int r;

	memset(log, 0, sizeof(*log));
	snprintf(log->file, sizeof(log->file), "%s", name ? name : "");
	const char *file = log->file;

	r = next_line(&c, file, err);
	if (r <= 0) {
		if (r == 0)
			r = il_err_set_at(err, EINVAL, file, 1, "empty log (expected '%s')",
					  IL_REPLAY_MAGIC);
		goto fail;
	}
	if (strcmp(c.buf, IL_REPLAY_MAGIC)) {
		r = il_err_set_at(err, EINVAL, file, c.line, "bad header: expected '%s'",
				  IL_REPLAY_MAGIC);
		goto fail;
	}
	while ((r = next_line(&c, file, err)) > 0) {
		char *s = c.buf;

		if (!s[0])
			continue; /* blank lines are allowed anywhere */
		if (!columns) {
			if (s[0] == '#') {
				r = parse_header(log, s + 1, &have_hz, disable_line, file, c.line,
						 err);
				if (r)
					goto fail;
				continue;
			}
			if (!strcmp(s, IL_REPLAY_COLUMNS)) {
				r = header_done(log, have_hz, disable_line, file, c.line, err);
				if (r)
					goto fail;
				columns = true;
				continue;
			}
			if (!strncmp(s, "cpu,", 4))
				r = il_err_set_at(err, EINVAL, file, c.line,
						  "bad column line: expected '%s'", IL_REPLAY_COLUMNS);
			else
				r = il_err_set_at(err, EINVAL, file, c.line,
						  "row before the column line");
			goto fail;
		}
		if (s[0] == '#') {
			r = il_err_set_at(err, EINVAL, file, c.line,
					  "header line after the column line");
			goto fail;
		}
		r = parse_row(log, s, file, c.line, err);
		if (r)
			goto fail;
	}
	if (r < 0)
		goto fail;
	if (!columns) {
		r = il_err_set_at(err, EINVAL, file, c.line ? c.line : 1,
				  "missing column line '%s'", IL_REPLAY_COLUMNS);
		goto fail;
	}
	free(c.buf);
	return 0;
fail:
	free(c.buf);
	log_reset(log);
	return r;
}

/* Read a whole file into memory. */
static int slurp(const char *path, char **text, size_t *len, struct il_err *err)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0;
	char *buf;

	if (!f)
		return il_err_set_at(err, errno, path, 0, "cannot open: %s", strerror(errno));
	buf = malloc(cap);
	while (buf) {
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n < cap)
			break;
		char *b = realloc(buf, cap * 2);
		if (!b) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = b;
		cap *= 2;
	}
	if (!buf) {
		fclose(f);
		return il_err_set(err, ENOMEM, "out of memory");
	}
	if (ferror(f)) {
		int e = errno;
		fclose(f);
		free(buf);
		return il_err_set_at(err, e ? e : EIO, path, 0, "read error: %s", strerror(e));
	}
	fclose(f);
	*text = buf;
	*len = n;
	return 0;
}

int il_replay_log_load(struct il_replay_log *log, const char *path, struct il_err *err)
{
	char *text;
	size_t len;
	int r;

	memset(log, 0, sizeof(*log));
	r = slurp(path, &text, &len, err);
	if (r)
		return r;
	r = il_replay_log_parse(log, text, len, path, err);
	free(text);
	return r;
}

/* Decisions files. */

static void expect_reset(struct il_replay_expect *ex)
{
	free(ex->row);
	free(ex->line);
	free(ex->cpu);
	free(ex->d);
	memset(ex, 0, sizeof(*ex));
}

void il_replay_expect_free(struct il_replay_expect *ex)
{
	expect_reset(ex);
}

static int expect_add(struct il_replay_expect *ex, uint64_t row, int cpu,
		      struct il_replay_decision d, int line, struct il_err *err)
{
	if (ex->n == ex->cap) {
		size_t cap = ex->cap ? ex->cap * 2 : 1024;
		uint64_t *rows = realloc(ex->row, cap * sizeof(*rows));
		if (rows)
			ex->row = rows;
		int *lines = realloc(ex->line, cap * sizeof(*lines));
		if (lines)
			ex->line = lines;
		int *cpus = realloc(ex->cpu, cap * sizeof(*cpus));
		if (cpus)
			ex->cpu = cpus;
		struct il_replay_decision *ds = realloc(ex->d, cap * sizeof(*ds));
		if (ds)
			ex->d = ds;
		if (!rows || !lines || !cpus || !ds)
			return il_err_set(err, ENOMEM, "out of memory");
		ex->cap = cap;
	}
	ex->row[ex->n] = row;
	ex->cpu[ex->n] = cpu;
	ex->d[ex->n] = d;
	ex->line[ex->n] = line;
	ex->n++;
	return 0;
}

int il_replay_expect_parse(struct il_replay_expect *ex, const char *text, size_t len,
			   const char *name, struct il_err *err)
{
	struct cursor c = { .p = text, .end = text + len };
	int ncols = 3; /* without a column line: row,selected,stop_tick */
	bool any = false;
	int r;

	memset(ex, 0, sizeof(*ex));
	snprintf(ex->file, sizeof(ex->file), "%s", name ? name : "");
	const char *file = ex->file;

	while ((r = next_line(&c, file, err)) > 0) {
		char *s = c.buf, *f[5];
		int64_t v[4];

		if (!s[0] || s[0] == '#')
			continue;
		if (!any && !strncmp(s, "row,", 4)) {
			if (!strcmp(s, "row,selected,stop_tick"))
				ncols = 3;
			else if (!strcmp(s, "row,cpu,selected,stop_tick"))
				ncols = 4;
			else {
				r = il_err_set_at(err, EINVAL, file, c.line,
						  "bad column line: expected 'row,selected,stop_tick'");
				goto fail;
			}
			any = true;
			continue;
		}
		any = true;
		int n = split(s, f, 4);
		if (n != ncols) {
			r = il_err_set_at(err, EINVAL, file, c.line,
					  "wrong column count: %s%d, expected %d", n > 4 ? "more than " : "",
					  n > 4 ? 4 : n, ncols);
			goto fail;
		}
		static const char *const names3[] = { "row", "selected", "stop_tick" };
		static const char *const names4[] = { "row", "cpu", "selected", "stop_tick" };
		const char *const *names = ncols == 3 ? names3 : names4;
		const int64_t hi3[] = { INT64_MAX, IL_STATE_MAX - 1, 1 };
		const int64_t hi4[] = { INT64_MAX, IL_REPLAY_CPU_MAX - 1, IL_STATE_MAX - 1, 1 };
		for (int i = 0; i < ncols; i++) {
			if (field_num(f[i], names[i], 0, ncols == 3 ? hi3[i] : hi4[i], &v[i], file,
				      c.line, err)) {
				r = -EINVAL;
				goto fail;
			}
		}
		uint64_t row = (uint64_t)v[0];
		if (ex->n && row <= ex->row[ex->n - 1]) {
			r = il_err_set_at(err, EINVAL, file, c.line,
					  "row %llu not after row %llu", (unsigned long long)row,
					  (unsigned long long)ex->row[ex->n - 1]);
			goto fail;
		}
		struct il_replay_decision d = {
			.selected = (int8_t)v[ncols - 2],
			.stop_tick = v[ncols - 1] != 0,
		};
		r = expect_add(ex, row, ncols == 4 ? (int)v[1] : -1, d, c.line, err);
		if (r)
			goto fail;
	}
	if (r < 0)
		goto fail;
	free(c.buf);
	return 0;
fail:
	free(c.buf);
	expect_reset(ex);
	return r;
}

int il_replay_expect_load(struct il_replay_expect *ex, const char *path, struct il_err *err)
{
	char *text;
	size_t len;
	int r;

	memset(ex, 0, sizeof(*ex));
	r = slurp(path, &text, &len, err);
	if (r)
		return r;
	r = il_replay_expect_parse(ex, text, len, path, err);
	free(text);
	return r;
}
