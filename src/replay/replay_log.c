// SPDX-License-Identifier: GPL-2.0-only
/*
 * Replay logs and decisions files: a line reader that keeps memory bounded
 * (no line longer than IL_REPLAY_LINE_MAX, no NUL byte) and the parsers, for
 * all rows in memory or one row at a time (format in docs/replay.md).
 *
 * The parser is strict on purpose: a log that checks a governor against the
 * kernel's decisions must not be half-read, so anything it does not
 * understand is refused with the line it is on.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "idlelab/replay.h"

static const char *const col_names[IL_REPLAY_NCOLS] = {
	"cpu",          "sleep_length_ns", "delta_tick_ns", "tick_stopped",
	"latency_req_ns", "nr_iowait",     "cpu_utilized",  "residency_ns",
	"got_tick",     "poll_time_limit",
};

/*
 * The line reader. Input comes in chunks (all of it at once for memory);
 * a line is copied into rd->buf, which holds IL_REPLAY_LINE_MAX bytes and
 * a CR, so a NUL byte or an over-long line is refused at that line after
 * reading at most that much of it.
 */
#define CHUNK ((size_t)1 << 16)

static void reader_init(struct il_replay_reader *rd, const char *name)
{
	memset(rd, 0, offsetof(struct il_replay_reader, buf));
	rd->buf[0] = '\0';
	rd->text = rd->buf;
	snprintf(rd->file, sizeof(rd->file), "%s", name ? name : "");
}

void il_replay_reader_mem(struct il_replay_reader *rd, const char *text, size_t len,
			  const char *name)
{
	reader_init(rd, name);
	rd->mem = text ? text : "";
	rd->p = rd->mem;
	rd->end = rd->mem + (text ? len : 0);
}

int il_replay_reader_open(struct il_replay_reader *rd, const char *path, struct il_err *err)
{
	struct stat st;

	reader_init(rd, path);
	rd->f = fopen(path, "rb");
	if (!rd->f)
		return il_err_set_at(err, errno, path, 0, "cannot open: %s", strerror(errno));
	rd->chunk = malloc(CHUNK);
	if (!rd->chunk) {
		il_replay_reader_close(rd);
		return il_err_set(err, ENOMEM, "out of memory");
	}
	rd->p = rd->end = rd->chunk;
	if (fstat(fileno(rd->f), &st) == 0 && !S_ISREG(st.st_mode)) {
		/* not seekable (a pipe, a device): keep a copy for another pass */
		rd->spool = tmpfile();
		if (!rd->spool) {
			int e = errno;
			il_replay_reader_close(rd);
			return il_err_set_at(err, e, path, 0,
					     "cannot create a temporary copy to read it again: %s",
					     strerror(e));
		}
	}
	return 0;
}

void il_replay_reader_close(struct il_replay_reader *rd)
{
	if (rd->f && rd->f != rd->spool)
		fclose(rd->f);
	if (rd->orig && rd->orig != rd->f)
		fclose(rd->orig);
	if (rd->spool)
		fclose(rd->spool);
	free(rd->chunk);
	rd->f = rd->orig = rd->spool = NULL;
	rd->chunk = NULL;
	rd->p = rd->end = rd->mem = NULL;
}

/* More input into the chunk: 1, 0 at the end, or a negative code. */
static int refill(struct il_replay_reader *rd, struct il_err *err)
{
	if (!rd->f || rd->eof)
		return 0;
	rd->base += (uint64_t)(rd->end - rd->chunk);
	size_t got = fread(rd->chunk, 1, CHUNK, rd->f);
	rd->p = rd->chunk;
	rd->end = rd->chunk + got;
	if (got < CHUNK) {
		if (ferror(rd->f)) {
			int e = errno ? errno : EIO;
			return il_err_set_at(err, e, rd->file, rd->line, "read error: %s",
					     strerror(e));
		}
		rd->eof = true;
	}
	if (got && rd->spool && rd->f != rd->spool &&
	    fwrite(rd->chunk, 1, got, rd->spool) != got) {
		int e = errno ? errno : EIO;
		return il_err_set_at(err, e, rd->file, rd->line,
				     "cannot keep a temporary copy to read it again: %s",
				     strerror(e));
	}
	return got > 0;
}

int il_replay_reader_line(struct il_replay_reader *rd, struct il_err *err)
{
	size_t n = 0;
	int r;

	if (rd->p == rd->end) {
		r = refill(rd, err);
		if (r <= 0)
			return r;
	}
	rd->line++;
	for (;;) {
		size_t avail = (size_t)(rd->end - rd->p);
		const char *nl = memchr(rd->p, '\n', avail);
		size_t seg = nl ? (size_t)(nl - rd->p) : avail;
		size_t room = sizeof(rd->buf) - 1 - n;  /* LINE_MAX and a CR */
		size_t take = seg < room ? seg : room;

		if (memchr(rd->p, '\0', take))
			return il_err_set_at(err, EINVAL, rd->file, rd->line, "NUL byte in line");
		if (seg > room)
			goto too_long;
		memcpy(rd->buf + n, rd->p, seg);
		n += seg;
		rd->p += seg;
		if (nl) {
			rd->p++;
			break;
		}
		r = refill(rd, err);
		if (r < 0)
			return r;
		if (r == 0)
			break; /* a last line without its end of line */
	}
	if (n && rd->buf[n - 1] == '\r')
		n--;
	if (n > IL_REPLAY_LINE_MAX)
		goto too_long;
	rd->buf[n] = '\0';
	rd->text = rd->buf;
	rd->len = n;
	return 1;
too_long:
	return il_err_set_at(err, EINVAL, rd->file, rd->line, "line longer than %d bytes",
			     IL_REPLAY_LINE_MAX);
}

void il_replay_reader_mark(struct il_replay_reader *rd)
{
	rd->mark_off = rd->f ? rd->base + (uint64_t)(rd->p - rd->chunk)
			     : (uint64_t)(rd->p - rd->mem);
	rd->mark_line = rd->line;
}

int il_replay_reader_rewind(struct il_replay_reader *rd, struct il_err *err)
{
	rd->line = rd->mark_line;
	if (!rd->f) {
		rd->p = rd->mem + rd->mark_off;
		return 0;
	}
	if (rd->spool && rd->f != rd->spool) {
		/* copy what is left, then read the copy from now on */
		int r;
		rd->p = rd->end;
		while ((r = refill(rd, err)) > 0)
			rd->p = rd->end;
		if (r < 0)
			return r;
		if (fflush(rd->spool)) {
			int e = errno;
			return il_err_set_at(err, e, rd->file, 0,
					     "cannot keep a temporary copy to read it again: %s",
					     strerror(e));
		}
		rd->orig = rd->f;
		rd->f = rd->spool;
	}
	if (fseeko(rd->f, (off_t)rd->mark_off, SEEK_SET)) {
		int e = errno;
		return il_err_set_at(err, e, rd->file, 0, "cannot read it again: %s", strerror(e));
	}
	clearerr(rd->f);
	rd->eof = false;
	rd->base = rd->mark_off;
	rd->p = rd->end = rd->chunk;
	return 0;
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

static void count_row(struct il_replay_log *log, const struct il_replay_row *row);

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
	count_row(log, r);
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

/* One data row into *out. */
static int parse_row(char *s, const char *file, int line, struct il_replay_row *out,
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
	*out = (struct il_replay_row){
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
	return 0;
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

/* Header state while the lines before the column line are read. */
struct header {
	bool have_hz;
	int disable_line[IL_STATE_MAX];
};

/*
 * The first line and the header, up to and including the column line.
 * Returns 0 with the reader after the column line, or a negative code.
 */
static int read_header(struct il_replay_log *log, struct il_replay_reader *rd,
		       struct il_err *err)
{
	struct header h = { .have_hz = false };
	const char *file = log->file;
	int r = il_replay_reader_line(rd, err);

	if (r <= 0) {
		if (r == 0)
			r = il_err_set_at(err, EINVAL, file, 1, "empty log (expected '%s')",
					  IL_REPLAY_MAGIC);
		return r;
	}
	if (strcmp(rd->text, IL_REPLAY_MAGIC))
		return il_err_set_at(err, EINVAL, file, rd->line, "bad header: expected '%s'",
				     IL_REPLAY_MAGIC);
	while ((r = il_replay_reader_line(rd, err)) > 0) {
		char *s = rd->text;

		if (!s[0])
			continue; /* blank lines are allowed anywhere */
		if (s[0] == '#') {
			r = parse_header(log, s + 1, &h.have_hz, h.disable_line, file, rd->line,
					 err);
			if (r)
				return r;
			continue;
		}
		if (!strcmp(s, IL_REPLAY_COLUMNS))
			return header_done(log, h.have_hz, h.disable_line, file, rd->line, err);
		if (!strncmp(s, "cpu,", 4))
			return il_err_set_at(err, EINVAL, file, rd->line,
					     "bad column line: expected '%s'", IL_REPLAY_COLUMNS);
		return il_err_set_at(err, EINVAL, file, rd->line, "row before the column line");
	}
	if (r < 0)
		return r;
	return il_err_set_at(err, EINVAL, file, rd->line ? rd->line : 1,
			     "missing column line '%s'", IL_REPLAY_COLUMNS);
}

/* The next row after the header: 1, 0 at the end, or a negative code. */
static int read_row(struct il_replay_log *log, struct il_replay_reader *rd,
		    struct il_replay_row *row, struct il_err *err)
{
	int r;

	while ((r = il_replay_reader_line(rd, err)) > 0) {
		char *s = rd->text;

		if (!s[0])
			continue;
		if (s[0] == '#')
			return il_err_set_at(err, EINVAL, log->file, rd->line,
					     "header line after the column line");
		r = parse_row(s, log->file, rd->line, row, err);
		return r ? r : 1;
	}
	return r;
}

static void count_row(struct il_replay_log *log, const struct il_replay_row *row)
{
	log->nrows++;
	if (row->cpu + 1 > log->ncpus)
		log->ncpus = row->cpu + 1;
	log->cpu_seen[row->cpu / 64] |= (uint64_t)1 << (row->cpu % 64);
}

/* Header and all rows into log->rows. */
static int read_all(struct il_replay_log *log, struct il_replay_reader *rd, struct il_err *err)
{
	struct il_replay_row row;
	int r = read_header(log, rd, err);

	while (!r && (r = read_row(log, rd, &row, err)) > 0)
		r = add_row(log, &row, rd->line, err);
	return r;
}

int il_replay_log_parse(struct il_replay_log *log, const char *text, size_t len,
			const char *name, struct il_err *err)
{
	struct il_replay_reader rd;
	int r;

	memset(log, 0, sizeof(*log));
	snprintf(log->file, sizeof(log->file), "%s", name ? name : "");
	il_replay_reader_mem(&rd, text, len, log->file);
	r = read_all(log, &rd, err);
	if (r)
		log_reset(log);
	return r;
}

int il_replay_log_load(struct il_replay_log *log, const char *path, struct il_err *err)
{
	struct il_replay_reader rd;
	int r;

	memset(log, 0, sizeof(*log));
	r = il_replay_reader_open(&rd, path, err);
	if (r)
		return r;
	snprintf(log->file, sizeof(log->file), "%s", path);
	r = read_all(log, &rd, err);
	il_replay_reader_close(&rd);
	if (r)
		log_reset(log);
	return r;
}

int il_replay_log_open(struct il_replay_log *log, struct il_replay_reader *rd,
		       struct il_err *err)
{
	struct il_replay_row row;
	int r;

	memset(log, 0, sizeof(*log));
	snprintf(log->file, sizeof(log->file), "%s", rd->file);
	r = read_header(log, rd, err);
	if (!r) {
		il_replay_reader_mark(rd);
		while ((r = read_row(log, rd, &row, err)) > 0)
			count_row(log, &row);
	}
	if (!r) {
		log->streaming = true;
		r = il_replay_log_rewind(log, rd, err);
	}
	if (r)
		log_reset(log);
	return r;
}

int il_replay_log_next(struct il_replay_log *log, struct il_replay_reader *rd,
		       struct il_replay_row *row, int *line, struct il_err *err)
{
	int r = read_row(log, rd, row, err);

	if (r < 0)
		return r;
	/* the first pass counted the rows and CPUs the engine was sized for */
	if (r == 0 ? log->pos != log->nrows : log->pos == log->nrows || row->cpu >= log->ncpus)
		return il_err_set_at(err, EIO, log->file, rd->line,
				     "the file changed while it was read (%zu rows at first)",
				     log->nrows);
	if (r == 0)
		return 0;
	log->pos++;
	*line = rd->line;
	return 1;
}

int il_replay_log_rewind(struct il_replay_log *log, struct il_replay_reader *rd,
			 struct il_err *err)
{
	log->pos = 0;
	return il_replay_reader_rewind(rd, err);
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

/*
 * One line of a decisions file: 1 with *e, 0 for a line that holds no
 * entry (blank, comment, column line), or a negative code.
 */
static int expect_line(struct il_replay_expect_stream *es, const struct il_replay_reader *rd,
		       struct il_replay_expect_entry *e, struct il_err *err)
{
	static const char *const names3[] = { "row", "selected", "stop_tick" };
	static const char *const names4[] = { "row", "cpu", "selected", "stop_tick" };
	static const int64_t hi3[] = { INT64_MAX, IL_STATE_MAX - 1, 1 };
	static const int64_t hi4[] = { INT64_MAX, IL_REPLAY_CPU_MAX - 1, IL_STATE_MAX - 1, 1 };
	const char *file = rd->file;
	int line = rd->line;
	char *s = rd->text, *f[5];
	int64_t v[4];

	if (!s[0] || s[0] == '#')
		return 0;
	if (!es->any && !strncmp(s, "row,", 4)) {
		if (!strcmp(s, "row,selected,stop_tick"))
			es->ncols = 3;
		else if (!strcmp(s, "row,cpu,selected,stop_tick"))
			es->ncols = 4;
		else
			return il_err_set_at(err, EINVAL, file, line,
					     "bad column line: expected 'row,selected,stop_tick'");
		es->any = true;
		return 0;
	}
	es->any = true;
	int ncols = es->ncols, n = split(s, f, 4);
	if (n != ncols)
		return il_err_set_at(err, EINVAL, file, line, "wrong column count: %s%d, expected %d",
				     n > 4 ? "more than " : "", n > 4 ? 4 : n, ncols);
	const char *const *names = ncols == 3 ? names3 : names4;
	for (int i = 0; i < ncols; i++)
		if (field_num(f[i], names[i], 0, ncols == 3 ? hi3[i] : hi4[i], &v[i], file, line,
			      err))
			return -EINVAL;
	uint64_t row = (uint64_t)v[0];
	if (es->have_last && row <= es->last)
		return il_err_set_at(err, EINVAL, file, line, "row %llu not after row %llu",
				     (unsigned long long)row, (unsigned long long)es->last);
	es->have_last = true;
	es->last = row;
	*e = (struct il_replay_expect_entry){
		.row = row,
		.cpu = ncols == 4 ? (int)v[1] : -1,
		.d = { .selected = (int8_t)v[ncols - 2], .stop_tick = v[ncols - 1] != 0 },
		.line = line,
	};
	return 1;
}

static void expect_start(struct il_replay_expect_stream *es)
{
	es->pos = 0;
	es->ncols = 3; /* without a column line: row,selected,stop_tick */
	es->any = false;
	es->have_last = false;
	es->last = 0;
}

/* The next entry from es->rd: 1, 0 at the end, or a negative code. */
static int expect_read(struct il_replay_expect_stream *es, struct il_replay_expect_entry *e,
		       struct il_err *err)
{
	int r;

	while ((r = il_replay_reader_line(es->rd, err)) > 0) {
		r = expect_line(es, es->rd, e, err);
		if (r)
			return r;
	}
	return r;
}

static int expect_all(struct il_replay_expect *ex, struct il_replay_reader *rd,
		      struct il_err *err)
{
	struct il_replay_expect_stream es = { .rd = rd };
	struct il_replay_expect_entry e;
	int r;

	expect_start(&es);
	while ((r = expect_read(&es, &e, err)) > 0) {
		r = expect_add(ex, e.row, e.cpu, e.d, e.line, err);
		if (r)
			return r;
	}
	return r;
}

int il_replay_expect_parse(struct il_replay_expect *ex, const char *text, size_t len,
			   const char *name, struct il_err *err)
{
	struct il_replay_reader rd;
	int r;

	memset(ex, 0, sizeof(*ex));
	snprintf(ex->file, sizeof(ex->file), "%s", name ? name : "");
	il_replay_reader_mem(&rd, text, len, ex->file);
	r = expect_all(ex, &rd, err);
	if (r)
		expect_reset(ex);
	return r;
}

int il_replay_expect_load(struct il_replay_expect *ex, const char *path, struct il_err *err)
{
	struct il_replay_reader rd;
	int r;

	memset(ex, 0, sizeof(*ex));
	r = il_replay_reader_open(&rd, path, err);
	if (r)
		return r;
	snprintf(ex->file, sizeof(ex->file), "%s", path);
	r = expect_all(ex, &rd, err);
	il_replay_reader_close(&rd);
	if (r)
		expect_reset(ex);
	return r;
}

int il_replay_expect_open(struct il_replay_expect_stream *es, struct il_replay_reader *rd,
			  struct il_err *err)
{
	struct il_replay_expect_entry e;
	size_t n = 0;
	int r;

	memset(es, 0, sizeof(*es));
	es->rd = rd;
	expect_start(es);
	il_replay_reader_mark(rd);
	while ((r = expect_read(es, &e, err)) > 0)
		n++;
	if (r < 0)
		return r;
	es->n = n;
	return il_replay_expect_rewind(es, err);
}

int il_replay_expect_next(struct il_replay_expect_stream *es, struct il_replay_expect_entry *e,
			  struct il_err *err)
{
	int r = expect_read(es, e, err);

	if (r < 0)
		return r;
	if (r == 0 ? es->pos != es->n : es->pos == es->n)
		return il_err_set_at(err, EIO, es->rd->file, es->rd->line,
				     "the file changed while it was read (%zu rows at first)",
				     es->n);
	if (r)
		es->pos++;
	return r;
}

int il_replay_expect_rewind(struct il_replay_expect_stream *es, struct il_err *err)
{
	size_t n = es->n;

	expect_start(es);
	es->n = n;
	return il_replay_reader_rewind(es->rd, err);
}
