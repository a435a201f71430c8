// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running a governor that is not built in inside a child process: the
 * memory the child and its parent share to say where the governor was
 * when it crashed or looped, the child's signal set-up and CPU-time
 * watchdog, and the parent's account of how the child ended.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "idlelab/governor.h"

struct il_gov_watch *il_gov_watch;

struct il_gov_watch *il_gov_watch_map(void)
{
	void *p = mmap(NULL, sizeof(struct il_gov_watch), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void il_gov_watch_unmap(struct il_gov_watch *w)
{
	if (w)
		munmap(w, sizeof(*w));
}

/* the calls count at the last tick of the CPU-time timer, and whether a call was running then */
static volatile sig_atomic_t tick_armed;
static volatile uint64_t tick_calls;

/*
 * SIGPROF every limit of CPU time: a call that was running at the last
 * tick and still is, with no call returned since, has run at least one
 * period. Only reads and writes of the shared words and kill (all
 * async-signal-safe).
 */
static void on_prof(int sig)
{
	struct il_gov_watch *w = il_gov_watch;

	(void)sig;
	if (!w || !w->in_call) {
		tick_armed = 0;
		return;
	}
	if (tick_armed && w->calls == tick_calls) {
		w->looped = 1;
		kill(getpid(), SIGKILL);
	}
	tick_calls = w->calls;
	tick_armed = 1;
}

static long limit_ms_of(long limit_ms)
{
	const char *e = getenv("IDLELAB_GOV_CALL_LIMIT_MS");

	if (limit_ms > 0)
		return limit_ms;
	if (e && *e) {
		char *end;
		long v = strtol(e, &end, 10);
		if (!*end && v > 0 && v <= 3600000)
			return v;
	}
	return IL_GOV_CALL_LIMIT_MS;
}

void il_gov_watch_child(struct il_gov_watch *w, long limit_ms)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS };
	struct rlimit nocore = { 0, 0 };
	struct sigaction sa;

	il_gov_watch = w;
	setrlimit(RLIMIT_CORE, &nocore);
	/* the default action, over any handler (a sanitizer's): waitpid then names the signal */
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		signal(fatal[i], SIG_DFL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_prof;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPROF, &sa, NULL);
	long ms = limit_ms_of(limit_ms);
	struct itimerval it = {
		.it_interval = { ms / 1000, (ms % 1000) * 1000 },
		.it_value = { ms / 1000, (ms % 1000) * 1000 },
	};
	setitimer(ITIMER_PROF, &it, NULL);
}

static const char *call_name(int in_call)
{
	switch (in_call) {
	case IL_GOV_IN_SELECT: return "select";
	case IL_GOV_IN_REFLECT: return "reflect";
	case IL_GOV_IN_ENABLE: return "enable";
	case IL_GOV_IN_LOAD: return "load";
	default: return "?";
	}
}

int il_gov_watch_verdict(const struct il_gov_watch *w, int status, const char *name,
			 char *buf, size_t size)
{
	char where[160];

	if (size)
		buf[0] = '\0';
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	const char *sname = sig ? sigabbrev_np(sig) : NULL;
	if (w->in_call == IL_GOV_IN_LOAD) {
		if (w->looped)
			snprintf(buf, size, "governor %s looped while loading or unloading: ran past "
				 "%ld ms of CPU time", name, limit_ms_of(0));
		else
			snprintf(buf, size, "governor %s crashed (SIG%s) while loading or unloading",
				 name, sname ? sname : "?");
		return -1;
	}
	if (w->in_call == IL_GOV_IN_ENABLE)
		snprintf(where, sizeof(where), "in enable on cpu%d", w->cpu);
	else if (w->in_call)
		snprintf(where, sizeof(where), "in %s on cpu%d at simulated time %.6f ms",
			 call_name(w->in_call), w->cpu, (double)w->clock_ns * 1e-6);
	else
		snprintf(where, sizeof(where), "outside the governor, after %llu calls",
			 (unsigned long long)w->calls);
	if (w->looped)
		snprintf(buf, size, "governor %s looped: a %s call on cpu%d at simulated time "
			 "%.6f ms ran past %ld ms of CPU time", name, call_name(w->in_call), w->cpu,
			 (double)w->clock_ns * 1e-6, limit_ms_of(0));
	else
		snprintf(buf, size, "governor %s crashed (SIG%s) %s", name, sname ? sname : "?",
			 where);
	return -1;
}
