// SPDX-License-Identifier: GPL-2.0-only
/*
 * The live sleep sweep and the wake-up latency tests (include/idlelab/wakebench.h),
 * moved here from bench/bench_live_sweep.c and bench/bench_wakeup.c so that
 * `idlelab sweep`, `idlelab latency` and the two benchmarks run one code.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "idlelab/sysfs.h"
#include "idlelab/wakebench.h"
#include "util.h"

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __builtin_ia32_pause()
#else
#define cpu_relax() __asm__ __volatile__("" ::: "memory")
#endif

int64_t il_wake_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sleep_ns(int64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

static int pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return EINVAL;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

int il_wake_cpu_ok(int cpu)
{
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return EINVAL;
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return errno;
	return CPU_ISSET(cpu, &set) ? 0 : EINVAL;
}

static long futex(_Atomic int *uaddr, int op, int val)
{
	return syscall(SYS_futex, (int *)uaddr, op, val, NULL, NULL, 0);
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

int64_t il_wake_percentile(const int64_t *v, int n, double q)
{
	int i = (int)ceil(q / 100.0 * n) - 1;

	if (n <= 0)
		return 0;
	return v[i < 0 ? 0 : i >= n ? n - 1 : i];
}

void il_wake_pct_of(int64_t *v, int n, struct il_wake_pct *p)
{
	double sum = 0;

	memset(p, 0, sizeof(*p));
	p->n = n;
	if (n <= 0)
		return;
	qsort(v, (size_t)n, sizeof(int64_t), cmp64);
	for (int i = 0; i < n; i++)
		sum += (double)v[i];
	p->min = v[0];
	p->p25 = il_wake_percentile(v, n, 25);
	p->p50 = il_wake_percentile(v, n, 50);
	p->p75 = il_wake_percentile(v, n, 75);
	p->p90 = il_wake_percentile(v, n, 90);
	p->p99 = il_wake_percentile(v, n, 99);
	p->p999 = il_wake_percentile(v, n, 99.9);
	p->max = v[n - 1];
	p->mean = sum / n;
}

int64_t il_wake_clock_cost_ns(void)
{
	int64_t a = il_wake_now_ns(), b = il_wake_now_ns(), best = b - a;

	for (int i = 0; i < 1000; i++) {
		a = il_wake_now_ns();
		b = il_wake_now_ns();
		if (b - a < best)
			best = b - a;
	}
	return best;
}

double il_wake_load1(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double v = -1;

	if (f) {
		if (fscanf(f, "%lf", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* ------------------------------------------------------------------ */
/* The sleep sweep */

struct sweep_shared {
	_Alignas(64) _Atomic int word;  /* futex word: bumped to wake the wakee */
	_Atomic int64_t t_wake;         /* waker's clock at the wake */
	_Atomic int64_t t_block;        /* wakee's clock when it went to block */
	_Atomic int taken;              /* the last word value the wakee ran for */
	_Atomic int stop;
	_Atomic int pin_failed;
	int wakee_cpu;
	int64_t *lat, *slept;
	int n, cap;
};

static void *sweep_wakee(void *arg)
{
	struct sweep_shared *sh = arg;
	int seen = 0;

	if (pin(sh->wakee_cpu)) {
		atomic_store(&sh->pin_failed, 1);
		atomic_store(&sh->stop, 1);
		return NULL;
	}
	for (;;) {
		atomic_store(&sh->t_block, il_wake_now_ns());
		while (atomic_load_explicit(&sh->word, memory_order_acquire) == seen)
			futex(&sh->word, FUTEX_WAIT_PRIVATE, seen);
		int64_t t = il_wake_now_ns();
		seen = atomic_load(&sh->word);
		if (atomic_load(&sh->stop))
			return NULL;
		if (sh->n < sh->cap) {
			sh->lat[sh->n] = t - atomic_load(&sh->t_wake);
			sh->slept[sh->n] = t - atomic_load(&sh->t_block);
			sh->n++;
		}
		atomic_store_explicit(&sh->taken, seen, memory_order_release);
	}
}

struct counters {
	int n;
	bool no_above_below;      /* a kernel before above/below (their files missing) */
	char name[IL_SWEEP_STATES_MAX][32];
	uint64_t usage[IL_SWEEP_STATES_MAX], time_us[IL_SWEEP_STATES_MAX],
		 above[IL_SWEEP_STATES_MAX], below[IL_SWEEP_STATES_MAX];
};

/*
 * A counter that cannot be used: the reader's note for its file ("not a
 * number: 'xyz'", "missing"), else what its status says.
 */
static int bad_counter(const struct il_sysfs_info *info, const char *root, int cpu,
		       int state, const char *file, const struct il_sysfs_val *v,
		       struct il_err *err)
{
	char path[4400];

	snprintf(path, sizeof(path), "%s/cpu%d/cpuidle/state%d/%s",
		 root ? root : IL_SYSFS_DEFAULT_ROOT, cpu, state, file);
	for (int i = 0; i < info->notes.n; i++)
		if (!strcmp(info->notes.items[i].file, path))
			return il_err_set_at(err, EIO, path, 0, "%s", info->notes.items[i].msg);
	return il_err_set_at(err, EIO, path, 0, "%s",
			     v->status == IL_SYSFS_MISSING ? "missing" : "not a number");
}

static int read_counters(const char *root, int cpu, struct counters *s, struct il_err *err)
{
	struct il_cpulist only = { 1, &cpu };
	struct il_sysfs_info info;
	const struct il_sysfs_cpu *c;

	if (il_sysfs_read(root, &only, &info, err))
		return -EIO;
	if (info.ncpus != 1 || info.cpus[0].nstates < 1) {
		il_sysfs_info_free(&info);
		return il_err_set_at(err, ENOENT, root ? root : IL_SYSFS_DEFAULT_ROOT, 0,
				     "cpu%d has no idle states", cpu);
	}
	c = &info.cpus[0];
	s->n = c->nstates < IL_SWEEP_STATES_MAX ? c->nstates : IL_SWEEP_STATES_MAX;
	s->no_above_below = false;
	for (int i = 0; i < s->n; i++) {
		const struct il_sysfs_state *st = &c->states[i];
		static const struct { enum il_sysfs_field f; const char *file; } need[] = {
			{ IL_SF_USAGE, "usage" }, { IL_SF_TIME, "time" },
			{ IL_SF_ABOVE, "above" }, { IL_SF_BELOW, "below" },
		};

		/* usage and time every cpuidle kernel has; above and below may be missing */
		for (size_t k = 0; k < sizeof(need) / sizeof(need[0]); k++) {
			const struct il_sysfs_val *v = &st->val[need[k].f];
			if (v->status == IL_SYSFS_OK)
				continue;
			if (v->status == IL_SYSFS_MISSING && k >= 2) {
				s->no_above_below = true;
				continue;
			}
			int r = bad_counter(&info, root, cpu, st->index, need[k].file, v, err);
			il_sysfs_info_free(&info);
			return r;
		}
		snprintf(s->name[i], sizeof(s->name[i]), "%s", st->name.s ? st->name.s : "?");
		s->usage[i] = st->val[IL_SF_USAGE].v;
		s->time_us[i] = st->val[IL_SF_TIME].v;
		s->above[i] = st->val[IL_SF_ABOVE].v;
		s->below[i] = st->val[IL_SF_BELOW].v;
	}
	il_sysfs_info_free(&info);
	return 0;
}

struct waker_args {
	const struct il_sweep_opts *o;
	struct sweep_shared *sh;
	struct il_err *err;
	int rc;
};

static void *sweep_waker(void *arg)
{
	struct waker_args *wa = arg;
	const struct il_sweep_opts *o = wa->o;
	struct sweep_shared *sh = wa->sh;
	struct counters before, after;
	struct il_sweep_row row;

	/* the waker's sleeps end when asked, not up to 50 us later */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	if (pin(o->waker)) {
		wa->rc = il_err_set(wa->err, EINVAL, "cannot pin the waker to CPU %d", o->waker);
		return NULL;
	}
	sleep_ns(10000000);
	for (int k = 0; k < o->nintervals; k++) {
		if (atomic_load(&sh->stop) || (o->stop && *o->stop))
			break;
		if (!o->no_cpuidle &&
		    (wa->rc = read_counters(o->sysfs_root, o->wakee, &before, wa->err)))
			break;
		sh->n = 0;
		/* as the sim's waker: wake, then sleep the interval at once */
		for (int i = 0; i < o->loops && !(o->stop && *o->stop); i++) {
			sleep_ns(o->intervals_ns[k]);
			atomic_store(&sh->t_wake, il_wake_now_ns());
			atomic_fetch_add_explicit(&sh->word, 1, memory_order_release);
			futex(&sh->word, FUTEX_WAKE_PRIVATE, 1);
		}
		/* the last wake-up taken before the counters are read */
		while (!atomic_load(&sh->stop) &&
		       atomic_load_explicit(&sh->taken, memory_order_acquire) != atomic_load(&sh->word))
			sleep_ns(10000);
		if (atomic_load(&sh->stop))
			break;
		memset(&row, 0, sizeof(row));
		row.interval_ns = o->intervals_ns[k];
		row.waker = o->waker;
		row.wakee = o->wakee;
		row.loops = sh->n;
		if (o->no_cpuidle) {
			row.no_cpuidle = true;
			goto latency;
		}
		if ((wa->rc = read_counters(o->sysfs_root, o->wakee, &after, wa->err)))
			break;
		row.nstates = after.n < before.n ? after.n : before.n;
		row.no_above_below = before.no_above_below || after.no_above_below;
		/* the counters only grow: a table that changed is not one CPU's difference */
		for (int i = 0; i < row.nstates && !wa->rc; i++)
			if (after.usage[i] < before.usage[i] || after.time_us[i] < before.time_us[i] ||
			    after.above[i] < before.above[i] || after.below[i] < before.below[i] ||
			    strcmp(after.name[i], before.name[i]) || after.n != before.n)
				wa->rc = il_err_set_at(wa->err, EIO, o->sysfs_root ? o->sysfs_root :
						       IL_SYSFS_DEFAULT_ROOT, 0, "cpu%d: the idle "
						       "states' counters went down or their table "
						       "changed during the sweep", o->wakee);
		if (wa->rc)
			break;
		for (int i = 0; i < row.nstates; i++) {
			row.state_usage[i] = after.usage[i] - before.usage[i];
			snprintf(row.state_name[i], sizeof(row.state_name[i]), "%s", after.name[i]);
			row.usage += row.state_usage[i];
			row.time_us += after.time_us[i] - before.time_us[i];
			row.above += after.above[i] - before.above[i];
			row.below += after.below[i] - before.below[i];
		}
latency:
		il_wake_pct_of(sh->lat, sh->n, &row.lat);
		il_wake_pct_of(sh->slept, sh->n, &row.slept);
		if (o->row && o->row(&row, o->ctx))
			break;
	}
	return NULL;
}

bool il_sweep_no_cpuidle(const char *sysfs_root)
{
	const char *root = sysfs_root ? sysfs_root : IL_SYSFS_DEFAULT_ROOT;
	char path[4400], buf[64];
	struct stat st;
	ssize_t n;
	int fd;

	/* the CPU directory itself must be there: a wrong root is not "no cpuidle" */
	if (stat(root, &st) || !S_ISDIR(st.st_mode))
		return false;
	snprintf(path, sizeof(path), "%s/cpuidle", root);
	if (lstat(path, &st))
		return errno == ENOENT;
	/* as the sysfs reader has it: no symbolic link, one trailing newline */
	if (!S_ISDIR(st.st_mode))
		return false;
	snprintf(path, sizeof(path), "%s/cpuidle/current_driver", root);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n == 4 ? !memcmp(buf, "none", 4) : n == 5 && !memcmp(buf, "none\n", 5);
}

int il_sweep_run(const struct il_sweep_opts *o, struct il_err *err)
{
	struct sweep_shared *sh;
	struct waker_args wa = { .o = o, .err = err };
	struct counters probe;
	pthread_t wakee, waker;
	int r;

	if (o->waker == o->wakee || o->loops < 1 || o->nintervals < 1)
		return il_err_set(err, EINVAL, "sweep: the waker and the wakee must be two CPUs, "
				  "with at least one loop and one interval");
	/* a machine without readable counters is refused before any thread runs */
	if (!o->no_cpuidle && (r = read_counters(o->sysfs_root, o->wakee, &probe, err)))
		return r;
	sh = aligned_alloc(64, sizeof(*sh));
	if (!sh)
		return il_err_set(err, ENOMEM, "out of memory");
	memset(sh, 0, sizeof(*sh));
	sh->wakee_cpu = o->wakee;
	sh->lat = il_xcalloc((size_t)o->loops, sizeof(int64_t));
	sh->slept = il_xcalloc((size_t)o->loops, sizeof(int64_t));
	sh->cap = o->loops;
	wa.sh = sh;
	pthread_create(&wakee, NULL, sweep_wakee, sh);
	pthread_create(&waker, NULL, sweep_waker, &wa);
	pthread_join(waker, NULL);
	atomic_store(&sh->stop, 1);
	atomic_fetch_add(&sh->word, 1);
	futex(&sh->word, FUTEX_WAKE_PRIVATE, 1);
	pthread_join(wakee, NULL);
	r = wa.rc;
	if (!r && atomic_load(&sh->pin_failed))
		r = il_err_set(err, EINVAL, "cannot pin the wakee to CPU %d", o->wakee);
	free(sh->lat);
	free(sh->slept);
	free(sh);
	return r;
}

/* ------------------------------------------------------------------ */
/* Wake-up latency: halt and poll */

struct wake_shared {
	_Alignas(64) _Atomic int go;   /* futex word: 1 = wake up */
	_Alignas(64) _Atomic int ack;  /* wakee done with the sample */
	_Atomic int64_t t0;            /* waker's clock at the wake */
	_Atomic int stop;
	_Atomic int pin_failed;
	enum il_wake_mode mode;
	int wakee_cpu;
	int64_t *lat;
	int nlat, cap;
	int never_slept;
};

static void *wake_wakee(void *arg)
{
	struct wake_shared *sh = arg;

	if (pin(sh->wakee_cpu)) {
		atomic_store(&sh->pin_failed, 1);
		atomic_store_explicit(&sh->ack, 1, memory_order_release);
		return NULL;
	}
	for (;;) {
		bool slept = false;

		if (sh->mode == IL_WAKE_HALT) {
			while (!atomic_load_explicit(&sh->go, memory_order_acquire)) {
				if (futex(&sh->go, FUTEX_WAIT_PRIVATE, 0) == 0)
					slept = true;
			}
		} else {
			while (!atomic_load_explicit(&sh->go, memory_order_acquire))
				cpu_relax();
			slept = true;
		}
		int64_t t1 = il_wake_now_ns();
		if (atomic_load(&sh->stop))
			return NULL;
		if (slept && sh->nlat < sh->cap)
			sh->lat[sh->nlat++] = t1 - atomic_load(&sh->t0);
		else
			sh->never_slept++;
		atomic_store(&sh->go, 0);
		atomic_store_explicit(&sh->ack, 1, memory_order_release);
	}
}

struct hp_waker {
	const struct il_wake_opts *o;
	struct wake_shared *sh;
	bool pin_failed;
};

static void *hp_waker_run(void *arg)
{
	struct hp_waker *w = arg;
	const struct il_wake_opts *o = w->o;
	struct wake_shared *sh = w->sh;
	unsigned seed = 12345;

	if (pin(o->waker)) {
		w->pin_failed = true;
		return NULL;
	}
	for (int i = 0; i < o->samples && !(o->stop && *o->stop); i++) {
		/* a gap with jitter so the wake never aligns with the tick */
		int64_t gap_us = o->gap_ns / 1000;
		sleep_ns(1000 * (gap_us + rand_r(&seed) % (gap_us / 2 + 1)));
		if (atomic_load(&sh->pin_failed))
			break;
		atomic_store(&sh->t0, il_wake_now_ns());
		atomic_store_explicit(&sh->go, 1, memory_order_release);
		if (o->mode == IL_WAKE_HALT)
			futex(&sh->go, FUTEX_WAKE_PRIVATE, 1);
		while (!atomic_load_explicit(&sh->ack, memory_order_acquire))
			cpu_relax();
		atomic_store(&sh->ack, 0);
	}
	return NULL;
}

static int run_halt_poll(const struct il_wake_opts *o, struct il_wake_result *res,
			 struct il_err *err)
{
	struct wake_shared *sh = aligned_alloc(64, sizeof(*sh));
	struct hp_waker w = { .o = o };
	pthread_t th, wt;
	int r = 0;

	if (!sh)
		return il_err_set(err, ENOMEM, "out of memory");
	memset(sh, 0, sizeof(*sh));
	sh->mode = o->mode;
	sh->wakee_cpu = o->wakee;
	sh->lat = il_xcalloc((size_t)o->samples, sizeof(int64_t));
	sh->cap = o->samples;
	w.sh = sh;
	pthread_create(&th, NULL, wake_wakee, sh);
	pthread_create(&wt, NULL, hp_waker_run, &w);
	pthread_join(wt, NULL);
	atomic_store(&sh->stop, 1);
	atomic_store(&sh->go, 1);
	futex(&sh->go, FUTEX_WAKE_PRIVATE, 1);
	pthread_join(th, NULL);
	if (atomic_load(&sh->pin_failed) || w.pin_failed)
		r = il_err_set(err, EINVAL, "cannot pin the %s to CPU %d",
			       w.pin_failed ? "waker" : "wakee", w.pin_failed ? o->waker : o->wakee);
	else if (!sh->nlat && !(o->stop && *o->stop))
		r = il_err_set(err, EAGAIN, "no samples (the wakee never slept)");
	il_wake_pct_of(sh->lat, sh->nlat, &res->lat);
	res->dropped = sh->never_slept;
	free(sh->lat);
	free(sh);
	return r;
}

/* ------------------------------------------------------------------ */
/* Wake-up latency: pingpong */

struct pp_side {
	_Alignas(64) _Atomic int word;  /* futex word: bumped to wake this side */
	_Atomic int64_t t0;             /* the other side's clock at the wake */
	int cpu;
	int64_t *lat;
	int nlat, never_slept, done;
	struct pp_side *other;
	int rounds;
	bool starts;                    /* hands over the first token */
	bool pin_failed;
	_Atomic int *stop;
	volatile int *user_stop;
};

static void *pp_run(void *arg)
{
	struct pp_side *me = arg;
	int seen = 0;

	if (pin(me->cpu)) {
		me->pin_failed = true;
		atomic_store(me->stop, 1);
		atomic_fetch_add(&me->other->word, 1);
		futex(&me->other->word, FUTEX_WAKE_PRIVATE, 1);
		return NULL;
	}
	for (int i = 0; i < me->rounds; i++) {
		if (me->user_stop && *me->user_stop)
			break;
		if (i > 0 || me->starts) {
			/* hand the token over */
			atomic_store(&me->other->t0, il_wake_now_ns());
			atomic_fetch_add_explicit(&me->other->word, 1, memory_order_release);
			futex(&me->other->word, FUTEX_WAKE_PRIVATE, 1);
		}
		bool slept = false;
		while (atomic_load_explicit(&me->word, memory_order_acquire) == seen) {
			if (atomic_load(me->stop))
				return NULL;
			if (futex(&me->word, FUTEX_WAIT_PRIVATE, seen) == 0)
				slept = true;
		}
		int64_t t1 = il_wake_now_ns();
		seen = atomic_load(&me->word);
		if (atomic_load(me->stop))
			return NULL;
		if (slept)
			me->lat[me->nlat++] = t1 - atomic_load(&me->t0);
		else
			me->never_slept++;
		me->done++;
	}
	atomic_store(me->stop, 1);
	atomic_fetch_add(&me->other->word, 1);
	futex(&me->other->word, FUTEX_WAKE_PRIVATE, 1);
	return NULL;
}

static int run_pingpong(const struct il_wake_opts *o, struct il_wake_result *res,
			struct il_err *err)
{
	struct pp_side *a = aligned_alloc(64, sizeof(*a)), *b = aligned_alloc(64, sizeof(*b));
	_Atomic int stop = 0;
	pthread_t ta, tb;
	int64_t t0, el;
	int r = 0;

	if (!a || !b) {
		free(a);
		free(b);
		return il_err_set(err, ENOMEM, "out of memory");
	}
	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
	a->cpu = o->waker;
	b->cpu = o->wakee;
	a->other = b;
	b->other = a;
	a->rounds = b->rounds = o->samples;
	a->starts = true;
	a->stop = b->stop = &stop;
	a->user_stop = b->user_stop = o->stop;
	a->lat = il_xcalloc((size_t)o->samples, sizeof(int64_t));
	b->lat = il_xcalloc((size_t)o->samples, sizeof(int64_t));
	/* b starts blocked, a hands it the first token */
	pthread_create(&tb, NULL, pp_run, b);
	sleep_ns(10000000);
	t0 = il_wake_now_ns();
	pthread_create(&ta, NULL, pp_run, a);
	pthread_join(ta, NULL);
	el = il_wake_now_ns() - t0;
	pthread_join(tb, NULL);
	if (a->pin_failed || b->pin_failed)
		r = il_err_set(err, EINVAL, "cannot pin to CPU %d", a->pin_failed ? a->cpu : b->cpu);
	res->round_trips = a->done;
	res->elapsed_ns = el;
	res->round_trips_per_s = el > 0 ? (double)a->done / ((double)el * 1e-9) : 0;
	res->switches_per_s = 2 * res->round_trips_per_s;
	il_wake_pct_of(b->lat, b->nlat, &res->lat);
	res->dropped = b->never_slept;
	il_wake_pct_of(a->lat, a->nlat, &res->back);
	res->back_dropped = a->never_slept;
	free(a->lat);
	free(b->lat);
	free(a);
	free(b);
	return r;
}

int il_wake_run(const struct il_wake_opts *o, struct il_wake_result *r, struct il_err *err)
{
	memset(r, 0, sizeof(*r));
	r->load1 = il_wake_load1();
	if (o->waker == o->wakee || o->samples < 1 || (o->mode != IL_WAKE_PINGPONG && o->gap_ns < 1000))
		return il_err_set(err, EINVAL, "latency: two CPUs, at least one sample and a gap of "
				  "1 us or more");
	return o->mode == IL_WAKE_PINGPONG ? run_pingpong(o, r, err) : run_halt_poll(o, r, err);
}
