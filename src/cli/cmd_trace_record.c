// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlelab trace record: the idle-relevant events of this machine into an
 * ftrace text file that trace report reads, with the cpuidle sysfs
 * counters at the start and the end of the window (docs/trace.md).
 * idlelab trace snapshot: those counters alone.
 *
 * Recording uses libtracefs (in the command only, like libtracecmd for
 * .dat reading) and a tracefs instance of its own: its event enable files,
 * tracing_cpumask and buffer_size_kb, never the top-level buffer and never
 * the function tracer (which a kernel under lockdown refuses). The text
 * comes from the instance's trace_pipe while it runs, so the ring buffer
 * is consumed as it fills and memory does not grow with the trace.
 *
 * What it changes on the machine is the instance; everything set in it
 * goes with it. The instance is removed at the end, on error, and on
 * signals: the first SIGINT ends the recording normally (the output is
 * kept), the first SIGTERM, SIGHUP, SIGQUIT or SIGPIPE ends it and
 * discards the output, and a second signal removes the instance from the
 * handler itself.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <poll.h>
#include <sched.h>

#include "cli.h"
#include "idlelab/duration.h"
#include "idlelab/governor.h"
#include "idlelab/host.h"
#include "idlelab/outfile.h"
#include "idlelab/report.h"
#include "idlelab/trace.h"
#include "idlelab/sysfs.h"
#include "trace_record.h"
#include "util.h"

#ifdef IL_HAVE_LIBTRACEFS
#include <tracefs.h>
#endif

/* ------------------------------------------------------------ snapshot */

static const char *sysfs_root(void)
{
	const char *r = getenv("IDLELAB_SYSFS_ROOT");

	return r && *r ? r : IL_SYSFS_DEFAULT_ROOT;
}

static void put_val(FILE *f, const char *key, const struct il_sysfs_val *v)
{
	if (v->status == IL_SYSFS_OK)
		fprintf(f, " %s=%llu", key, (unsigned long long)v->v);
	else
		fprintf(f, " %s=-", key);
}

/*
 * "# idlelab-kernel release=R hz=N config=FILE": the running kernel and its
 * CONFIG_HZ (from proc/config.gz or boot/config-R, as idlelab info reads
 * them), so that trace check decides with the kernel's tick; "-" where
 * not known.
 */
static void write_kernel_line(FILE *f)
{
	struct il_host h;
	struct il_err err;

	if (il_host_read(IL_HOST_LIVE_ROOT, false, &h, &err)) {
		fprintf(f, "# idlelab-kernel release=- hz=- config=-\n");
		return;
	}
	char rel[128];
	snprintf(rel, sizeof(rel), "%s", h.release ? h.release : "-");
	for (char *p = rel; *p; p++)
		if (*p == ' ' || (unsigned char)*p < 0x21 || (unsigned char)*p > 0x7e)
			*p = '_';
	if (h.hz)
		fprintf(f, "# idlelab-kernel release=%s hz=%u config=%s\n", rel, h.hz,
			h.config_file ? h.config_file : "-");
	else
		fprintf(f, "# idlelab-kernel release=%s hz=- config=-\n", rel);
	il_host_free(&h);
}

/*
 * PM QoS as the governor sees it: "# idlelab-pmqos TAG cpu_dma_latency_us=V"
 * (the 4-byte s32 /dev/cpu_dma_latency reads: the CPU latency limit; the
 * open adds a request at the default value, which changes no limit) and
 * "# idlelab-pmqos TAG cpu=N resume_latency_us=T" with T as sysfs shows the
 * CPU's request ("0" none, "n/a" 0 µs); "-" where a file cannot be read.
 * IDLELAB_CPU_DMA_LATENCY names another file for the first (tests).
 */
static void write_pmqos(FILE *f, const char *tag, const struct il_sysfs_info *info)
{
	const char *dev = getenv("IDLELAB_CPU_DMA_LATENCY");
	int32_t v;
	int fd = open(dev && *dev ? dev : "/dev/cpu_dma_latency", O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd >= 0 && read(fd, &v, sizeof(v)) == (ssize_t)sizeof(v) && v >= 0)
		fprintf(f, "# idlelab-pmqos %s cpu_dma_latency_us=%d\n", tag, (int)v);
	else
		fprintf(f, "# idlelab-pmqos %s cpu_dma_latency_us=-\n", tag);
	if (fd >= 0)
		close(fd);
	for (int i = 0; i < info->ncpus; i++) {
		char path[4200], buf[32];
		int cpu = info->cpus[i].cpu;
		const char *out = "-";

		snprintf(path, sizeof(path), "%s/cpu%d/power/pm_qos_resume_latency_us", sysfs_root(),
			 cpu);
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd >= 0) {
			ssize_t n = read(fd, buf, sizeof(buf) - 1);
			if (n > 0) {
				buf[n] = '\0';
				buf[strcspn(buf, "\n")] = '\0';
				bool ok = !strcmp(buf, "n/a") ||
					  (buf[0] && strspn(buf, "0123456789") == strlen(buf) &&
					   strlen(buf) <= 10 && strtoll(buf, NULL, 10) <= INT32_MAX);
				if (ok)
					out = buf;
			}
			close(fd);
		}
		fprintf(f, "# idlelab-pmqos %s cpu=%d resume_latency_us=%s\n", tag, cpu, out);
	}
}

/*
 * "# idlelab-param start MODULE.NAME=VALUE" for each module parameter of a
 * governor that idlelab reads (il_host_params of the module named as a
 * governor: haltpoll's), so that trace check runs the governor as the
 * kernel had it (a guest booted with haltpoll.guest_halt_poll_ns=0 never
 * polls). A parameter that cannot be read (no such module) is left out.
 * IDLELAB_MODULE_ROOT names another /sys/module (tests).
 */
static void write_params(FILE *f)
{
	const char *env = getenv("IDLELAB_MODULE_ROOT");
	const char *root = env && *env ? env : "/sys/module";

	for (int i = 0; i < il_host_param_count; i++) {
		const struct il_host_param_name *pn = &il_host_params[i];
		char path[4200], buf[64];
		ssize_t n;
		int fd;

		if (!il_gov_find(pn->module))
			continue;
		snprintf(path, sizeof(path), "%s/%s/parameters/%s", root, pn->module, pn->name);
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		/* the line's rule: a value without blanks or control bytes */
		bool ok = buf[0] && strlen(buf) < 32;
		for (const char *q = buf; ok && *q; q++)
			ok = (unsigned char)*q > ' ' && (unsigned char)*q < 0x7f;
		if (ok)
			fprintf(f, "# idlelab-param start %s.%s=%s\n", pn->module, pn->name, buf);
	}
}

/*
 * "# idlelab-sysfs TAG cpu=N state=I name=NAME usage=U time=T above=A
 * below=B" for every CPU and state, or only the CPUs of only (record's
 * --cpu: another CPU's counters have no trace to compare with, and its
 * rows read as periods the trace missed); a value that cannot be read is
 * "-". Then the PM QoS lines (write_pmqos).
 */
static int write_snapshot(FILE *f, const char *tag, const struct il_cpulist *only,
			  struct il_err *err)
{
	struct il_sysfs_info info;
	int r = il_sysfs_read(sysfs_root(), NULL, &info, err);

	if (r)
		return r;
	for (int i = 0; i < info.ncpus; i++) {
		const struct il_sysfs_cpu *c = &info.cpus[i];

		if (only && !il_cpulist_has(only, c->cpu))
			continue;

		for (int k = 0; k < c->nstates; k++) {
			const struct il_sysfs_state *s = &c->states[k];
			char name[64];

			snprintf(name, sizeof(name), "%s", s->name.s && *s->name.s ? s->name.s : "-");
			for (char *p = name; *p; p++)
				if (*p == ' ' || *p == '=' || (unsigned char)*p < 0x20)
					*p = '_';
			fprintf(f, "# idlelab-sysfs %s cpu=%d state=%d name=%s", tag, c->cpu, s->index,
				name);
			put_val(f, "usage", &s->val[IL_SF_USAGE]);
			put_val(f, "time", &s->val[IL_SF_TIME]);
			put_val(f, "above", &s->val[IL_SF_ABOVE]);
			put_val(f, "below", &s->val[IL_SF_BELOW]);
			fputc('\n', f);
		}
	}
	write_pmqos(f, tag, &info);
	if (!strcmp(tag, "start")) {
		/* the driver and governor the kernel ran, for trace check to hold against */
		char drv[64], gov[64];
		snprintf(drv, sizeof(drv), "%s", info.driver.status == IL_SYSFS_OK &&
			 info.driver.s[0] ? info.driver.s : "-");
		snprintf(gov, sizeof(gov), "%s", info.governor.status == IL_SYSFS_OK &&
			 info.governor.s[0] ? info.governor.s : "-");
		for (char *p = drv; *p; p++)
			if ((unsigned char)*p <= ' ' || *p == '=' || (unsigned char)*p >= 0x7f)
				*p = '_';
		for (char *p = gov; *p; p++)
			if ((unsigned char)*p <= ' ' || *p == '=' || (unsigned char)*p >= 0x7f)
				*p = '_';
		fprintf(f, "# idlelab-cpuidle start driver=%s governor=%s\n", drv, gov);
		write_params(f);
	}
	il_sysfs_info_free(&info);
	return 0;
}

int cmd_trace_snapshot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = "-", *tag;
	struct il_out out = { 0 };
	struct il_err err;
	int c, r;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case ':':
			return cli_usage_error("trace", "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_usage_error("trace", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return cli_usage_error("trace", "snapshot needs start or end");
	tag = argv[optind];
	if (strcmp(tag, "start") && strcmp(tag, "end"))
		return cli_usage_error("trace", "snapshot: '%s' is not start or end", tag);
	if (optind + 1 < argc)
		return cli_usage_error("trace", "unexpected argument '%s'", argv[optind + 1]);
	if (cli_name_given("trace", "-o", "file", output))
		return 2;
	if (il_out_open(&out, output, &err))
		return cli_report(&err);
	r = write_snapshot(out.f, tag, NULL, &err);
	if (r) {
		il_out_close(&out, false, NULL);
		return cli_report(&err);
	}
	if (il_out_close(&out, true, &err))
		return cli_report(&err);
	return 0;
}

/* ------------------------------------------- the delta in trace report */

bool trace_sysfs_present(const struct il_trace *t)
{
	for (int cpu = 0; cpu < t->ncpus; cpu++)
		for (int i = 0; t->cpus[cpu] && i < t->cpus[cpu]->nstates; i++)
			if (t->cpus[cpu]->st[i].sysfs_have == 3)
				return true;
	return false;
}

void trace_sysfs_cols(struct il_table *tb, const struct il_trace *t)
{
	if (!trace_sysfs_present(t))
		return;
	il_table_col(tb, "sysfs_usage");
	il_table_col(tb, "sysfs_time_us");
	il_table_col(tb, "sysfs_above");
	il_table_col(tb, "sysfs_below");
}

void trace_sysfs_cells(struct il_table *tb, const struct il_trace *t,
		       const struct il_trace_state *s)
{
	if (!trace_sysfs_present(t))
		return;
	for (int k = 0; k < 4; k++) {
		if (s->sysfs_have == 3)
			il_table_i64(tb, (long long)(s->sysfs[1][k] - s->sysfs[0][k]));
		else
			il_table_na(tb);
	}
}

void trace_names_check(const char *file, const char (*names)[32], const struct il_driver *drv,
		       const char *states)
{
	for (int i = 0; i < IL_STATE_MAX && i < drv->state_count; i++) {
		char want[64];

		if (!names[i][0])
			continue;
		snprintf(want, sizeof(want), "%s", drv->states[i].name[0] ? drv->states[i].name : "-");
		for (char *p = want; *p; p++)
			if (*p == ' ' || *p == '=' || (unsigned char)*p < 0x20)
				*p = '_';
		if (strcmp(want, names[i])) {
			cli_error("warning: %s: state %d is '%s' in the trace's idlelab-sysfs lines, "
				  "'%s' in --states %s: is the table not the traced machine's?", file, i,
				  names[i], drv->states[i].name, states);
			return;
		}
	}
}

static void ts_text(uint64_t ns, char *buf, size_t n)
{
	snprintf(buf, n, "%llu.%06llu", (unsigned long long)(ns / 1000000000ull),
		 (unsigned long long)(ns % 1000000000ull / 1000));
}

void trace_sysfs_note(const struct il_trace *t, const char *label, FILE *out)
{
	char a[32], b[32], c[32], d[32];

	if (!trace_sysfs_present(t))
		return;
	fprintf(out, "%ssysfs_*: the kernel's counters, end - start, as idlelab trace record read them\n",
	       label);
	if (t->sysfs_marks != 15)
		return;
	ts_text(t->sysfs_mark[0], a, sizeof(a));
	ts_text(t->sysfs_mark[1], b, sizeof(b));
	ts_text(t->sysfs_mark[2], c, sizeof(c));
	ts_text(t->sysfs_mark[3], d, sizeof(d));
	fprintf(out, "%ssysfs read at %s..%s and %s..%s: the same periods are counted with "
	       "--window %s,%s (or %s,%s with the reads)\n", label, a, b, c, d, b, c, a, d);
}

/* ------------------------------------------------------------- record */

#define MAX_EVENTS 256
/* how often trace_pipe is emptied: the buffer (1.4 MB per CPU by default) holds far more */
#define POLL_MS 200
#define NAME_MAX_LEN 64

struct event {
	char sys[NAME_MAX_LEN], name[NAME_MAX_LEN];
};

static const char *const default_events[] = {
	"power:cpu_idle", "power:cpu_idle_miss", "power:guest_halt_poll_ns",
	"sched:sched_switch", "sched:sched_wakeup",
	"timer:hrtimer_start", "timer:hrtimer_expire_entry", "timer:hrtimer_cancel",
	"timer:tick_stop", "irq:irq_handler_entry", "irq_vectors:*_entry",
	"ipi:ipi_send_cpu", "ipi:ipi_send_cpumask",
};

/* SYS:EVENT with tracefs names ([A-Za-z0-9_], and * ? in EVENT) */
static bool split_event(const char *item, char *sys, char *name)
{
	const char *colon = strchr(item, ':');
	size_t n;

	if (!colon)
		colon = strchr(item, '/');
	if (!colon || colon == item || !colon[1])
		return false;
	n = (size_t)(colon - item);
	if (n >= NAME_MAX_LEN || strlen(colon + 1) >= NAME_MAX_LEN)
		return false;
	memcpy(sys, item, n);
	sys[n] = '\0';
	snprintf(name, NAME_MAX_LEN, "%s", colon + 1);
	for (const char *p = sys; *p; p++)
		if (!(*p == '_' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z')))
			return false;
	for (const char *p = name; *p; p++)
		if (!(*p == '_' || *p == '*' || *p == '?' || (*p >= '0' && *p <= '9') ||
		      (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
			return false;
	return true;
}

/* Whether TRACING/events/SYS/NAME/enable exists. */
static bool event_exists(const char *tracing, const char *sys, const char *name)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/events/%s/%s/enable", tracing, sys, name);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int cmp_event(const void *a, const void *b)
{
	const struct event *x = a, *y = b;
	int c = strcmp(x->sys, y->sys);

	return c ? c : strcmp(x->name, y->name);
}

/*
 * Add the events matching item (a glob in the event name) that this
 * kernel has. Returns how many matched, or -1 when the list is full.
 */
static int add_events(const char *tracing, const char *sys, const char *pat, struct event *ev,
		      int *n)
{
	int found = 0, first = *n;

	if (!strpbrk(pat, "*?")) {
		if (!event_exists(tracing, sys, pat))
			return 0;
		for (int i = 0; i < *n; i++)
			if (!strcmp(ev[i].sys, sys) && !strcmp(ev[i].name, pat))
				return 1;
		if (*n == MAX_EVENTS)
			return -1;
		snprintf(ev[*n].sys, NAME_MAX_LEN, "%s", sys);
		snprintf(ev[*n].name, NAME_MAX_LEN, "%s", pat);
		(*n)++;
		return 1;
	}
	char path[4096];
	DIR *d;
	struct dirent *de;

	snprintf(path, sizeof(path), "%s/events/%s", tracing, sys);
	if (!(d = opendir(path)))
		return 0;
	while ((de = readdir(d))) {
		bool dup = false;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= NAME_MAX_LEN ||
		    fnmatch(pat, de->d_name, 0) || !event_exists(tracing, sys, de->d_name))
			continue;
		found++;
		for (int i = 0; i < *n; i++)
			dup |= !strcmp(ev[i].sys, sys) && !strcmp(ev[i].name, de->d_name);
		if (dup)
			continue;
		if (*n == MAX_EVENTS) {
			closedir(d);
			return -1;
		}
		snprintf(ev[*n].sys, NAME_MAX_LEN, "%s", sys);
		/* its length was checked above: below NAME_MAX_LEN */
		memcpy(ev[*n].name, de->d_name, strlen(de->d_name) + 1);
		(*n)++;
	}
	closedir(d);
	qsort(ev + first, (size_t)(*n - first), sizeof(*ev), cmp_event);
	return found;
}

/* The kernel's cpumask format: 32-bit hex groups, most significant first. */
static void cpumask_text(const struct il_cpulist *l, char *buf, size_t n)
{
	int top = l->cpus[l->n - 1], groups = top / 32 + 1;
	size_t len = 0;

	buf[0] = '\0';
	for (int g = groups - 1; g >= 0 && len < n; g--) {
		unsigned int w = 0;

		for (int i = 0; i < l->n; i++)
			if (l->cpus[i] / 32 == g)
				w |= 1u << (l->cpus[i] % 32);
		len += (size_t)snprintf(buf + len, n - len, "%s%08x", g == groups - 1 ? "" : ",", w);
	}
}

struct record_opts {
	const char *events[MAX_EVENTS];
	int nevents;
	const char *cpus, *output;
	int64_t duration_ns;      /* 0: none */
	long buffer_kb;           /* 0: the kernel's */
	char **command;           /* NULL: none */
};

#ifndef IL_HAVE_LIBTRACEFS

static int record(const struct record_opts *o)
{
	(void)o;
	return cli_error("trace record: this idlelab was built without libtracefs, so it cannot "
			 "record (install libtracefs-dev and rebuild; or record as docs/trace.md "
			 "shows and read the file with trace report)");
}

#else

/*
 * Instances "idlelab-record-PID" whose process no longer runs: what a run
 * killed with SIGKILL left (tracing, its buffers allocated). Removed, and
 * said; one whose PID runs (another recording, or the PID reused) is left.
 */
static void remove_stale_instances(const char *tracing)
{
	char dir[4200];
	DIR *d;
	struct dirent *e;

	snprintf(dir, sizeof(dir), "%s/instances", tracing);
	if (!(d = opendir(dir)))
		return;
	while ((e = readdir(d))) {
		char *end;
		const char *num;
		long pid;

		if (strncmp(e->d_name, "idlelab-record-", 15))
			continue;
		num = e->d_name + 15;
		errno = 0;
		pid = strtol(num, &end, 10);
		if (!*num || *end || errno || pid <= 0 || pid == (long)getpid())
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		char path[4500];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (rmdir(path) == 0)
			fprintf(stderr, "trace record: removed tracefs instance %s, left by process %ld, "
				"which no longer runs\n", path, pid);
		else
			fprintf(stderr, "trace record: tracefs instance %s, left by process %ld, which "
				"no longer runs: cannot remove it: %s\n", path, pid, strerror(errno));
	}
	closedir(d);
}


/* What the signal handler needs: set before the signals can come. */
static volatile sig_atomic_t stop_signal;
static char inst_path[4096];
static volatile sig_atomic_t inst_made;
static int on_fd = -1, pipe_fd = -1, marker_fd = -1;
static volatile pid_t child_pid;

static void say(const char *a, const char *b, const char *c)
{
	const char *p[] = { a, b, c };

	for (int i = 0; i < 3; i++)
		if (p[i] && write(STDERR_FILENO, p[i], strlen(p[i])) < 0)
			return;
}

static void on_signal(int sig)
{
	if (!stop_signal) {
		stop_signal = sig;
		return;
	}
	/* a second signal: undo from here, async-signal-safe calls only */
	if (child_pid > 0)
		kill(child_pid, SIGTERM);
	if (on_fd >= 0)
		(void)!write(on_fd, "0", 1);
	if (pipe_fd >= 0)
		close(pipe_fd);
	if (marker_fd >= 0)
		close(marker_fd);
	if (on_fd >= 0)
		close(on_fd);
	if (inst_made) {
		if (rmdir(inst_path) == 0)
			say("removed tracefs instance ", inst_path, "\n");
		else
			say("idlelab: could not remove tracefs instance ", inst_path, "\n");
	}
	il_out_cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * SIGPIPE as SIGTERM: what was changed is said on stderr, and a reader of
 * it that has gone (`2>&1 | head -1`) would otherwise kill the process with
 * the instance in place and the output's temporary left. SIGQUIT (^\) too:
 * its default action ends the process as SIGTERM's does. And the other
 * signals whose default action ends the process (IL_END_SIGNALS), which
 * used to leave the instance tracing and the output's temporary behind.
 */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, IL_END_SIGNALS };

static void install_signals(void)
{
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++) {
		struct sigaction sa, old;

		if (sigaction(stop_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;   /* no SA_RESTART: poll() returns at once */
		sigfillset(&sa.sa_mask);
		sigaction(stop_signals[i], &sa, NULL);
	}
}

/* the CPUs of --cpu, for the markers; NULL: all */
static const struct il_cpulist *marker_cpus;

static void marker(const char *text)
{
	size_t n = strlen(text);
	ssize_t w;

	if (marker_fd < 0)
		return;
	w = write(marker_fd, text, n);
	if (w < 0 && errno == EBADF && marker_cpus) {
		/* the buffer takes a marker only from a CPU in tracing_cpumask */
		cpu_set_t old, set;

		if (sched_getaffinity(0, sizeof(old), &old) == 0) {
			CPU_ZERO(&set);
			for (int i = 0; i < marker_cpus->n; i++)
				if (marker_cpus->cpus[i] < CPU_SETSIZE)
					CPU_SET(marker_cpus->cpus[i], &set);
			if (sched_setaffinity(0, sizeof(set), &set) == 0) {
				w = write(marker_fd, text, n);
				sched_setaffinity(0, sizeof(old), &old);
			}
		}
	}
	if (w < 0)
		cli_error("warning: trace record: cannot write trace_marker: %s", strerror(errno));
}

/*
 * Run on each traced CPU once (moving there wakes it), then go back. A CPU
 * idle since before tracing_on would show its exit without an entry,
 * whose state the trace cannot tell, while the kernel counts it: woken
 * here, before the first sysfs read, every period inside the window has
 * both events.
 */
static void wake_cpus(void)
{
	cpu_set_t old, one;

	if (sched_getaffinity(0, sizeof(old), &old))
		return;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &old) || (marker_cpus && !il_cpulist_has(marker_cpus, cpu)))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		sched_setaffinity(0, sizeof(one), &one);
	}
	sched_setaffinity(0, sizeof(old), &old);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Copy what trace_pipe holds now into f; 0 or -errno. */
/*
 * Events the instance's ring buffer lost: the sum of "overrun:" and
 * "dropped events:" of per_cpu/cpuN/stats (the kernel's count, whether
 * or not a [LOST] line made it into the output). -1 when not readable.
 */
static long long lost_events(void)
{
	char path[4200];
	long long sum = -1;
	DIR *d;
	struct dirent *de;

	snprintf(path, sizeof(path), "%s/per_cpu", inst_path);
	if (!(d = opendir(path)))
		return -1;
	while ((de = readdir(d))) {
		char file[4600], line[128];
		FILE *f;

		if (strncmp(de->d_name, "cpu", 3))
			continue;
		snprintf(file, sizeof(file), "%s/%s/stats", path, de->d_name);
		if (!(f = fopen(file, "re")))
			continue;
		while (fgets(line, sizeof(line), f)) {
			long long v;
			if (sscanf(line, "overrun: %lld", &v) == 1 ||
			    sscanf(line, "dropped events: %lld", &v) == 1)
				sum = (sum < 0 ? 0 : sum) + v;
		}
		fclose(f);
	}
	closedir(d);
	return sum;
}

static int drain(FILE *f)
{
	static char buf[65536];

	for (;;) {
		ssize_t n = read(pipe_fd, buf, sizeof(buf));

		if (n > 0) {
			if (fwrite(buf, 1, (size_t)n, f) != (size_t)n)
				return -EIO;
			continue;
		}
		if (n == 0 || errno == EAGAIN)
			return 0;
		if (errno != EINTR)
			return -errno;
	}
}

/* Start COMMAND; 0, or an error said (exec failures come back through a pipe). */
static int start_command(char **cmd)
{
	int p[2], e = 0;
	pid_t pid;
	ssize_t n;

	if (pipe2(p, O_CLOEXEC))
		return cli_error("trace record: pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return cli_error("trace record: fork: %s", strerror(errno));
	}
	if (pid == 0) {
		for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++) {
			struct sigaction old;
			if (sigaction(stop_signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
				signal(stop_signals[i], SIG_DFL);
		}
		close(p[0]);
		execvp(cmd[0], cmd);
		e = errno;
		if (write(p[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(p[1]);
	child_pid = pid;
	do
		n = read(p[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(p[0]);
	if (n == (ssize_t)sizeof(e)) {
		waitpid(pid, NULL, 0);
		child_pid = 0;
		return cli_error("trace record: %s: cannot run: %s", cmd[0], strerror(e));
	}
	return 0;
}

static int open_in(struct tracefs_instance *inst, const char *file, int mode, int *fd)
{
	*fd = tracefs_instance_file_open(inst, file, mode | O_CLOEXEC);
	if (*fd < 0)
		return cli_error("trace record: %s/%s: cannot open: %s", inst_path, file,
				 strerror(errno ? errno : EIO));
	return 0;
}

static int set_in(struct tracefs_instance *inst, const char *file, const char *value)
{
	errno = 0;
	if (tracefs_instance_file_write(inst, file, value) < 0)
		return cli_error("trace record: %s/%s: cannot write '%s': %s", inst_path, file, value,
				 strerror(errno ? errno : EIO));
	return 0;
}

static int record(const struct record_opts *o)
{
	static struct event ev[MAX_EVENTS];
	const char *env = getenv("IDLELAB_TRACEFS");
	char tracing[4096], name[64], mask[1024] = "", value[64];
	struct il_cpulist cpus = { 0 };
	struct tracefs_instance *inst = NULL;
	struct il_out out = { 0 };
	struct il_err err;
	struct stat st;
	int nev = 0, ret = 1, status = 0;
	bool keep = false, child_done = false, have_start = false;
	char *end_snap = NULL;
	size_t end_len = 0;

	/* tracefs: IDLELAB_TRACEFS (tests), else the usual mount point; never mounted here */
	snprintf(tracing, sizeof(tracing), "%s", env && *env ? env : "/sys/kernel/tracing");
	{
		char probe[4200];
		snprintf(probe, sizeof(probe), "%s/instances", tracing);
		if (stat(probe, &st) && (errno == EACCES || errno == EPERM))
			return cli_error("trace record: %s: cannot read it: %s (tracing needs root)",
					 tracing, strerror(errno));
		if (stat(probe, &st) || !S_ISDIR(st.st_mode))
			return cli_error("trace record: %s: no tracefs there (mount it: mount -t "
					 "tracefs nodev /sys/kernel/tracing)", tracing);
	}
	if (tracefs_set_tracing_dir(tracing))
		return cli_error("trace record: %s: libtracefs refuses it", tracing);
	remove_stale_instances(tracing);

	/* the events: a default this kernel lacks is skipped, a named one is an error */
	if (o->nevents) {
		for (int i = 0; i < o->nevents; i++) {
			char sys[NAME_MAX_LEN], ename[NAME_MAX_LEN];
			int r;

			split_event(o->events[i], sys, ename);   /* checked by the caller */
			r = add_events(tracing, sys, ename, ev, &nev);
			if (r < 0)
				return cli_error("trace record: more than %d events", MAX_EVENTS);
			if (r == 0)
				return cli_error("trace record: event %s: not in this kernel (no %s/events/"
						 "%s/%s/enable)", o->events[i], tracing, sys, ename);
		}
	} else {
		for (size_t i = 0; i < sizeof(default_events) / sizeof(default_events[0]); i++) {
			char sys[NAME_MAX_LEN], ename[NAME_MAX_LEN];
			int r;

			split_event(default_events[i], sys, ename);
			r = add_events(tracing, sys, ename, ev, &nev);
			if (r < 0)
				return cli_error("trace record: more than %d events", MAX_EVENTS);
			if (r == 0 && i == 0)
				return cli_error("trace record: event power:cpu_idle: not in this kernel "
						 "(no %s/events/power/cpu_idle/enable): nothing to record",
						 tracing);
			if (r == 0)
				fprintf(stderr, "trace record: note: %s not in this kernel: not recorded\n",
					default_events[i]);
		}
	}
	if (o->cpus) {
		if (il_cpulist_parse(o->cpus, &cpus, &err))
			return cli_usage_error("trace", "--cpu: %s", err.msg);
		/*
		 * tracing_cpumask takes only the machine's possible CPUs: say which
		 * ones, before anything is made (the kernel's EOVERFLOW says little)
		 */
		{
			char path[4200], buf[256];
			struct il_cpulist poss = { 0 };
			int fd, bad = -1;
			ssize_t n = -1;

			snprintf(path, sizeof(path), "%s/possible", sysfs_root());
			fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
			if (fd >= 0) {
				n = read(fd, buf, sizeof(buf) - 1);
				close(fd);
			}
			if (n > 0) {
				buf[n] = '\0';
				buf[strcspn(buf, "\n")] = '\0';
				if (!il_cpulist_parse(buf, &poss, &err))
					for (int i = 0; i < cpus.n && bad < 0; i++)
						if (!il_cpulist_has(&poss, cpus.cpus[i]))
							bad = cpus.cpus[i];
				il_cpulist_free(&poss);
			}
			if (bad >= 0) {
				il_cpulist_free(&cpus);
				return cli_usage_error("trace", "--cpu %s: CPU %d is not one of this "
						       "machine's (possible: %s)", o->cpus, bad, buf);
			}
		}
		cpumask_text(&cpus, mask, sizeof(mask));
		marker_cpus = &cpus;
	}

	snprintf(name, sizeof(name), "idlelab-record-%ld", (long)getpid());
	if (tracefs_instance_exists(name)) {
		ret = cli_error("trace record: tracefs instance %s already exists (left alone)", name);
		goto out;
	}
	install_signals();
	/* the output first: a file that cannot be written fails before anything changes */
	if (il_out_open(&out, o->output, &err)) {
		ret = cli_report(&err);
		goto out;
	}
	if (snprintf(inst_path, sizeof(inst_path), "%s/instances/%s", tracing, name) >=
	    (int)sizeof(inst_path)) {
		ret = cli_error("trace record: %s: name too long", tracing);
		goto out;
	}
	inst = tracefs_instance_create(name);
	if (!inst) {
		ret = cli_error("trace record: %s: cannot create the instance: %s", inst_path,
				strerror(errno ? errno : EIO));
		goto out;
	}
	if (!tracefs_instance_is_new(inst)) {
		tracefs_instance_free(inst);
		inst = NULL;
		ret = cli_error("trace record: tracefs instance %s already exists (left alone)", name);
		goto out;
	}
	inst_made = 1;
	fprintf(stderr, "created tracefs instance %s (removed at exit)\n", inst_path);
	if (stop_signal)
		goto out;

	/* a new instance traces at once: off until all is set */
	if (open_in(inst, "tracing_on", O_WRONLY, &on_fd) || set_in(inst, "tracing_on", "0"))
		goto out;
	if (o->buffer_kb) {
		snprintf(value, sizeof(value), "%ld", o->buffer_kb);
		if (set_in(inst, "buffer_size_kb", value))
			goto out;
		fprintf(stderr, "  in it: buffer_size_kb %s per CPU\n", value);
	}
	if (*mask) {
		if (set_in(inst, "tracing_cpumask", mask))
			goto out;
		fprintf(stderr, "  in it: tracing_cpumask %s (CPUs %s)\n", mask, o->cpus);
	}
	fprintf(stderr, "  in it: enabled %d events:", nev);
	for (int i = 0; i < nev; i++)
		fprintf(stderr, " %s:%s", ev[i].sys, ev[i].name);
	fputc('\n', stderr);
	for (int i = 0; i < nev; i++) {
		char file[200];

		if (snprintf(file, sizeof(file), "events/%s/%s/enable", ev[i].sys, ev[i].name) >=
		    (int)sizeof(file) || set_in(inst, file, "1"))
			goto out;
	}
	if (open_in(inst, "trace_pipe", O_RDONLY | O_NONBLOCK, &pipe_fd) ||
	    open_in(inst, "trace_marker", O_WRONLY, &marker_fd))
		goto out;

	fprintf(out.f, "# idlelab trace record %s: tracefs instance %s, clock local\n",
		IDLELAB_VERSION, name);
	write_kernel_line(out.f);
	fprintf(out.f, "# idlelab-events");
	for (int i = 0; i < nev; i++)
		fprintf(out.f, " %s:%s", ev[i].sys, ev[i].name);
	fputc('\n', out.f);
	if (o->cpus)
		fprintf(out.f, "# idlelab-cpus %s\n", o->cpus);

	if (write(on_fd, "1", 1) != 1) {
		ret = cli_error("trace record: %s/tracing_on: cannot write '1': %s", inst_path,
				strerror(errno));
		goto out;
	}
	wake_cpus();
	/* the start counters, read between two markers that date the read */
	marker("idlelab-sysfs-start-begin");
	if (write_snapshot(out.f, "start", marker_cpus, &err)) {
		char buf[IL_ERR_MSG_MAX + IL_ERR_FILE_MAX + 32];
		cli_error("warning: trace record: no sysfs counters: %s",
			  il_err_format(&err, buf, sizeof(buf)));
	} else {
		have_start = true;
	}
	marker("idlelab-sysfs-start-end");

	if (o->command && !stop_signal && start_command(o->command))
		goto out;

	int64_t deadline = o->duration_ns ? now_ns() + o->duration_ns : 0;
	for (;;) {
		int timeout = POLL_MS;
		int r;

		if ((r = drain(out.f))) {
			ret = cli_error("trace record: %s: %s", r == -EIO ? il_out_name(&out) : "trace_pipe",
					r == -EIO ? "cannot write" : strerror(-r));
			goto out;
		}
		if (stop_signal)
			break;
		if (child_pid > 0 && waitpid(child_pid, &status, WNOHANG) == child_pid) {
			child_pid = 0;
			child_done = true;
			break;
		}
		if (deadline) {
			int64_t left = deadline - now_ns();
			if (left <= 0)
				break;
			if (left < POLL_MS * 1000000LL)
				timeout = (int)(left / 1000000) + 1;
		}
		/*
		 * A sleep, not a poll() on trace_pipe: a waiter there is woken
		 * (irq_work, an IPI, a wake-up, a timer) for each event the
		 * buffer takes, and each wake-up is events again.
		 */
		poll(NULL, 0, timeout);
	}

	/* the end counters, then stop and take the rest */
	if (have_start) {
		FILE *m = open_memstream(&end_snap, &end_len);

		marker("idlelab-sysfs-end-begin");
		if (!m || write_snapshot(m, "end", marker_cpus, &err)) {
			cli_error("warning: trace record: no sysfs counters at the end");
			if (m)
				fclose(m);
			free(end_snap);
			end_snap = NULL;
		} else {
			fclose(m);
		}
		marker("idlelab-sysfs-end-end");
	}
	if (write(on_fd, "0", 1) != 1)
		cli_error("warning: trace record: %s/tracing_on: cannot write '0': %s", inst_path,
			  strerror(errno));
	{
		int r = drain(out.f);
		if (r) {
			ret = cli_error("trace record: %s: %s", r == -EIO ? il_out_name(&out) : "trace_pipe",
					r == -EIO ? "cannot write" : strerror(-r));
			goto out;
		}
	}
	if (end_snap)
		fwrite(end_snap, 1, end_len, out.f);
	{
		/* said now, not only when the trace is read: the fix is a bigger buffer */
		long long lost = lost_events();
		char now[48];
		if (o->buffer_kb > 0)
			snprintf(now, sizeof(now), "%ld now", o->buffer_kb);
		else
			snprintf(now, sizeof(now), "the kernel's default now");
		if (lost > 0)
			cli_error("warning: trace record: the ring buffer lost %lld events (the "
				  "[LOST] lines; trace report leaves the periods around them out): "
				  "give a larger --buffer-kb (%s)", lost, now);
	}
	if (child_pid > 0) {
		fprintf(stderr, "trace record: stopping %s (SIGTERM)\n", o->command[0]);
		kill(child_pid, SIGTERM);
		waitpid(child_pid, &status, 0);
		child_pid = 0;
	} else if (child_done) {
		if (WIFEXITED(status) && WEXITSTATUS(status))
			fprintf(stderr, "trace record: %s exited with status %d\n", o->command[0],
				WEXITSTATUS(status));
		else if (WIFSIGNALED(status))
			fprintf(stderr, "trace record: %s killed by signal %d\n", o->command[0],
				WTERMSIG(status));
	}
	/* SIGINT ends a recording as asked; SIGTERM, SIGHUP, SIGQUIT, SIGPIPE (any other) discards it */
	keep = !stop_signal || stop_signal == SIGINT;
	ret = keep ? 0 : 1;
out:
	if (child_pid > 0) {
		kill(child_pid, SIGTERM);
		waitpid(child_pid, NULL, 0);
		child_pid = 0;
	}
	{
		/* the handler must not touch what is being closed */
		sigset_t set, old;

		sigemptyset(&set);
		for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
			sigaddset(&set, stop_signals[i]);
		sigprocmask(SIG_BLOCK, &set, &old);
		if (on_fd >= 0 && !keep && write(on_fd, "0", 1) < 0)
			ret = 1;
		for (int *fd = &pipe_fd; fd; fd = fd == &pipe_fd ? &marker_fd : fd == &marker_fd ? &on_fd : NULL)
			if (*fd >= 0) {
				close(*fd);
				*fd = -1;
			}
		if (inst) {
			if (tracefs_instance_destroy(inst))
				ret = cli_error("could not remove tracefs instance %s: %s", inst_path,
						strerror(errno ? errno : EIO));
			else
				fprintf(stderr, "removed tracefs instance %s\n", inst_path);
			tracefs_instance_free(inst);
			inst_made = 0;
		}
		if (out.f && il_out_close(&out, keep && ret == 0, &err))
			ret = cli_report(&err);
		else if (keep && ret == 0)
			fprintf(stderr, "trace record: wrote %s\n", o->output);
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	free(end_snap);
	il_cpulist_free(&cpus);
	if (stop_signal && stop_signal != SIGINT) {
		signal(stop_signal, SIG_DFL);
		raise(stop_signal);
	}
	return ret;
}
#endif

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

int cmd_trace_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "event", required_argument, NULL, 'e' }, { "cpu", required_argument, NULL, 'c' },
		{ "duration", required_argument, NULL, 'd' }, { "output", required_argument, NULL, 'o' },
		{ "buffer-kb", required_argument, NULL, 'b' },
		{ NULL, 0, NULL, 0 },
	};
	static struct record_opts o;
	static char evbuf[8192];
	size_t evlen = 0;
	struct il_cpulist cl = { 0 };
	struct il_err err;
	int c;

	memset(&o, 0, sizeof(o));
	optind = 1;
	opterr = 0;
	/* "+": options stop at COMMAND, with or without "--" */
	while ((c = getopt_long(argc, argv, "+:e:o:", opts, NULL)) != -1) {
		switch (c) {
		case 'e': {
			size_t n = strlen(optarg);
			char *s, *save = NULL;

			if (evlen + n + 1 > sizeof(evbuf))
				return cli_usage_error("trace", "-e: too many events");
			s = memcpy(evbuf + evlen, optarg, n + 1);
			evlen += n + 1;
			for (char *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
				char sys[NAME_MAX_LEN], name[NAME_MAX_LEN];

				if (!split_event(t, sys, name))
					return cli_usage_error("trace", "-e: '%s' is not SYS:EVENT "
							       "(power:cpu_idle, irq_vectors:*)", t);
				if (o.nevents == MAX_EVENTS)
					return cli_usage_error("trace", "-e: more than %d events",
							       MAX_EVENTS);
				o.events[o.nevents++] = t;
			}
			if (!o.nevents)
				return cli_usage_error("trace", "-e: no event in '%s'", optarg);
			break;
		}
		case 'c':
			o.cpus = optarg;
			break;
		case 'd': {
			/* a bare number is seconds, as --interval of info and doctor takes it */
			double sec;
			if (il_parse_double(optarg, &sec) == 0)
				o.duration_ns = sec > 0 && sec <= 86400 ? (int64_t)(sec * 1e9 + 0.5) : -1;
			else if (il_parse_duration_ns(optarg, &o.duration_ns))
				o.duration_ns = -1;
			if (o.duration_ns <= 0)
				return cli_usage_error("trace", "--duration: '%s' is not a duration "
						       "(\"10s\", \"500ms\"; bare numbers: seconds, at "
						       "most 86400)", optarg);
			break;
		}
		case 'o':
			o.output = optarg;
			break;
		case 'b': {
			int64_t v;
			if (il_parse_i64(optarg, &v) || v <= 0 || v > 16 * 1024 * 1024)
				return cli_usage_error("trace", "--buffer-kb: '%s' is not a size in "
						       "KiB (1..16777216)", optarg);
			o.buffer_kb = (long)v;
			break;
		}
		case ':':
			return cli_usage_error("trace", "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_usage_error("trace", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (!o.output)
		return cli_usage_error("trace", "record needs -o FILE");
	if (cli_name_given("trace", "-o", "file", o.output))
		return 2;
	if (ends_with(o.output, ".dat"))
		return cli_usage_error("trace", "-o %s: trace record writes ftrace text, not "
				       "trace-cmd .dat (name it e.g. idle.trace; for a .dat, record "
				       "into an instance and use trace-cmd extract, docs/trace.md)",
				       o.output);
	if (o.cpus) {
		if (il_cpulist_parse(o.cpus, &cl, &err))
			return cli_usage_error("trace", "--cpu: %s", err.msg);
		if (!cl.n) {
			il_cpulist_free(&cl);
			return cli_usage_error("trace", "--cpu: no CPU in '%s'", o.cpus);
		}
		il_cpulist_free(&cl);
	}
	if (optind < argc)
		o.command = argv + optind;
	return record(&o);
}
