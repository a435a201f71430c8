// SPDX-License-Identifier: GPL-2.0-only
/*
 * Platform files (docs/platform-format.md), parsed with inih.
 *
 * inih calls a handler per "key = value"; a line-counting reader around
 * ini_parse_stream() lets every message name the line it is about, and
 * section header lines are remembered for "missing field" messages.
 */
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "idlelab/platform.h"
#include "idlelab/release.h"
#include "util.h"

#define LINE_MAX_LEN 200 /* inih's INI_MAX_LINE, newline and NUL included */

/* State fields seen, to report missing ones. */
#define SEEN_NAME (1u << 0)
#define SEEN_LATENCY (1u << 1)
#define SEEN_RESIDENCY (1u << 2)
#define SEEN_DESC (1u << 3)
#define CST_SEEN_TYPE (1u << 0)
#define CST_SEEN_LATENCY (1u << 1)
#define CST_SEEN_METHOD (1u << 2)

struct parse_ctx {
	struct il_platform *p;
	struct il_err *err;
	const char *fname;
	/* reader */
	const char *text;
	size_t len, pos;
	int line;
	int header_line;  /* line of the last [section] header read */
	bool line_too_long;
	/* sections */
	char section[64];
	int section_line[IL_STATE_MAX];
	unsigned state_seen[IL_STATE_MAX];
	bool state_present[IL_STATE_MAX];
	int cst_line[IL_PLAT_CST_MAX];
	unsigned cst_seen[IL_PLAT_CST_MAX];
	bool cst_present[IL_PLAT_CST_MAX];
	bool turbo_given[IL_PLAT_TURBO_MAX];
	bool seen_name, seen_topology;
	int first_error;
};

/* ini_reader over a memory buffer that counts lines and spots overlong ones. */
static char *reader(char *str, int num, void *stream)
{
	struct parse_ctx *c = stream;
	size_t i = 0;

	if (c->pos >= c->len)
		return NULL;
	c->line++;
	while (c->pos < c->len && i + 1 < (size_t)num) {
		char ch = c->text[c->pos++];
		if (ch == '\0')
			ch = ' '; /* embedded NULs would cut the line short */
		str[i++] = ch;
		if (ch == '\n')
			break;
	}
	str[i] = '\0';
	if (i && str[i - 1] != '\n' && c->pos < c->len) {
		/* overlong: drop the rest of the line and say so */
		c->line_too_long = true;
		while (c->pos < c->len && c->text[c->pos++] != '\n')
			;
		str[0] = '\0';
	}
	const char *t = str;
	while (*t == ' ' || *t == '\t')
		t++;
	if (*t == '[')
		c->header_line = c->line;
	return str;
}

static int fail(struct parse_ctx *c, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct parse_ctx *c, int line, const char *fmt, ...)
{
	if (!c->first_error) {
		va_list ap;
		char msg[IL_ERR_MSG_MAX];

		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		il_err_set_at(c->err, EINVAL, c->fname, line, "%s", msg);
		c->first_error = line ? line : 1;
	}
	return 0; /* inih: error on this line */
}

static int get_int(struct parse_ctx *c, const char *key, const char *v, int min, int max,
		   int *out)
{
	int x = 0;
	if (il_parse_int(v, &x))
		return fail(c, c->line, "%s: '%s' is not an integer", key, v);
	if (x < min || x > max)
		return fail(c, c->line, "%s: %d is out of range [%d, %d]", key, x, min, max);
	*out = x;
	return 1;
}

static int get_uint(struct parse_ctx *c, const char *key, const char *v, unsigned *out)
{
	uint64_t x = 0;
	if (v[0] == '-')
		return fail(c, c->line, "%s: negative value '%s'", key, v);
	if (il_parse_u64(v, &x) || x > 0xffffffffu)
		return fail(c, c->line, "%s: '%s' is not a non-negative 32-bit integer", key, v);
	*out = (unsigned)x;
	return 1;
}

static int get_double(struct parse_ctx *c, const char *key, const char *v, double *out,
		      bool allow_negative)
{
	double x = 0;
	if (il_parse_double(v, &x))
		return fail(c, c->line, "%s: '%s' is not a number", key, v);
	if (!allow_negative && x < 0)
		return fail(c, c->line, "%s: negative value '%s'", key, v);
	*out = x;
	return 1;
}

static int get_bool(struct parse_ctx *c, const char *key, const char *v, bool *out)
{
	if (il_parse_bool(v, out))
		return fail(c, c->line, "%s: '%s' is not yes/no", key, v);
	return 1;
}

static int get_dist(struct parse_ctx *c, const char *key, const char *v, struct il_dist *d)
{
	struct il_err e;
	if (il_dist_parse(v, d, &e))
		return fail(c, c->line, "%s: %s", key, e.msg);
	return 1;
}

static int get_str(struct parse_ctx *c, const char *key, const char *v, char *out, size_t size)
{
	if (strlen(v) >= size)
		return fail(c, c->line, "%s: value longer than %zu characters", key, size - 1);
	snprintf(out, size, "%s", v);
	return 1;
}

static int unknown(struct parse_ctx *c, const char *section, const char *key)
{
	return fail(c, c->line, "unknown key '%s' in [%s]", key, section);
}

static int h_platform(struct parse_ctx *c, const char *k, const char *v)
{
	struct il_platform *p = c->p;

	if (!strcmp(k, "name")) {
		for (const char *s = v; *s; s++)
			if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' && *s != '.')
				return fail(c, c->line, "name: '%s' may hold only letters, digits, '-', '_', '.'", v);
		if (!*v)
			return fail(c, c->line, "name: empty");
		c->seen_name = true;
		return get_str(c, k, v, p->name, sizeof(p->name));
	}
	if (!strcmp(k, "description"))
		return get_str(c, k, v, p->description, sizeof(p->description));
	if (!strcmp(k, "source")) {
		if (p->nsources == IL_PLAT_SOURCES_MAX)
			return fail(c, c->line, "more than %d source lines", IL_PLAT_SOURCES_MAX);
		return get_str(c, k, v, p->sources[p->nsources++], sizeof(p->sources[0]));
	}
	return unknown(c, "platform", k);
}

static int h_topology(struct parse_ctx *c, const char *k, const char *v)
{
	struct il_platform *p = c->p;

	c->seen_topology = true;
	if (!strcmp(k, "packages"))
		return get_int(c, k, v, 1, 64, &p->packages);
	if (!strcmp(k, "cores_per_package"))
		return get_int(c, k, v, 1, 1024, &p->cores_per_package);
	if (!strcmp(k, "threads_per_core"))
		return get_int(c, k, v, 1, 8, &p->threads_per_core);
	return unknown(c, "topology", k);
}

static int h_cpu(struct parse_ctx *c, const char *k, const char *v)
{
	struct il_platform *p = c->p;

	if (!strcmp(k, "arch")) {
		if (!strcasecmp(v, "x86") || !strcasecmp(v, "x86_64"))
			p->arch = IL_ARCH_X86;
		else if (!strcasecmp(v, "powerpc") || !strcasecmp(v, "ppc64le"))
			p->arch = IL_ARCH_POWERPC;
		else if (!strcasecmp(v, "arm64") || !strcasecmp(v, "aarch64"))
			p->arch = IL_ARCH_ARM64;
		else
			return fail(c, c->line, "arch: unknown '%s' (x86, powerpc, arm64)", v);
		return 1;
	}
	if (!strcmp(k, "vendor")) {
		static const struct { const char *n; enum il_vendor v; } vs[] = {
			{ "intel", IL_VENDOR_INTEL }, { "amd", IL_VENDOR_AMD },
			{ "hygon", IL_VENDOR_HYGON }, { "ibm", IL_VENDOR_IBM },
			{ "other", IL_VENDOR_OTHER },
		};
		for (size_t i = 0; i < sizeof(vs) / sizeof(vs[0]); i++)
			if (!strcasecmp(v, vs[i].n)) {
				p->vendor = vs[i].v;
				return 1;
			}
		return fail(c, c->line, "vendor: unknown '%s' (intel, amd, hygon, ibm, other)", v);
	}
	if (!strcmp(k, "family"))
		return get_int(c, k, v, 0, 0xfff, &p->family);
	if (!strcmp(k, "model"))
		return get_int(c, k, v, 0, 0xfff, &p->model);
	if (!strcmp(k, "stepping"))
		return get_int(c, k, v, 0, 0xff, &p->stepping);
	if (!strcmp(k, "model_name"))
		return get_str(c, k, v, p->model_name, sizeof(p->model_name));
	if (!strcmp(k, "hypervisor")) {
		bool b;
		if (!il_parse_bool(v, &b)) {
			p->hypervisor = b;
			return 1;
		}
		p->hypervisor = true;
		return get_str(c, k, v, p->hypervisor_name, sizeof(p->hypervisor_name));
	}
	if (!strcmp(k, "kvm_hints_realtime"))
		return get_bool(c, k, v, &p->kvm_hints_realtime);
	if (!strcmp(k, "tdx_guest"))
		return get_bool(c, k, v, &p->tdx_guest);
	if (!strcmp(k, "mwait"))
		return get_bool(c, k, v, &p->mwait);
	if (!strcmp(k, "cpuid5_ecx"))
		return get_uint(c, k, v, &p->cpuid5_ecx);
	if (!strcmp(k, "cpuid5_edx"))
		return get_uint(c, k, v, &p->cpuid5_edx);
	if (!strcmp(k, "arat"))
		return get_bool(c, k, v, &p->arat);
	if (!strcmp(k, "nonstop_tsc"))
		return get_bool(c, k, v, &p->nonstop_tsc);
	if (!strcmp(k, "bug_monitor"))
		return get_bool(c, k, v, &p->bug_monitor);
	if (!strcmp(k, "bug_amd_apic_c1e"))
		return get_bool(c, k, v, &p->bug_amd_apic_c1e);
	if (!strcmp(k, "pkg_cst_config"))
		return get_uint(c, k, v, &p->pkg_cst_config);
	if (!strcmp(k, "sgx_enabled"))
		return get_bool(c, k, v, &p->sgx_enabled);
	if (!strcmp(k, "shared_processor"))
		return get_bool(c, k, v, &p->shared_processor);
	if (!strcmp(k, "base_mhz"))
		return get_double(c, k, v, &p->base_mhz, false);
	if (!strcmp(k, "tb_mhz"))
		return get_double(c, k, v, &p->tb_mhz, false);
	if (!strcmp(k, "xcede_latency_us")) {
		/* space-separated list of extended CEDE record latencies */
		char buf[LINE_MAX_LEN];
		snprintf(buf, sizeof(buf), "%s", v);
		p->nxcede = 0;
		for (char *save, *t = strtok_r(buf, " ,", &save); t; t = strtok_r(NULL, " ,", &save)) {
			if (p->nxcede == 16)
				return fail(c, c->line, "xcede_latency_us: more than 16 records");
			if (!get_uint(c, k, t, &p->xcede_latency_us[p->nxcede]))
				return 0;
			p->nxcede++;
		}
		return 1;
	}
	if (!strcmp(k, "xcede_latency_ticks")) {
		/* extended CEDE record latencies in timebase ticks, as RTAS reports them */
		char buf[LINE_MAX_LEN];
		snprintf(buf, sizeof(buf), "%s", v);
		p->nxcede_ticks = 0;
		for (char *save, *t = strtok_r(buf, " ,", &save); t; t = strtok_r(NULL, " ,", &save)) {
			if (p->nxcede_ticks == 16)
				return fail(c, c->line, "xcede_latency_ticks: more than 16 records");
			if (t[0] == '-' || il_parse_u64(t, &p->xcede_latency_ticks[p->nxcede_ticks]))
				return fail(c, c->line, "xcede_latency_ticks: '%s' is not a tick count", t);
			p->nxcede_ticks++;
		}
		return 1;
	}
	if (!strcmp(k, "xcede_record_size"))
		return get_int(c, k, v, 1, 256, &p->xcede_record_size);
	return unknown(c, "cpu", k);
}

static int h_kernel(struct parse_ctx *c, const char *k, const char *v)
{
	struct il_platform *p = c->p;

	if (!strcmp(k, "hz")) {
		int hz = 0;
		if (!get_int(c, k, v, 1, 100000, &hz))
			return 0;
		if (hz != 100 && hz != 250 && hz != 300 && hz != 1000)
			return fail(c, c->line, "hz: %d is not a kernel HZ (100, 250, 300, 1000)", hz);
		p->hz = (unsigned)hz;
		return 1;
	}
	if (!strcmp(k, "switch_ns")) {
		int64_t ns;
		if (il_parse_duration_ns(v, &ns) || ns <= 0 || ns > 1000000000)
			return fail(c, c->line, "switch_ns: '%s' is not a duration in (0, 1s]", v);
		p->switch_ns = ns;
		return 1;
	}
	if (!strcmp(k, "release")) {
		struct il_err e;
		if (il_release_check(v, &e))
			return fail(c, c->line, "release: %s", e.msg);
		return get_str(c, k, v, p->release, sizeof(p->release));
	}
	if (!strcmp(k, "option")) {
		char buf[LINE_MAX_LEN];
		snprintf(buf, sizeof(buf), "%s", v);
		char *eq = strchr(buf, '=');
		if (eq)
			*eq++ = '\0';
		struct il_err e;
		if (il_platform_set_option(p, il_strtrim(buf), eq ? il_strtrim(eq) : "", &e))
			return fail(c, c->line, "option: %s", e.msg);
		return 1;
	}
	return unknown(c, "kernel", k);
}

static int h_firmware(struct parse_ctx *c, const char *k, const char *v)
{
	struct il_platform *p = c->p;

	if (!strcmp(k, "driver"))
		return get_str(c, k, v, p->driver, sizeof(p->driver));
	if (!strcmp(k, "cst"))
		return get_bool(c, k, v, &p->has_cst);
	if (!strcmp(k, "cst_claim"))
		return get_bool(c, k, v, &p->cst_claim_ok);
	if (!strcmp(k, "c_states_disabled"))
		return get_bool(c, k, v, &p->c_states_disabled);
	if (!strcmp(k, "pm_timer_read"))
		return get_dist(c, k, v, &p->pm_timer_read);
	if (!strcmp(k, "hlt_exit"))
		return get_dist(c, k, v, &p->hlt_exit);
	if (!strcmp(k, "mwait_exit"))
		return get_dist(c, k, v, &p->mwait_exit);
	if (!strcmp(k, "poll_exit"))
		return get_dist(c, k, v, &p->poll_exit);
	if (!strcmp(k, "pblk"))
		return get_uint(c, k, v, &p->pblk);
	if (!strcmp(k, "fadt_c2_latency"))
		return get_uint(c, k, v, &p->fadt_c2_latency);
	if (!strcmp(k, "fadt_c3_latency"))
		return get_uint(c, k, v, &p->fadt_c3_latency);
	if (!strcmp(k, "fadt_c2_mp"))
		return get_bool(c, k, v, &p->fadt_c2_mp);
	if (!strcmp(k, "fadt_wbinvd"))
		return get_bool(c, k, v, &p->fadt_wbinvd);
	if (!strcmp(k, "pm2_control"))
		return get_bool(c, k, v, &p->pm2_control);
	if (!strncmp(k, "exit.", 5)) {
		/* "exit.NAME = dist": the real wake-up latency of the state the driver names NAME */
		const char *name = k + 5;
		int i;
		if (!*name)
			return fail(c, c->line, "exit.: missing state name");
		if (strlen(name) >= IL_NAME_LEN)
			return fail(c, c->line, "%s: state name longer than %d characters", k,
				    IL_NAME_LEN - 1);
		for (i = 0; i < p->nstate_exit; i++)
			if (!strcmp(p->state_exit[i].name, name))
				break;
		if (i == p->nstate_exit) {
			if (p->nstate_exit == IL_STATE_MAX)
				return fail(c, c->line, "more than %d exit.NAME keys", IL_STATE_MAX);
			snprintf(p->state_exit[i].name, sizeof(p->state_exit[i].name), "%s", name);
			p->nstate_exit++;
		}
		return get_dist(c, k, v, &p->state_exit[i].dist);
	}
	if (!strncmp(k, "power.", 6) || !strncmp(k, "transition.", 11)) {
		/*
		 * "power.NAME = W", "transition.NAME = J": the power model of the
		 * driver-derived state NAME (what power_w / transition_j are for an
		 * explicit [state.N]); machine.c applies them to the built table.
		 */
		bool is_power = k[0] == 'p';
		const char *name = k + (is_power ? 6 : 11);
		int i;
		if (!*name)
			return fail(c, c->line, "%s: missing state name", k);
		if (strlen(name) >= IL_NAME_LEN)
			return fail(c, c->line, "%s: state name longer than %d characters", k,
				    IL_NAME_LEN - 1);
		for (i = 0; i < p->nstate_power; i++)
			if (!strcmp(p->state_power[i].name, name))
				break;
		if (i == p->nstate_power) {
			if (p->nstate_power == IL_STATE_MAX)
				return fail(c, c->line, "power/transition keys for more than %d states",
					    IL_STATE_MAX);
			snprintf(p->state_power[i].name, sizeof(p->state_power[i].name), "%s", name);
			p->state_power[i].power_w = -1;
			p->state_power[i].transition_j = -1;
			p->nstate_power++;
		}
		return get_double(c, k, v, is_power ? &p->state_power[i].power_w
						     : &p->state_power[i].transition_j, false);
	}
	return unknown(c, "firmware", k);
}

static int h_state(struct parse_ctx *c, int idx, const char *k, const char *v)
{
	struct il_state *s = &c->p->table.states[idx];
	int64_t ns = 0;

	if (!strcmp(k, "name")) {
		if (!*v)
			return fail(c, c->line, "name: empty");
		c->state_seen[idx] |= SEEN_NAME;
		return get_str(c, k, v, s->name, sizeof(s->name));
	}
	if (!strcmp(k, "desc")) {
		c->state_seen[idx] |= SEEN_DESC;
		return get_str(c, k, v, s->desc, sizeof(s->desc));
	}
	if (!strcmp(k, "latency") || !strcmp(k, "residency")) {
		bool lat = k[0] == 'l';
		unsigned us = 0;
		if (!get_uint(c, k, v, &us))
			return 0;
		if (lat) {
			s->exit_latency = us;
			s->exit_latency_ns = (int64_t)us * 1000;
		} else {
			s->target_residency = us;
			s->target_residency_ns = (int64_t)us * 1000;
		}
		c->state_seen[idx] |= lat ? SEEN_LATENCY : SEEN_RESIDENCY;
		return 1;
	}
	if (!strcmp(k, "latency_ns") || !strcmp(k, "residency_ns")) {
		bool lat = k[0] == 'l';
		if (il_parse_i64(v, &ns))
			return fail(c, c->line, "%s: '%s' is not an integer", k, v);
		if (ns < 0)
			return fail(c, c->line, "%s: negative value '%s'", k, v);
		if (lat) {
			s->exit_latency = 0;
			s->exit_latency_ns = ns;
		} else {
			s->target_residency = 0;
			s->target_residency_ns = ns;
		}
		c->state_seen[idx] |= lat ? SEEN_LATENCY : SEEN_RESIDENCY;
		return 1;
	}
	if (!strcmp(k, "power"))
		return get_int(c, k, v, -1, 1000000, &s->power_usage);
	if (!strcmp(k, "flags")) {
		struct il_err e;
		if (il_state_flags_parse(v, &s->flags, &e))
			return fail(c, c->line, "flags: %s", e.msg);
		return 1;
	}
	if (!strcmp(k, "entry")) {
		if (il_entry_method_parse(v, &s->entry))
			return fail(c, c->line, "entry: unknown method '%s' (poll, hlt, mwait, ioport, cede, tdx-halt)", v);
		return 1;
	}
	if (!strcmp(k, "mwait_hint"))
		return get_uint(c, k, v, &s->mwait_hint);
	if (!strcmp(k, "io_port"))
		return get_uint(c, k, v, &s->io_port);
	if (!strcmp(k, "s2idle"))
		return get_bool(c, k, v, &s->has_s2idle);
	if (!strcmp(k, "exit_latency_dist"))
		return get_dist(c, k, v, &s->exit_dist);
	if (!strcmp(k, "exit_path_cost"))
		return get_dist(c, k, v, &s->exit_path_cost);
	if (!strcmp(k, "power_w"))
		return get_double(c, k, v, &s->power_w, false);
	if (!strcmp(k, "transition_j"))
		return get_double(c, k, v, &s->transition_j, false);
	return fail(c, c->line, "unknown key '%s' in [state.%d]", k, idx);
}

static int h_cst(struct parse_ctx *c, int idx, const char *k, const char *v)
{
	struct il_cst_entry *e = &c->p->cst[idx];

	if (!strcmp(k, "type")) {
		if (!strcasecmp(v, "C1") || !strcmp(v, "1"))
			e->type = 1;
		else if (!strcasecmp(v, "C2") || !strcmp(v, "2"))
			e->type = 2;
		else if (!strcasecmp(v, "C3") || !strcmp(v, "3"))
			e->type = 3;
		else
			return fail(c, c->line, "type: '%s' is not an ACPI C-state type (C1, C2, C3)", v);
		c->cst_seen[idx] |= CST_SEEN_TYPE;
		return 1;
	}
	if (!strcmp(k, "latency")) {
		c->cst_seen[idx] |= CST_SEEN_LATENCY;
		return get_uint(c, k, v, &e->latency_us);
	}
	if (!strcmp(k, "power"))
		return get_uint(c, k, v, &e->power_mw);
	if (!strcmp(k, "method")) {
		if (!strcasecmp(v, "ffh"))
			e->method = IL_CST_FFH;
		else if (!strcasecmp(v, "halt"))
			e->method = IL_CST_HALT;
		else if (!strcasecmp(v, "systemio"))
			e->method = IL_CST_SYSTEMIO;
		else
			return fail(c, c->line, "method: '%s' is not ffh, halt or systemio", v);
		c->cst_seen[idx] |= CST_SEEN_METHOD;
		return 1;
	}
	if (!strcmp(k, "address"))
		return get_uint(c, k, v, &e->address);
	return fail(c, c->line, "unknown key '%s' in [cst.%d]", k, idx + 1);
}

static int h_turbo(struct parse_ctx *c, const char *k, const char *v)
{
	struct il_platform *p = c->p;
	int n = 0;

	/* "<active cores> = <MHz>" */
	if (il_parse_int(k, &n) || n < 1 || n > IL_PLAT_TURBO_MAX)
		return fail(c, c->line, "[turbo] keys are active-core counts 1..%d, not '%s'",
			    IL_PLAT_TURBO_MAX, k);
	if (!get_double(c, k, v, &p->turbo_mhz[n - 1], false))
		return 0;
	c->turbo_given[n - 1] = true;
	if (n > p->nturbo)
		p->nturbo = n;
	return 1;
}

static int h_power(struct parse_ctx *c, const char *k, const char *v)
{
	struct il_platform *p = c->p;

	if (!strcmp(k, "active_w_per_ghz"))
		return get_double(c, k, v, &p->active_w_per_ghz, false);
	if (!strcmp(k, "active_static_w"))
		return get_double(c, k, v, &p->active_static_w, false);
	if (!strcmp(k, "package_w"))
		return get_double(c, k, v, &p->package_w, false);
	return unknown(c, "power", k);
}

static int h_ipi(struct parse_ctx *c, const char *k, const char *v)
{
	if (!strcmp(k, "send"))
		return get_dist(c, k, v, &c->p->ipi_send);
	if (!strcmp(k, "delivery"))
		return get_dist(c, k, v, &c->p->ipi_delivery);
	return unknown(c, "ipi", k);
}

/* Parse "state.N" / "cst.N" section names; -1 if not that prefix. */
static int section_index(const char *section, const char *prefix, int *idx)
{
	size_t l = strlen(prefix);
	if (strncmp(section, prefix, l) || section[l] != '.')
		return -1;
	if (il_parse_int(section + l + 1, idx) || !isdigit((unsigned char)section[l + 1]))
		return -2;
	return 0;
}

static int handler(void *user, const char *section, const char *key, const char *value)
{
	struct parse_ctx *c = user;
	int idx = 0, r;

	if (c->line_too_long) {
		c->line_too_long = false;
		return fail(c, c->line, "line longer than %d characters", LINE_MAX_LEN - 3);
	}
	if (strcmp(section, c->section))
		snprintf(c->section, sizeof(c->section), "%s", section);

	if (!*section)
		return fail(c, c->line, "key '%s' outside any section", key);
	if (!strcmp(section, "platform"))
		return h_platform(c, key, value);
	if (!strcmp(section, "topology"))
		return h_topology(c, key, value);
	if (!strcmp(section, "cpu"))
		return h_cpu(c, key, value);
	if (!strcmp(section, "kernel"))
		return h_kernel(c, key, value);
	if (!strcmp(section, "firmware"))
		return h_firmware(c, key, value);
	if (!strcmp(section, "turbo"))
		return h_turbo(c, key, value);
	if (!strcmp(section, "power"))
		return h_power(c, key, value);
	if (!strcmp(section, "ipi"))
		return h_ipi(c, key, value);
	if (!strcmp(section, "driver")) {
		if (!strcmp(key, "name"))
			return get_str(c, key, value, c->p->table.name, sizeof(c->p->table.name));
		if (!strcmp(key, "governor"))
			return get_str(c, key, value, c->p->table.governor, sizeof(c->p->table.governor));
		return unknown(c, "driver", key);
	}
	if ((r = section_index(section, "state", &idx)) != -1) {
		if (r < 0 || idx < 0)
			return fail(c, c->line, "bad state section [%s] (want [state.N])", section);
		if (idx >= IL_STATE_MAX)
			return fail(c, c->line, "more than %d states ([%s])", IL_STATE_MAX, section);
		if (!c->state_present[idx]) {
			c->state_present[idx] = true;
			c->section_line[idx] = c->header_line;
			c->p->table.states[idx].power_w = -1;
			c->p->table.states[idx].transition_j = -1;
		}
		c->p->has_table = true;
		return h_state(c, idx, key, value);
	}
	if ((r = section_index(section, "cst", &idx)) != -1) {
		if (r < 0 || idx < 1 || idx > IL_PLAT_CST_MAX)
			return fail(c, c->line, "bad _CST section [%s] (want [cst.1] .. [cst.%d])",
				    section, IL_PLAT_CST_MAX);
		idx--;
		if (!c->cst_present[idx]) {
			c->cst_present[idx] = true;
			c->cst_line[idx] = c->header_line;
			c->p->cst[idx].line = c->header_line;
		}
		c->p->has_cst = true;
		return h_cst(c, idx, key, value);
	}
	return fail(c, c->line, "unknown section [%s]", section);
}

static void defaults(struct il_platform *p)
{
	memset(p, 0, sizeof(*p));
	p->packages = 1;
	p->cores_per_package = 1;
	p->threads_per_core = 1;
	p->hz = 1000;
	p->arat = true;
	p->nonstop_tsc = true;
	p->cst_claim_ok = true;
	p->fadt_wbinvd = true;
	p->table.safe_state_index = 0;
}

/* Checks that need the whole file. */
static int finish(struct parse_ctx *c)
{
	struct il_platform *p = c->p;

	if (!c->seen_name)
		return il_err_set_at(c->err, EINVAL, c->fname, 0, "missing [platform] name");
	if (p->has_table) {
		int n = 0;
		while (n < IL_STATE_MAX && c->state_present[n])
			n++;
		for (int i = n; i < IL_STATE_MAX; i++)
			if (c->state_present[i])
				return il_err_set_at(c->err, EINVAL, c->fname, c->section_line[i],
						     "[state.%d] without [state.%d]", i, n);
		for (int i = 0; i < n; i++) {
			static const struct { unsigned bit; const char *what; } need[] = {
				{ SEEN_NAME, "name" }, { SEEN_LATENCY, "latency" },
				{ SEEN_RESIDENCY, "residency" },
			};
			for (size_t k = 0; k < sizeof(need) / sizeof(need[0]); k++)
				if (!(c->state_seen[i] & need[k].bit))
					return il_err_set_at(c->err, EINVAL, c->fname,
							     c->section_line[i],
							     "[state.%d] has no %s", i, need[k].what);
			for (int j = 0; j < i; j++)
				if (!strcmp(p->table.states[i].name, p->table.states[j].name))
					return il_err_set_at(c->err, EINVAL, c->fname,
							     c->section_line[i],
							     "duplicate state name '%s' (also [state.%d])",
							     p->table.states[i].name, j);
			if (p->table.states[i].entry == IL_ENTRY_NONE)
				p->table.states[i].entry = (p->table.states[i].flags & IL_FLAG_POLLING)
								   ? IL_ENTRY_POLL : IL_ENTRY_HLT;
		}
		p->table.state_count = n;
		il_driver_init(&p->table);
	}
	if (p->has_cst) {
		int n = 0;
		while (n < IL_PLAT_CST_MAX && c->cst_present[n])
			n++;
		for (int i = n; i < IL_PLAT_CST_MAX; i++)
			if (c->cst_present[i])
				return il_err_set_at(c->err, EINVAL, c->fname, c->cst_line[i],
						     "[cst.%d] without [cst.%d]", i + 1, n + 1);
		for (int i = 0; i < n; i++) {
			if (!(c->cst_seen[i] & CST_SEEN_TYPE))
				return il_err_set_at(c->err, EINVAL, c->fname, c->cst_line[i],
						     "[cst.%d] has no type", i + 1);
			if (!(c->cst_seen[i] & CST_SEEN_LATENCY))
				return il_err_set_at(c->err, EINVAL, c->fname, c->cst_line[i],
						     "[cst.%d] has no latency", i + 1);
			if (!(c->cst_seen[i] & CST_SEEN_METHOD))
				return il_err_set_at(c->err, EINVAL, c->fname, c->cst_line[i],
						     "[cst.%d] has no method", i + 1);
		}
		p->ncst = n;
	}
	/* turbo gaps: with n active cores the limit is that of the nearest listed count above */
	for (int n = p->nturbo - 1; n >= 0; n--)
		if (!c->turbo_given[n])
			p->turbo_mhz[n] = p->turbo_mhz[n + 1];
	return 0;
}

int il_platform_load_string(struct il_platform *p, const char *text, size_t len,
			    const char *name, struct il_err *err)
{
	struct parse_ctx c;

	defaults(p);
	memset(&c, 0, sizeof(c));
	c.p = p;
	c.err = err;
	c.fname = name;
	c.text = text;
	c.len = len;
	snprintf(p->file, sizeof(p->file), "%s", name);
	il_err_clear(err);

	int r = ini_parse_stream(reader, &c, handler, &c);
	if (c.first_error && !(r > 0 && r < c.first_error))
		return -EINVAL;
	if (r > 0) {
		/* a syntax error inih found itself (no '=' or unclosed '[') */
		return il_err_set_at(err, EINVAL, name, r,
				     "%s", c.line_too_long ? "line too long"
							   : "syntax error (expected [section] or key = value)");
	}
	if (r < 0)
		return il_err_set_at(err, ENOMEM, name, 0, "cannot parse (out of memory)");
	if (c.line_too_long)
		return il_err_set_at(err, EINVAL, name, c.line, "line longer than %d characters",
				     LINE_MAX_LEN - 3);
	return finish(&c);
}

int il_platform_load_file(struct il_platform *p, const char *path, struct il_err *err)
{
	char *buf;
	size_t len;
	int r = il_read_file(path, (size_t)64 << 20, &buf, &len, err);

	if (r)
		return r;
	r = il_platform_load_string(p, buf, len, path, err);
	free(buf);
	return r;
}

int il_platform_load(struct il_platform *p, const char *name_or_path, struct il_err *err)
{
	for (int i = 0; i < il_builtin_platform_count; i++) {
		const struct il_builtin_platform *b = &il_builtin_platforms[i];
		if (!strcmp(b->name, name_or_path)) {
			char nm[96];
			snprintf(nm, sizeof(nm), "builtin:%s", b->name);
			return il_platform_load_string(p, b->text, b->len, nm, err);
		}
	}
	if (!strchr(name_or_path, '/') && !strchr(name_or_path, '.')) {
		char list[512] = "";
		for (int i = 0; i < il_builtin_platform_count; i++) {
			strncat(list, il_builtin_platforms[i].name, sizeof(list) - strlen(list) - 3);
			if (i + 1 < il_builtin_platform_count)
				strncat(list, ", ", sizeof(list) - strlen(list) - 1);
		}
		return il_err_set(err, ENOENT, "unknown platform '%s' (built-in: %s; or give a file path)",
				  name_or_path, list);
	}
	return il_platform_load_file(p, name_or_path, err);
}

const char *il_platform_option(const struct il_platform *p, const char *key)
{
	for (int i = 0; i < p->noptions; i++)
		if (!strcmp(p->options[i].key, key))
			return p->options[i].value;
	return NULL;
}

int il_platform_set_option(struct il_platform *p, const char *key, const char *value,
			   struct il_err *err)
{
	if (!*key)
		return il_err_set(err, EINVAL, "empty option name");
	if (strlen(key) >= sizeof(p->options[0].key) || strlen(value) >= sizeof(p->options[0].value))
		return il_err_set(err, EINVAL, "option '%s' too long", key);
	for (int i = 0; i < p->noptions; i++)
		if (!strcmp(p->options[i].key, key)) {
			snprintf(p->options[i].value, sizeof(p->options[i].value), "%s", value);
			return 0;
		}
	if (p->noptions == IL_PLAT_OPTIONS_MAX)
		return il_err_set(err, EINVAL, "more than %d options", IL_PLAT_OPTIONS_MAX);
	snprintf(p->options[p->noptions].key, sizeof(p->options[0].key), "%s", key);
	snprintf(p->options[p->noptions].value, sizeof(p->options[0].value), "%s", value);
	p->noptions++;
	return 0;
}

const char *il_vendor_name(enum il_vendor v)
{
	switch (v) {
	case IL_VENDOR_INTEL: return "intel";
	case IL_VENDOR_AMD: return "amd";
	case IL_VENDOR_HYGON: return "hygon";
	case IL_VENDOR_IBM: return "ibm";
	case IL_VENDOR_OTHER: return "other";
	default: return "unknown";
	}
}
