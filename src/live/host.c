// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machine, or a captured copy of it: the files doctor, capture and
 * platform capture read (include/idlelab/host.h), read by the rules of
 * src/live/tree.h.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "idlelab/host.h"
#include "idlelab/outfile.h"
#include "live_internal.h"
#include "util.h"

#define PAGE IL_SYSFS_FILE_MAX
#define CPUINFO_MAX (64u << 20)     /* 8192 CPUs of ~2 KiB each fit well */
#define CONFIG_GZ_MAX (16u << 20)
#define CONFIG_MAX (64u << 20)
#define LPARCFG_MAX (64u << 10)
#define CPU_DIR "sys/devices/system/cpu"

const struct il_host_param_name il_host_params[] = {
	{ "cpuidle", "off" },
	{ "cpuidle", "governor" },
	{ "cpuidle_haltpoll", "force" },
	{ "haltpoll", "guest_halt_poll_ns" },
	{ "haltpoll", "guest_halt_poll_shrink" },
	{ "haltpoll", "guest_halt_poll_grow" },
	{ "haltpoll", "guest_halt_poll_grow_start" },
	{ "haltpoll", "guest_halt_poll_allow_shrink" },
	{ "intel_idle", "max_cstate" },
	{ "intel_idle", "states_off" },
	{ "intel_idle", "no_acpi" },
	{ "intel_idle", "use_acpi" },
	{ "intel_idle", "no_native" },
	{ "intel_idle", "preferred_cstates" },
	{ "intel_idle", "force_irq_on" },
	{ "intel_idle", "ibrs_off" },
	{ "intel_idle", "table" },
	{ "processor", "max_cstate" },
	{ "processor", "latency_factor" },
	{ "processor", "nocst" },
	{ "processor", "bm_check_disable" },
	{ "processor", "ignore_ppc" },
	{ "processor", "ignore_tpc" },
	{ "cpufreq", "default_governor" },
	{ "cpufreq", "off" },
	{ "acpi_cpufreq", "acpi_pstate_strict" },
};
const int il_host_param_count = sizeof(il_host_params) / sizeof(il_host_params[0]);

static const char *const topo_files[] = {
	"physical_package_id", "die_id", "core_id", "thread_siblings_list",
};
static const char *const policy_files[] = {
	"scaling_driver", "scaling_governor", "related_cpus", "cpuinfo_min_freq",
	"cpuinfo_max_freq", "scaling_min_freq", "scaling_max_freq", "base_frequency",
};
static const char *const cpu_lists[] = { "online", "possible", "present" };
/* the cpufreq drivers' own global files */
static const char *const pstate_files[] = {
	"intel_pstate/status", "intel_pstate/no_turbo", "amd_pstate/status",
};

struct reader {
	struct il_host *h;
	int rootfd;
	bool with_files;
};

/* Keep a file read for a capture. */
static void keep(struct reader *rd, const char *rel, const struct il_raw *r, bool binary)
{
	struct il_host *h = rd->h;
	struct il_host_file *f;

	if (!rd->with_files || r->status != IL_SYSFS_OK)
		return;
	if (!binary && memchr(r->data, '\0', r->len)) {
		char *p = il_tree_join(h->root, rel);
		il_tree_note(&h->notes, p, "holds a NUL byte: not kernel text, left out of the copy");
		free(p);
		return;
	}
	h->files = il_xrealloc(h->files, sizeof(*h->files) * (size_t)(h->nfiles + 1));
	f = &h->files[h->nfiles++];
	f->rel = il_xstrdup(rel);
	f->data = il_xcalloc(1, r->len + 1);
	memcpy(f->data, r->data, r->len);
	f->len = r->len;
	f->binary = binary;
}

/* Read rel; returns its text (trailing newline removed, NULL if not read) and keeps it. */
static char *read_text(struct reader *rd, const char *rel, size_t max,
		       const struct il_tree_kind *k)
{
	struct il_raw r;
	char *s = NULL;

	il_tree_read_path(rd->rootfd, rd->h->root, rel, max, k, false, &r, &rd->h->notes);
	if (r.status == IL_SYSFS_OK) {
		keep(rd, rel, &r, false);
		if (!memchr(r.data, '\0', r.len)) {
			size_t n = r.len;
			if (n && r.data[n - 1] == '\n')
				n--;
			s = il_xcalloc(1, n + 1);
			memcpy(s, r.data, n);
		}
	}
	il_raw_free(&r);
	return s;
}

static int int_of(const char *s, int def)
{
	int64_t v;

	if (!s || il_parse_i64(s, &v) || v < -1 || v > 0x7fffffff)
		return def;
	return (int)v;
}

static uint64_t u64_of(const char *s)
{
	uint64_t v;

	if (!s || il_sysfs_parse_u64(s, strlen(s), &v))
		return 0;
	return v;
}

static void read_cpus(struct reader *rd)
{
	struct il_host *h = rd->h;
	int fd = il_tree_opendir_path(rd->rootfd, CPU_DIR), *ids = NULL, n;
	char rel[160];

	for (size_t i = 0; i < sizeof(cpu_lists) / sizeof(cpu_lists[0]); i++) {
		char *s;
		snprintf(rel, sizeof(rel), CPU_DIR "/%s", cpu_lists[i]);
		s = read_text(rd, rel, PAGE, &il_tree_sysfs);
		if (i == 0)
			h->online = s;
		else if (i == 1)
			h->possible = s;
		else
			h->present = s;
	}
	h->clocksource = read_text(rd, "sys/devices/system/clocksource/clocksource0/"
				   "current_clocksource", PAGE, &il_tree_sysfs);
	for (size_t i = 0; i < sizeof(pstate_files) / sizeof(pstate_files[0]); i++) {
		snprintf(rel, sizeof(rel), CPU_DIR "/%s", pstate_files[i]);
		free(read_text(rd, rel, PAGE, &il_tree_sysfs));
	}
	if (fd < 0)
		return;
	n = il_tree_list_numbered(fd, "cpu", IL_SYSFS_CPU_MAX, &ids);
	close(fd);
	if (n <= 0) {
		free(ids);
		return;
	}
	h->cpus = il_xcalloc((size_t)n, sizeof(*h->cpus));
	for (int i = 0; i < n; i++) {
		struct il_host_cpu *c = &h->cpus[h->ncpus++];
		char *v[4];

		c->cpu = ids[i];
		for (int k = 0; k < 4; k++) {
			snprintf(rel, sizeof(rel), CPU_DIR "/cpu%d/topology/%s", ids[i], topo_files[k]);
			v[k] = read_text(rd, rel, PAGE, &il_tree_sysfs);
		}
		c->package = int_of(v[0], -1);
		c->die = int_of(v[1], -1);
		c->core = int_of(v[2], -1);
		c->thread_siblings = v[3];
		free(v[0]);
		free(v[1]);
		free(v[2]);
		snprintf(rel, sizeof(rel), CPU_DIR "/cpu%d/power/pm_qos_resume_latency_us", ids[i]);
		c->resume_latency = read_text(rd, rel, PAGE, &il_tree_sysfs);
		/*
		 * ACPI CPPC capabilities: AMD's frequency invariance and acpi-cpufreq's
		 * boost ratio and cpuinfo.max_freq read them (freqmax.c)
		 */
		for (int k = 0; k < 3; k++) {
			static const char *const cf[] = { "highest_perf", "nominal_perf",
							  "nominal_freq" };
			snprintf(rel, sizeof(rel), CPU_DIR "/cpu%d/acpi_cppc/%s", ids[i], cf[k]);
			char *t = read_text(rd, rel, PAGE, &il_tree_sysfs);
			uint64_t u;
			int64_t perf = t && !il_sysfs_parse_u64(t, strlen(t), &u) &&
						       u <= 0xffffffffULL ? (int64_t)u : -1;
			free(t);
			if (k == 2)
				c->cppc_nominal_freq = perf;
			else if (k)
				c->cppc_nominal = perf;
			else
				c->cppc_highest = perf;
		}
	}
	free(ids);

	fd = il_tree_opendir_path(rd->rootfd, CPU_DIR "/cpufreq");
	if (fd < 0)
		return;
	n = il_tree_list_numbered(fd, "policy", IL_SYSFS_CPU_MAX, &ids);
	close(fd);
	if (n > 0)
		h->policies = il_xcalloc((size_t)n, sizeof(*h->policies));
	for (int i = 0; i < n; i++) {
		struct il_host_policy *p = &h->policies[h->npolicies++];
		char *v[8];

		p->policy = ids[i];
		for (int k = 0; k < 8; k++) {
			snprintf(rel, sizeof(rel), CPU_DIR "/cpufreq/policy%d/%s", ids[i],
				 policy_files[k]);
			v[k] = read_text(rd, rel, PAGE, &il_tree_sysfs);
		}
		p->driver = v[0];
		p->governor = v[1];
		p->related_cpus = v[2];
		p->cpuinfo_min_khz = u64_of(v[3]);
		p->cpuinfo_max_khz = u64_of(v[4]);
		p->scaling_min_khz = u64_of(v[5]);
		p->scaling_max_khz = u64_of(v[6]);
		p->base_khz = u64_of(v[7]);
		for (int k = 3; k < 8; k++)
			free(v[k]);
	}
	free(ids);
}

static void read_params(struct reader *rd)
{
	struct il_host *h = rd->h;
	char rel[160];

	h->params = il_xcalloc((size_t)il_host_param_count, sizeof(*h->params));
	for (int i = 0; i < il_host_param_count; i++) {
		char *v;

		snprintf(rel, sizeof(rel), "sys/module/%s/parameters/%s", il_host_params[i].module,
			 il_host_params[i].name);
		v = read_text(rd, rel, PAGE, &il_tree_sysfs);
		if (!v)
			continue;
		h->params[h->nparams].module = il_host_params[i].module;
		h->params[h->nparams].name = il_host_params[i].name;
		h->params[h->nparams++].value = v;
	}
}

/* gunzip, at most max bytes out; NULL if not gzip or larger. */
static char *gunzip(const char *in, size_t len, size_t max, size_t *outlen)
{
	z_stream z;
	size_t cap = 1u << 16;
	char *out = il_xcalloc(1, cap + 1);
	int r;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
		free(out);
		return NULL;
	}
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)len;
	for (;;) {
		z.next_out = (Bytef *)out + z.total_out;
		z.avail_out = (uInt)(cap - z.total_out);
		r = inflate(&z, Z_NO_FLUSH);
		if (r == Z_STREAM_END)
			break;
		if (r != Z_OK && r != Z_BUF_ERROR) {
			inflateEnd(&z);
			free(out);
			return NULL;
		}
		if (z.avail_out == 0) {
			if (cap >= max) {
				inflateEnd(&z);
				free(out);
				return NULL;
			}
			cap = cap * 2 > max ? max : cap * 2;
			out = il_xrealloc(out, cap + 1);
		} else if (r == Z_BUF_ERROR) {
			/* input ended before the stream did: truncated */
			inflateEnd(&z);
			free(out);
			return NULL;
		}
	}
	*outlen = z.total_out;
	out[*outlen] = '\0';
	inflateEnd(&z);
	return out;
}

/* A release string usable in a file name: letters, digits, ".-_+~". */
static bool release_ok(const char *s)
{
	if (!s || !*s || strlen(s) > 64)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(".-_+~", *s))
			return false;
	return true;
}

static void read_config(struct reader *rd)
{
	struct il_host *h = rd->h;
	struct il_raw r;
	char rel[128];

	il_tree_read_path(rd->rootfd, h->root, "proc/config.gz", CONFIG_GZ_MAX, &il_tree_proc,
			  false, &r, &h->notes);
	if (r.status == IL_SYSFS_OK) {
		size_t n = 0;
		char *text = gunzip(r.data, r.len, CONFIG_MAX, &n);
		if (text) {
			h->config = il_config_filter(text, n);
			h->config_file = il_xstrdup("proc/config.gz");
			free(text);
		} else {
			char *p = il_tree_join(h->root, "proc/config.gz");
			il_tree_note(&h->notes, p, "not gzip data (or more than %u MiB of it)",
				     CONFIG_MAX >> 20);
			free(p);
		}
	}
	il_raw_free(&r);
	if (!h->config && release_ok(h->release)) {
		snprintf(rel, sizeof(rel), "boot/config-%s", h->release);
		il_tree_read_path(rd->rootfd, h->root, rel, CONFIG_MAX, &il_tree_proc, false, &r,
				  &h->notes);
		if (r.status == IL_SYSFS_OK) {
			h->config = il_config_filter(r.data, r.len);
			h->config_file = il_xstrdup(rel);
		}
		il_raw_free(&r);
	}
	if (h->config) {
		char *hz = il_config_get(h->config, strlen(h->config), "HZ");
		int v = int_of(hz, 0);
		h->hz = v > 0 ? (unsigned)v : 0;
		free(hz);
	}
}

static void read_pm_qos(struct reader *rd)
{
	struct il_host *h = rd->h;
	struct il_raw r;

	/* the misc device on the live machine; its 4 bytes as a regular file in a capture */
	il_tree_read_path(rd->rootfd, h->root, "dev/cpu_dma_latency", 64, &il_tree_proc, h->live,
			  &r, &h->notes);
	if (r.status == IL_SYSFS_OK && r.len == sizeof(int32_t)) {
		memcpy(&h->dma_latency_us, r.data, sizeof(int32_t));
		h->has_dma_latency = true;
		keep(rd, "dev/cpu_dma_latency", &r, true);
	} else if (r.status == IL_SYSFS_OK) {
		char *p = il_tree_join(h->root, "dev/cpu_dma_latency");
		il_tree_note(&h->notes, p, "%zu bytes: want the 4 of an s32", r.len);
		free(p);
	}
	il_raw_free(&r);
}

/* Is every byte of s a decimal digit? */
static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* The live machine's holders of /dev/cpu_dma_latency, from /proc/<pid>/fd. */
static void find_holders(struct reader *rd)
{
	struct il_host *h = rd->h;
	int pfd = il_tree_opendir(rd->rootfd, "proc");
	DIR *d;
	struct dirent *de;

	h->nholders = 0;
	if (pfd < 0) {
		h->nholders = -1;
		return;
	}
	d = fdopendir(pfd);
	if (!d) {
		close(pfd);
		h->nholders = -1;
		return;
	}
	while ((de = readdir(d))) {
		int dfd, ffd;
		DIR *fdd;
		struct dirent *fe;
		bool holds = false;

		if (!all_digits(de->d_name) || strlen(de->d_name) > 9)
			continue;
		dfd = il_tree_opendir(pfd, de->d_name);
		if (dfd < 0)
			continue;
		ffd = openat(dfd, "fd", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (ffd < 0) {
			/* not ours to look at (EACCES): the count is a lower bound */
			if (errno == EACCES)
				h->holders_partial = true;
			close(dfd);
			continue;
		}
		fdd = fdopendir(ffd);
		while (fdd && (fe = readdir(fdd))) {
			char target[64];
			ssize_t n;

			if (!all_digits(fe->d_name))
				continue;
			n = readlinkat(ffd, fe->d_name, target, sizeof(target) - 1);
			if (n <= 0)
				continue;
			target[n] = '\0';
			if (!strcmp(target, "/dev/cpu_dma_latency"))
				holds = true;
		}
		if (fdd)
			closedir(fdd);
		else
			close(ffd);
		if (holds && h->nholders < IL_HOST_HOLDERS_MAX) {
			struct il_host_holder *ho = &h->holders[h->nholders++];
			struct il_raw r;
			char path[64];

			snprintf(path, sizeof(path), "/proc/%.12s/comm", de->d_name);
			ho->pid = atoi(de->d_name);
			il_tree_read(dfd, "comm", path, PAGE, &il_tree_proc, false, &r, NULL);
			if (r.status == IL_SYSFS_OK) {
				size_t n = r.len;
				if (n && r.data[n - 1] == '\n')
					n--;
				if (n >= sizeof(ho->comm))
					n = sizeof(ho->comm) - 1;
				memcpy(ho->comm, r.data, n);
				ho->comm[n] = '\0';
				for (size_t i = 0; i < n; i++)
					if ((unsigned char)ho->comm[i] < 0x20)
						ho->comm[i] = '?';
			}
			il_raw_free(&r);
		}
		close(dfd);
	}
	closedir(d);
}

#define META_MAX (1u << 20)

int il_meta_read_dir(const char *dir, struct il_meta *m, struct il_err *err)
{
	struct il_sysfs_notes notes = { 0 };
	struct il_raw r;
	char *p = il_tree_join(dir, IL_SNAPSHOT_META);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc;

	memset(m, 0, sizeof(*m));
	if (fd < 0) {
		rc = il_err_set_at(err, errno, dir, 0, "cannot open: %s", strerror(errno));
		free(p);
		return rc;
	}
	il_tree_read(fd, IL_SNAPSHOT_META, p, META_MAX, &il_tree_proc, false, &r, &notes);
	close(fd);
	if (r.status == IL_SYSFS_MISSING) {
		rc = -ENOENT;
	} else if (r.status != IL_SYSFS_OK) {
		rc = il_err_set_at(err, EINVAL, p, 0, "%s", notes.n ? notes.items[0].msg : "bad");
	} else {
		rc = il_meta_parse(r.data, r.len, p, m, err);
	}
	il_raw_free(&r);
	il_sysfs_notes_free(&notes);
	free(p);
	return rc;
}

/* A capture's metadata, and the holders it recorded. */
static void read_meta(struct reader *rd)
{
	struct il_host *h = rd->h;
	struct il_err e;
	int r = il_meta_read_dir(h->root, &h->meta, &e);

	if (r == -ENOENT)
		return;
	if (r) {
		il_tree_note(&h->notes, e.file, "%s", e.msg);
		h->notes.items[h->notes.n - 1].line = e.line;
		return;
	}
	h->has_meta = true;
	if (il_meta_get(&h->meta, "pm_qos.holders"))
		h->nholders = 0;
	for (int i = 0; i < h->meta.n; i++) {
		const struct il_meta_item *it = &h->meta.items[i];
		struct il_host_holder *ho;
		char *end;
		long pid;

		if (strcmp(it->key, "pm_qos.holder") || h->nholders < 0 ||
		    h->nholders == IL_HOST_HOLDERS_MAX)
			continue;
		pid = strtol(it->value, &end, 10);
		if (end == it->value || pid <= 0 || pid > 0x3fffffff)
			continue;
		ho = &h->holders[h->nholders++];
		ho->pid = (int)pid;
		while (*end == ' ')
			end++;
		snprintf(ho->comm, sizeof(ho->comm), "%s", end);
	}
	if (il_meta_get(&h->meta, "pm_qos.holders_partial"))
		h->holders_partial = true;
}

int il_host_read(const char *root, bool with_files, struct il_host *h, struct il_err *err)
{
	struct reader rd = { .h = h, .with_files = with_files };
	char *up;

	memset(h, 0, sizeof(*h));
	h->root = il_xstrdup(root && *root ? root : IL_HOST_LIVE_ROOT);
	h->live = !strcmp(h->root, "/");
	h->uptime_s = -1;
	h->nholders = -1;
	h->lpar_shared = -1;
	rd.rootfd = open(h->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rd.rootfd < 0) {
		int e = errno;
		il_err_set_at(err, e, h->root, 0, e == ENOTDIR ? "not a directory" :
			      "cannot open: %s", strerror(e));
		free(h->root);
		memset(h, 0, sizeof(*h));
		return -e;
	}
	{
		/*
		 * Every Linux machine has the CPU directory (the cpuidle tree below
		 * it may be absent); a tree without it is no machine's: judging it
		 * would report a healthy machine made of defaults.
		 */
		int cfd = il_tree_opendir_path(rd.rootfd, CPU_DIR);
		if (cfd < 0) {
			int e = -cfd;
			il_err_set_at(err, e, h->root, 0, "not a machine's tree: %s" CPU_DIR
				      " (idlelab capture DIR writes one)",
				      e == ELOOP ? "a symbolic link on the way to " :
				      e == ENOENT ? "no " : "cannot open ");
			close(rd.rootfd);
			free(h->root);
			memset(h, 0, sizeof(*h));
			return -e;
		}
		close(cfd);
	}
	h->sysfs_rc = il_sysfs_read_below(h->root, CPU_DIR, NULL, &h->sysfs, &h->sysfs_err);
	read_cpus(&rd);
	if (!h->ncpus) {
		il_err_set_at(err, ENOENT, h->root, 0, "not a machine's tree: no CPU (cpu<N>/) in "
			      CPU_DIR);
		close(rd.rootfd);
		il_host_free(h);
		return -ENOENT;
	}
	read_params(&rd);
	h->release = read_text(&rd, "proc/sys/kernel/osrelease", PAGE, &il_tree_proc);
	h->version = read_text(&rd, "proc/version", PAGE, &il_tree_proc);
	h->cmdline = read_text(&rd, "proc/cmdline", PAGE, &il_tree_proc);
	h->boot_id = read_text(&rd, "proc/sys/kernel/random/boot_id", PAGE, &il_tree_proc);
	up = read_text(&rd, "proc/uptime", PAGE, &il_tree_proc);
	if (up) {
		char *end;
		double v = strtod(up, &end);
		if (end != up && v >= 0)
			h->uptime_s = v;
		free(up);
	}
	{
		struct il_raw r;
		il_tree_read_path(rd.rootfd, h->root, "proc/cpuinfo", CPUINFO_MAX, &il_tree_proc,
				  false, &r, &h->notes);
		if (r.status == IL_SYSFS_OK) {
			keep(&rd, "proc/cpuinfo", &r, false);
			il_cpuinfo_parse(r.data, r.len, &h->cpuinfo);
			h->has_cpuinfo = true;
		}
		il_raw_free(&r);
	}
	{
		char *l = read_text(&rd, "proc/ppc64/lparcfg", LPARCFG_MAX, &il_tree_proc);
		const char *k = l ? strstr(l, "shared_processor_mode=") : NULL;
		if (k)
			h->lpar_shared = k[22] == '1';
		free(l);
	}
	read_config(&rd);
	read_pm_qos(&rd);
	if (h->live)
		find_holders(&rd);
	else
		read_meta(&rd);
	close(rd.rootfd);
	return 0;
}

void il_host_free(struct il_host *h)
{
	if (!h)
		return;
	il_sysfs_info_free(&h->sysfs);
	free(h->online);
	free(h->possible);
	free(h->present);
	for (int i = 0; i < h->ncpus; i++) {
		free(h->cpus[i].thread_siblings);
		free(h->cpus[i].resume_latency);
	}
	free(h->cpus);
	for (int i = 0; i < h->npolicies; i++) {
		free(h->policies[i].driver);
		free(h->policies[i].governor);
		free(h->policies[i].related_cpus);
	}
	free(h->policies);
	free(h->clocksource);
	free(h->release);
	free(h->version);
	free(h->cmdline);
	free(h->boot_id);
	free(h->config);
	free(h->config_file);
	for (int i = 0; i < h->nparams; i++)
		free(h->params[i].value);
	free(h->params);
	il_meta_free(&h->meta);
	for (int i = 0; i < h->nfiles; i++) {
		free(h->files[i].rel);
		free(h->files[i].data);
	}
	free(h->files);
	il_sysfs_notes_free(&h->notes);
	free(h->root);
	memset(h, 0, sizeof(*h));
}

const char *il_host_param(const struct il_host *h, const char *module, const char *name)
{
	for (int i = 0; i < h->nparams; i++)
		if (!strcmp(h->params[i].module, module) && !strcmp(h->params[i].name, name))
			return h->params[i].value;
	return NULL;
}

const char *il_host_cmdline_opt(const struct il_host *h, const char *key, char *buf, size_t size)
{
	const char *p = h->cmdline, *found = NULL;
	size_t kl = strlen(key), fl = 0;

	if (!p)
		return NULL;
	while (*p) {
		size_t wl;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		wl = strcspn(p, " \t");
		/* the kernel's own parameters end at "--": the rest is init's */
		if (wl == 2 && p[0] == '-' && p[1] == '-')
			break;
		/* a quoted value may hold blanks: param="a b" */
		if (memchr(p, '"', wl)) {
			const char *q = memchr(p, '"', wl), *e = strchr(q + 1, '"');
			if (e)
				wl = (size_t)(e - p) + strcspn(e, " \t");
		}
		if (wl >= kl && !memcmp(p, key, kl) && (wl == kl || p[kl] == '=')) {
			found = wl == kl ? p + kl : p + kl + 1;
			fl = wl == kl ? 0 : wl - kl - 1;
		}
		p += wl;
	}
	if (!found)
		return NULL;
	if (fl >= size)
		fl = size - 1;
	memcpy(buf, found, fl);
	buf[fl] = '\0';
	if (fl >= 2 && buf[0] == '"' && buf[fl - 1] == '"') {
		memmove(buf, buf + 1, fl - 2);
		buf[fl - 2] = '\0';
	}
	return buf;
}

const char *il_host_hypervisor(const struct il_host *h)
{
	unsigned int hints;

	if (il_host_kvm(h, NULL, &hints) > 0)
		return "kvm";
	if (h->clocksource && !strcmp(h->clocksource, "kvm-clock"))
		return "kvm";
	if (h->clocksource && !strcmp(h->clocksource, "xen"))
		return "xen";
	if (h->clocksource && !strncmp(h->clocksource, "hyperv", 6))
		return "hyperv";
	/* cpuidle-haltpoll registers only in KVM guests */
	if (!h->sysfs_rc && h->sysfs.driver.status == IL_SYSFS_OK &&
	    !strcmp(h->sysfs.driver.s, "haltpoll"))
		return "kvm";
	return NULL;
}

bool il_host_release_tag(const struct il_host *h, char *buf, size_t size)
{
	const char *s = h->release;
	unsigned long maj, min;
	char *end;

	if (!s || !isdigit((unsigned char)s[0]))
		return false;
	maj = strtoul(s, &end, 10);
	if (*end != '.' || !isdigit((unsigned char)end[1]))
		return false;
	min = strtoul(end + 1, &end, 10);
	if (maj > 99 || min > 99)
		return false;
	snprintf(buf, size, "%lu.%lu", maj, min);
	return true;
}

/* "KEY=0xHEX" at *v, as il_host_meta() writes it: a 32-bit value; *v moves past it. */
static bool cpuid5_field(const char **v, const char *key, unsigned int *out)
{
	size_t kl = strlen(key);
	unsigned long long x;
	char *end;

	if (strncmp(*v, key, kl) || !isxdigit((unsigned char)(*v)[kl]))
		return false;
	errno = 0;
	x = strtoull(*v + kl, &end, 16);
	if (errno || x > UINT_MAX || end - (*v + kl) > 8)
		return false;
	*out = (unsigned int)x;
	*v = end;
	return true;
}

int il_host_cpuid5(const struct il_host *h, unsigned int *ecx, unsigned int *edx)
{
	const char *v;

	if (h->live) {
#if defined(__x86_64__) || defined(__i386__)
		unsigned int a, b;

		if (__get_cpuid_max(0, NULL) >= 5 && __get_cpuid(5, &a, &b, ecx, edx))
			return 1;
#endif
		return 0;
	}
	v = h->has_meta ? il_meta_get(&h->meta, "cpuid5") : NULL;
	if (v && cpuid5_field(&v, "ecx=0x", ecx) && *v++ == ' ' && cpuid5_field(&v, "edx=0x", edx) &&
	    !*v)
		return 2;
	return 0;
}

bool il_host_kvm_signature(unsigned int leaf, unsigned int eax, unsigned int ebx, unsigned int ecx,
			   unsigned int edx)
{
	char sig[12];

	/* kvm_cpuid_base() asks for no number of leaves: EAX is not looked at */
	(void)leaf;
	(void)eax;
	memcpy(sig, &ebx, 4);
	memcpy(sig + 4, &ecx, 4);
	memcpy(sig + 8, &edx, 4);
	return !memcmp(sig, "KVMKVMKVM\0\0\0", 12);
}

/*
 * KVM's CPUID leaves, as kvm_cpuid_base() finds them (arch/x86/include/asm/
 * kvm_para.h, hypervisor_cpuid_base(KVM_SIGNATURE, 0): from 0x40000000 to
 * 0x4000ff00 in steps of 0x100, the signature "KVMKVMKVM\0\0\0" in EBX,
 * ECX, EDX, the maximum leaf in EAX not looked at); the hints are leaf
 * base + 1's EDX (kvm_arch_para_hints(), bit KVM_HINTS_REALTIME = 0).
 */
#if defined(__x86_64__) || defined(__i386__)
static int kvm_cpuid(unsigned int *base, unsigned int *hints)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 31)))
		return 0; /* no X86_FEATURE_HYPERVISOR */
	for (unsigned int leaf = 0x40000000; leaf < 0x40010000; leaf += 0x100) {
		__cpuid(leaf, a, b, c, d);
		if (il_host_kvm_signature(leaf, a, b, c, d)) {
			__cpuid(leaf + 1, a, b, c, d);
			*base = leaf;
			*hints = d;
			return 1;
		}
	}
	return 0;
}
#endif

int il_host_kvm(const struct il_host *h, unsigned int *basep, unsigned int *hints)
{
	const char *v;
	unsigned int base = 0;
	int r = 0;

	if (h->live) {
#if defined(__x86_64__) || defined(__i386__)
		r = kvm_cpuid(&base, hints) ? 1 : -1;
#endif
		if (basep)
			*basep = base;
		return r;
	}
	v = h->has_meta ? il_meta_get(&h->meta, "kvm_cpuid") : NULL;
	if (!v)
		return 0;
	if (!strcmp(v, "none"))
		return -1;
	/* a base kvm_cpuid_base() can find: 0x40000000 + k * 0x100, below 0x40010000 */
	if (cpuid5_field(&v, "base=0x", &base) && *v++ == ' ' &&
	    cpuid5_field(&v, "hints=0x", hints) && !*v &&
	    base >= 0x40000000 && base < 0x40010000 && !(base & 0xff))
		r = 2;
	if (basep)
		*basep = r ? base : 0;
	return r;
}

void il_host_meta(const struct il_host *h, struct il_meta *m)
{
	struct timespec rt, bt;
	struct tm tm;
	char ts[64];
	int nres = 0;

	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_BOOTTIME, &bt);
	gmtime_r(&rt.tv_sec, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%S", &tm);
	il_meta_add(m, "format", "idlelab-meta 1");
	il_meta_addf(m, "timestamp", "%s.%09ldZ", ts, rt.tv_nsec);
	if (h->live) {
		il_meta_addf(m, "boottime_ns", "%lld",
			     (long long)bt.tv_sec * 1000000000LL + bt.tv_nsec);
	} else {
		/*
		 * A tree's counters were read on its machine at its boottime_ns
		 * (beside its boot_id), not at this machine's clock now: info
		 * --diff takes its interval from them. None recorded: none given.
		 */
		const char *b = h->has_meta ? il_meta_get(&h->meta, "boottime_ns") : NULL;
		if (b)
			il_meta_add(m, "boottime_ns", b);
	}
	il_meta_add(m, "root", h->root);
	if (h->boot_id)
		il_meta_add(m, "boot_id", h->boot_id);
	if (h->uptime_s >= 0)
		il_meta_addf(m, "uptime_s", "%.2f", h->uptime_s);
	if (h->release)
		il_meta_add(m, "kernel_release", h->release);
	if (h->version)
		il_meta_add(m, "kernel_version", h->version);
	if (h->cmdline)
		il_meta_add(m, "cmdline", h->cmdline);
	if (h->hz)
		il_meta_addf(m, "hz", "%u (CONFIG_HZ, %s)", h->hz, h->config_file);
	{
		unsigned int ecx, edx;

		if (il_host_cpuid5(h, &ecx, &edx))
			il_meta_addf(m, "cpuid5", "ecx=0x%x edx=0x%x", ecx, edx);
		/* KVM's leaves as read: by the instruction, or a capture's line that reads */
		unsigned int base, hints;
		int kvm = il_host_kvm(h, &base, &hints);

		if (kvm > 0)
			il_meta_addf(m, "kvm_cpuid", "base=0x%x hints=0x%x", base, hints);
		else if (kvm < 0)
			il_meta_add(m, "kvm_cpuid", "none");
	}
	for (int i = 0; i < h->nparams; i++) {
		char key[128];
		snprintf(key, sizeof(key), "param.%s.%s", h->params[i].module, h->params[i].name);
		il_meta_add(m, key, h->params[i].value);
	}
	if (h->has_dma_latency)
		il_meta_addf(m, "pm_qos.cpu_dma_latency_us", "%d", (int)h->dma_latency_us);
	if (h->nholders >= 0) {
		il_meta_addf(m, "pm_qos.holders", "%d", h->nholders);
		for (int i = 0; i < h->nholders; i++)
			il_meta_addf(m, "pm_qos.holder", "%d %s", h->holders[i].pid,
				     h->holders[i].comm);
		if (h->holders_partial)
			il_meta_add(m, "pm_qos.holders_partial",
				    "yes (some /proc/<pid>/fd could not be read)");
	}
	for (int i = 0; i < h->ncpus; i++) {
		const char *v = h->cpus[i].resume_latency;
		char key[64];
		if (!v)
			continue;
		nres++;
		if (!strcmp(v, "0"))
			continue;
		snprintf(key, sizeof(key), "pm_qos.resume_latency_us.cpu%d", h->cpus[i].cpu);
		il_meta_add(m, key, v);
	}
	if (nres)
		il_meta_addf(m, "pm_qos.resume_latency_cpus_read", "%d", nres);
}

int il_host_capture(const char *root, const char *dest, struct il_sysfs_notes *notes,
		    int *nfiles, struct il_err *err)
{
	struct il_host h;
	struct il_sysfs_snap *sn = NULL;
	struct il_outdir out;
	struct il_tree_writer w;
	struct il_meta m = { 0 };
	struct il_err cerr;
	char *meta;
	int r, cr;

	if (nfiles)
		*nfiles = 0;
	r = il_outdir_check_new(dest, err);
	if (r)
		return r;

	/* everything is read first: the cpuidle tree in one pass, then the rest */
	r = il_sysfs_snap_take(root && *root ? root : "/", CPU_DIR, NULL, &sn, notes, err);
	if (r == -ENOENT)
		sn = NULL;   /* no cpuidle directory: a finding, not a reason to stop */
	else if (r)
		return r;
	r = il_host_read(root, true, &h, err);
	if (r) {
		il_sysfs_snap_free(sn);
		return r;
	}
	for (int i = 0; i < h.notes.n; i++)
		il_tree_note(notes, h.notes.items[i].file, "%s", h.notes.items[i].msg);
	il_host_meta(&h, &m);
	if (!h.live && h.has_meta) {
		const char *t = il_meta_get(&h.meta, "timestamp");
		if (t)
			il_meta_add(&m, "source_timestamp", t);
	}
	meta = il_meta_text(&m);
	il_meta_free(&m);

	r = il_outdir_open(&out, dest, err);
	if (r)
		goto done;
	w = (struct il_tree_writer){ .dfd = out.fd, .dest = dest, .err = err };
	if (sn)
		r = il_sysfs_snap_write(sn, &w, CPU_DIR, notes);
	for (int i = 0; !r && i < h.nfiles; i++) {
		const struct il_host_file *f = &h.files[i];
		/* the configuration is kept filtered, under the name /boot uses */
		if (!strcmp(f->rel, "proc/config.gz") || !strncmp(f->rel, "boot/config-", 12))
			continue;
		r = il_tree_write(&w, f->rel, 0444, f->data, f->len);
	}
	if (!r && h.config && release_ok(h.release)) {
		char rel[128];
		snprintf(rel, sizeof(rel), "boot/config-%s", h.release);
		r = il_tree_write(&w, rel, 0444, h.config, strlen(h.config));
	}
	if (!r)
		r = il_tree_write(&w, IL_SNAPSHOT_META, 0444, meta, strlen(meta));
	cr = il_outdir_close(&out, r == 0, &cerr);
	if (cr && !r) {
		if (err)
			*err = cerr;
		r = cr;
	}
	if (!r && nfiles)
		*nfiles = w.nfiles;
done:
	free(meta);
	il_host_free(&h);
	il_sysfs_snap_free(sn);
	return r;
}
