// SPDX-License-Identifier: GPL-2.0-only
/*
 * Loading a governor object built against the kernel-API layer and running
 * it as an idlelab governor.
 *
 * Each instance (il_gov_new) gets its own copy of the object, dlopen'ed
 * from an unlinked temporary file: the dynamic loader shares one mapping
 * per file, and the kernel file's globals (its per-CPU areas, module
 * parameters, the registered governor) must belong to one instance, since
 * a batch runs instances on several threads at once.
 *
 * dlopen runs the object's code with idlelab's rights: a loaded governor is
 * the user's own program (docs/own-governor.md).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kgov.h"
#include "util.h"
#include "idlelab/release.h"
#include "idlelab/governor.h"
#include "idlelab/outfile.h"
#include "../../kapi/include/kapi/abi.h"

struct kgov_inst {
	struct il_gov_ops ops;
	struct il_gov_preset preset;
	char name[IL_NAME_LEN];
	char text[160];
	void *dl;
	const struct kapi_module *m;
	struct kapi_host host;   /* the module keeps a pointer to it */
	int ncpus;
	/* the first invalid index select returned */
	unsigned long long invalid;
	int invalid_idx, invalid_cpu;
	uint64_t invalid_clock;
};

static int probe(const char *spec, const char *path, struct il_err *err);

/*
 * spec -> object path, so that "file:X.c" is compiled and probed once per
 * process; a probe that failed (an initcall that loops: 1 s of CPU) fails
 * again from here with its message, not run again.
 */
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	char spec[96];
	char path[4096];
	int r;             /* 0, or the probe's error, in err */
	struct il_err err;
} resolved[16];
static int nresolved;

static void host_log(void *data, int level, const char *msg)
{
	struct kgov_inst *k = data;
	size_t n = strlen(msg);

	if (level >= 7)
		return; /* KERN_DEBUG: not on the console by default */
	fprintf(stderr, "idlelab: governor %s: %.*s\n", k->name,
		(int)(n && msg[n - 1] == '\n' ? n - 1 : n), msg);
}

static unsigned long long host_poll_time(void *data, const struct il_driver *drv,
					 struct il_device *dev, long long tick_nsec)
{
	(void)data;
	return il_poll_time(drv, dev, tick_nsec);
}

static int k_configure(void *config, const struct il_gov_preset *preset,
		       const struct il_gov_patch *patches, int npatches, struct il_err *err)
{
	(void)config; (void)preset; (void)patches;
	if (npatches)
		return il_err_set(err, EINVAL, "a loaded governor takes no patches");
	return 0;
}

static int k_set_param(void *config, const char *name, const char *value, struct il_err *err)
{
	struct kgov_inst *k = config;
	char msg[200];
	int r = k->m->set_param(name, value, msg, sizeof(msg));

	return r < 0 ? il_err_set(err, -r, "%s", msg) : 0;
}

static void k_enable(const void *config, void *cpu_data, const struct il_driver *drv,
		     struct il_device *dev)
{
	const struct kgov_inst *k = config;
	struct il_gov_watch *w = il_gov_watch;

	(void)cpu_data;
	if (dev->cpu < 0 || dev->cpu >= k->ncpus)
		return;
	if (w) {
		w->cpu = dev->cpu;
		w->in_call = IL_GOV_IN_ENABLE;
	}
	k->m->enable(drv, dev);
	if (w) {
		w->in_call = 0;
		w->calls++;
	}
}

static int k_select(const void *config, void *cpu_data, const struct il_driver *drv,
		    struct il_device *dev, const struct il_idle_inputs *in, bool *stop_tick)
{
	struct kgov_inst *k = (struct kgov_inst *)config;

	(void)cpu_data;
	if (dev->cpu < 0 || dev->cpu >= k->ncpus)
		return -1;
	struct il_gov_watch *w = il_gov_watch;
	if (w) {
		w->clock_ns = (int64_t)in->clock_ns;
		w->cpu = dev->cpu;
		w->in_call = IL_GOV_IN_SELECT;
	}
	int idx = k->m->select(drv, dev, in, stop_tick);
	if (w) {
		w->in_call = 0;
		w->calls++;
	}
	if ((idx < 0 || idx >= drv->state_count) && !k->invalid++) {
		k->invalid_idx = idx;
		k->invalid_cpu = dev->cpu;
		k->invalid_clock = in->clock_ns;
	}
	return idx;
}

static void k_reflect(const void *config, void *cpu_data, const struct il_driver *drv,
		      struct il_device *dev, int index, const struct il_idle_inputs *in)
{
	const struct kgov_inst *k = config;

	struct il_gov_watch *w = il_gov_watch;

	(void)cpu_data; (void)drv;
	if (dev->cpu < 0 || dev->cpu >= k->ncpus)
		return;
	if (w) {
		w->clock_ns = (int64_t)in->clock_ns;
		w->cpu = dev->cpu;
		w->in_call = IL_GOV_IN_REFLECT;
	}
	k->m->reflect(dev, index, in);
	if (w) {
		w->in_call = 0;
		w->calls++;
	}
}

static void k_describe(const void *config, char *buf, size_t size)
{
	(void)config;
	if (size)
		buf[0] = '\0';
}

static void k_release(void *config)
{
	struct kgov_inst *k = config;

	if (k->invalid)
		fprintf(stderr, "idlelab: governor %s returned invalid state index %d on cpu%d "
			"at time %" PRIu64 " ns (%llu time%s in all)\n", k->name, k->invalid_idx,
			k->invalid_cpu, k->invalid_clock, k->invalid, k->invalid == 1 ? "" : "s");
	if (k->m)
		k->m->exit();
	if (k->dl)
		dlclose(k->dl);
}

/* The object for spec: built (or found in the cache) for "file:X.c", else the path. */
static int resolve(const char *spec, char *path, size_t size, struct il_err *err)
{
	int r = 0;

	pthread_mutex_lock(&cache_lock);
	for (int i = 0; i < nresolved; i++)
		if (!strcmp(resolved[i].spec, spec)) {
			snprintf(path, size, "%s", resolved[i].path);
			r = resolved[i].r;
			if (r && err)
				*err = resolved[i].err;
			pthread_mutex_unlock(&cache_lock);
			return r;
		}
	/* "file:X.c@5.4": X.c built for that release */
	const char *rel;
	size_t n = il_spec_file_release(spec, &rel);
	const char *bad_rel = strrchr(spec, '@');
	if (bad_rel && (bad_rel - spec < 7 || strncmp(bad_rel - 2, ".c", 2) || strchr(bad_rel, '/')))
		bad_rel = NULL;
	struct il_err rerr;
	if (!strncmp(spec, "file:", 5) && !rel && bad_rel && il_release_check(bad_rel + 1, &rerr)) {
		/* "file:X.c@5.4.1": a C file, with a release that is not one */
		r = il_err_set(err, EINVAL, "%s: %s", spec, rerr.msg);
	} else if (!strncmp(spec, "file:", 5) && (n < 7 || strncmp(spec + n - 2, ".c", 2))) {
		/* the compiler would take X.so or X.o as linker input: an empty object */
		bool so = n > 8 && !strcmp(spec + n - 3, ".so");
		r = il_err_set(err, EINVAL, "%s: not a C file: file: builds FILE.c%s%s%s%s", spec,
			       so ? "; load an object by its path (--governor " : "",
			       so && !strchr(spec + 5, '/') ? "./" : "", so ? spec + 5 : "",
			       so ? ")" : "");
	} else if (!strncmp(spec, "file:", 5)) {
		/* rel: the spec's tail, whole (a copy cut to 15 was what errors named) */
		char *log = NULL, src[4096];
		snprintf(src, sizeof(src), "%.*s", (int)(n - 5), spec + 5);
		r = il_kgov_build(src, rel, NULL, path, size, &log, err);
		if (r < 0 && log)
			fprintf(stderr, "%s", log);
		free(log);
	} else {
		snprintf(path, size, "%s", spec);
	}
	bool built = r == 0;
	if (built)
		r = probe(spec, path, err);
	/* kept: what built, whether its probe passed or not (a build error is not kept) */
	if (built && nresolved < 16 && strlen(spec) < sizeof(resolved[0].spec)) {
		snprintf(resolved[nresolved].spec, sizeof(resolved[0].spec), "%s", spec);
		snprintf(resolved[nresolved].path, sizeof(resolved[0].path), "%s", path);
		resolved[nresolved].r = r;
		if (r && err)
			resolved[nresolved].err = *err;
		nresolved++;
	}
	pthread_mutex_unlock(&cache_lock);
	return r;
}

/* The largest object copied: a governor's is tens of KB. */
#define KGOV_OBJ_MAX (256 << 20)

/* dlopen a private copy of path. */
static void *open_copy(const char *path, struct il_err *err)
{
	char tmp[4096];
	/* O_NONBLOCK: a FIFO does not block the open (it is refused below) */
	int in = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (in < 0) {
		il_err_set(err, errno, "%s: %s", path, strerror(errno));
		return NULL;
	}
	/*
	 * Only a regular file of an object's size is copied: /dev/zero or a
	 * FIFO would be copied into TMPDIR without end.
	 */
	struct stat st;
	if (fstat(in, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > KGOV_OBJ_MAX) {
		if (fstat(in, &st) < 0)
			il_err_set(err, errno, "%s: %s", path, strerror(errno));
		else if (!S_ISREG(st.st_mode))
			il_err_set(err, EINVAL, "%s: not a regular file: not a governor object", path);
		else
			il_err_set(err, EFBIG, "%s: more than %d MiB: not a governor object", path,
				   KGOV_OBJ_MAX >> 20);
		close(in);
		return NULL;
	}
	snprintf(tmp, sizeof(tmp), "%s/idlelab-kgov-XXXXXX.so", il_tmp_dir());
	int out = mkostemps(tmp, 3, O_CLOEXEC);
	if (out < 0) {
		il_err_set(err, errno, "%s: cannot create: %s", tmp, strerror(errno));
		close(in);
		return NULL;
	}
	char buf[65536];
	ssize_t n;
	off_t total = 0;
	int ok = 1;
	while ((n = read(in, buf, sizeof(buf))) > 0 && ok) {
		if (write(out, buf, (size_t)n) != n)
			ok = 0;
		/* it grew while being read */
		if ((total += n) > KGOV_OBJ_MAX)
			ok = 0;
	}
	if (n < 0)
		ok = 0;
	close(in);
	if (close(out) < 0)
		ok = 0;
	void *dl = NULL;
	if (!ok)
		il_err_set(err, EIO, "%s: cannot copy to %s", path, tmp);
	else if (!(dl = dlopen(tmp, RTLD_NOW | RTLD_LOCAL)))
		il_err_set(err, ENOEXEC, "%s: cannot load: %s", path, dlerror());
	unlink(tmp);
	return dl;
}

static void probe_log(void *data, int level, const char *msg)
{
	(void)data; (void)level; (void)msg;   /* the real load prints them */
}

/*
 * Load, init, exit and unload the object once in a watched child before
 * the first load in this process: the object's constructors, initcall,
 * exit and destructors run the user's code outside select and reflect,
 * and a crash or a loop there would end or hang idlelab itself. 0 when
 * the child ended (an init error is said by the real load), else the
 * watch's sentence in err.
 */
static int probe(const char *spec, const char *path, struct il_err *err)
{
	struct il_gov_watch *w = il_gov_watch_map();
	char msg[256];
	int status = 0;

	if (!w)
		return il_err_set(err, errno, "cannot map shared memory for a governor's watch: %s",
				  strerror(errno));
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		il_gov_watch_unmap(w);
		return il_err_set(err, e, "fork: %s", strerror(e));
	}
	if (pid == 0) {
		struct il_err e;
		struct kapi_host host = { probe_log, host_poll_time, NULL };
		il_gov_watch_child(w, 0);
		w->in_call = IL_GOV_IN_LOAD;
		void *dl = open_copy(path, &e);
		const struct kapi_module *m = dl ? dlsym(dl, "kapi_module") : NULL;
		if (m && m->abi_version == KAPI_ABI_VERSION && m->init(&host, 1, msg, sizeof(msg)) >= 0)
			m->exit();
		if (dl)
			dlclose(dl);
		w->in_call = 0;
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	int v = il_gov_watch_verdict(w, status, spec, msg, sizeof(msg));
	il_gov_watch_unmap(w);
	return v < 0 ? il_err_set(err, ECHILD, "%s", msg) : 0;
}

static struct il_gov *kgov_load(const char *spec, int ncpus, struct il_err *err)
{
	char path[4096], msg[256] = "";
	struct il_gov *gov = NULL;
	struct kgov_inst *k = NULL;

	if (strlen(spec) >= sizeof(gov->spec)) {
		il_err_set(err, ENAMETOOLONG, "governor '%s': name over %zu characters", spec,
			   sizeof(gov->spec) - 1);
		return NULL;
	}
	if (ncpus < 1) {
		il_err_set(err, EINVAL, "governor needs at least one CPU");
		return NULL;
	}
	if (resolve(spec, path, sizeof(path), err))
		return NULL;
	gov = calloc(1, sizeof(*gov));
	k = calloc(1, sizeof(*k));
	if (!gov || !k || !(gov->cpu_data = calloc((size_t)ncpus, 1))) {
		il_err_set(err, ENOMEM, "out of memory");
		goto fail;
	}
	k->ncpus = ncpus;
	snprintf(k->name, sizeof(k->name), "?");
	if (!(k->dl = open_copy(path, err)))
		goto fail;
	k->m = dlsym(k->dl, "kapi_module");
	if (!k->m) {
		il_err_set(err, ENOEXEC, "%s: not a governor object (no kapi_module: build it with "
			   "`idlelab governor build`)", path);
		goto fail;
	}
	if (k->m->abi_version != KAPI_ABI_VERSION) {
		il_err_set(err, ENOEXEC, "%s: built for layer ABI %d, this idlelab has %d: rebuild it",
			   path, k->m->abi_version, KAPI_ABI_VERSION);
		goto fail;
	}
	k->host = (struct kapi_host){ host_log, host_poll_time, k };
	int r = k->m->init(&k->host, ncpus, msg, sizeof(msg));
	if (r < 0) {
		il_err_set(err, -r, "%s: %s", path, msg);
		goto fail;
	}
	snprintf(k->name, sizeof(k->name), "%s", k->m->name());
	snprintf(k->text, sizeof(k->text), "loaded from %.140s", path);
	k->preset = (struct il_gov_preset){ "file", 0, k->text };
	k->ops = (struct il_gov_ops){
		.name = k->name,
		.rating = k->m->rating(),
		.presets = &k->preset,
		.npresets = 1,
		.config_size = sizeof(*k),
		.cpu_data_size = 0,
		.configure = k_configure,
		.set_param = k_set_param,
		.enable = k_enable,
		.select = k_select,
		.reflect = k_reflect,
		.describe_extra = k_describe,
		.release = k_release,
	};
	gov->ops = &k->ops;
	gov->preset = &k->preset;
	gov->config = k;
	gov->ncpus = ncpus;
	snprintf(gov->spec, sizeof(gov->spec), "%s", spec);
	return gov;
fail:
	if (k && k->m && k->m->abi_version == KAPI_ABI_VERSION)
		k->m->exit();
	if (k && k->dl)
		dlclose(k->dl);
	free(k);
	if (gov)
		free(gov->cpu_data);
	free(gov);
	return NULL;
}

int il_kgov_object(const char *spec, char *path, size_t size, struct il_err *err)
{
	return resolve(spec, path, size, err) ? -1 : 0;
}

void il_kgov_install(void)
{
	il_gov_set_loader(kgov_load, il_kgov_is_file_spec);
}
