// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run-time half of idlelab's kernel-API layer, compiled into every
 * governor object that `idlelab governor build` makes. It keeps the call's
 * context (CPU, idle inputs, TICK_NSEC), the per-CPU areas, the registered
 * governor and the module parameters, runs the initcalls, and exports
 * struct kapi_module, the one symbol idlelab looks up (kapi/abi.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <kapi/abi.h>
#include <kapi/kapi.h>

const struct il_idle_inputs *kapi_in;
int kapi_cpu;
long kapi_tick_nsec = 4000000; /* HZ=250 until the first call says otherwise */
int kapi_ncpus;
bool tick_nohz_enabled = true;
char *kapi_percpu_base;
size_t kapi_percpu_stride;

extern char __stop_kapi_percpu[] __attribute__((weak)) KAPI_HIDDEN;
extern kapi_initcall_t __start_kapi_initcall[] __attribute__((weak)) KAPI_HIDDEN;
extern kapi_initcall_t __stop_kapi_initcall[] __attribute__((weak)) KAPI_HIDDEN;
extern struct kapi_param __start_kapi_param[] __attribute__((weak)) KAPI_HIDDEN;
extern struct kapi_param __stop_kapi_param[] __attribute__((weak)) KAPI_HIDDEN;

static const struct kapi_host *host;
static struct cpuidle_governor *registered;
static int nregistered;
static const char *refused;   /* why cpuidle_register_governor() refused, else NULL */
/* the inputs of enable, which the kernel calls outside the idle loop */
static struct il_idle_inputs no_inputs = { .tick_nsec = 4000000, .true_idle_ns = -1 };

int cpuidle_register_governor(struct cpuidle_governor *gov)
{
	/* the kernel's refusal, kept to say why the initcall failed */
	if (!gov || !gov->select) {
		refused = !gov ? "cpuidle_register_governor(NULL)"
			       : "cpuidle_register_governor(): the governor has no .select";
		return -EINVAL;
	}
	registered = gov;
	nregistered++;
	return 0;
}

#ifdef KAPI_US_VIEWS
/* idlelab's driver and device behind the views of the call */
static const struct il_driver *cur_drv;
static struct il_device *cur_dev;

u64 cpuidle_poll_time(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	(void)drv; (void)dev;
	return host->poll_time(host->host_data, cur_drv, cur_dev, kapi_tick_nsec);
}
#else
u64 cpuidle_poll_time(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	return host->poll_time(host->host_data, drv, dev, kapi_tick_nsec);
}
#endif

int printk(const char *fmt, ...)
{
	char msg[512];
	int level = 4; /* the default loglevel */
	va_list ap;

	if (fmt[0] == KERN_SOH[0] && fmt[1]) {
		if (fmt[1] >= '0' && fmt[1] <= '7')
			level = fmt[1] - '0';
		fmt += 2;
	}
	va_start(ap, fmt);
	int n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (host && host->log)
		host->log(host->host_data, level, msg);
	return n;
}

#ifdef KAPI_US_VIEWS
static struct cpuidle_device *us_dev; /* one per CPU */
#endif

static int mod_init(const struct kapi_host *h, int ncpus, char *err, size_t errsize)
{
	host = h;
	kapi_ncpus = ncpus;
	kapi_in = &no_inputs;
	kapi_percpu_stride = (size_t)(__stop_kapi_percpu - __start_kapi_percpu);
	/* per-CPU areas start zeroed, as the kernel's are for a module */
	kapi_percpu_base = calloc((size_t)ncpus, kapi_percpu_stride ? kapi_percpu_stride : 1);
	if (!kapi_percpu_base) {
		snprintf(err, errsize, "out of memory for %d CPUs' per-CPU data", ncpus);
		return -ENOMEM;
	}
#ifdef KAPI_US_VIEWS
	if (!(us_dev = calloc((size_t)ncpus, sizeof(*us_dev)))) {
		snprintf(err, errsize, "out of memory for %d CPUs' devices", ncpus);
		return -ENOMEM;
	}
#endif
	for (kapi_initcall_t *fn = __start_kapi_initcall; fn && fn < __stop_kapi_initcall; fn++) {
		int r = (*fn)();
		if (r < 0) {
			snprintf(err, errsize, "an initcall failed with %d%s%s%s", r,
				 refused ? " (" : "", refused ? refused : "", refused ? ")" : "");
			return r;
		}
	}
	if (nregistered != 1) {
		snprintf(err, errsize, nregistered ? "%d governors registered, expected one"
			 : "no governor registered: the file's initcall must call "
			   "cpuidle_register_governor()", nregistered);
		return -ENOENT;
	}
	return 0;
}

static const char *mod_name(void)
{
	return registered->name;
}

static unsigned int mod_rating(void)
{
	return registered->rating;
}

static const char *mod_param_name(int i)
{
	if (!__start_kapi_param || i < 0 || i >= __stop_kapi_param - __start_kapi_param)
		return NULL;
	return __start_kapi_param[i].name;
}

/* A value as the kernel's param_set_* parse it: kstrto* with base 0, bool y/n/1/0/on/off. */
static int parse_param(const struct kapi_param *p, const char *v, char *err, size_t errsize)
{
	if (p->type == kapi_param_bool) {
		bool b;

		if (!strcmp(v, "y") || !strcmp(v, "Y") || !strcmp(v, "1") || !strcmp(v, "on"))
			b = true;
		else if (!strcmp(v, "n") || !strcmp(v, "N") || !strcmp(v, "0") || !strcmp(v, "off"))
			b = false;
		else
			goto bad;
		if (p->size == sizeof(bool))
			*(bool *)p->var = b;
		else
			*(int *)p->var = b;
		return 0;
	}
	bool is_signed = p->type == kapi_param_int || p->type == kapi_param_long ||
			 p->type == kapi_param_short;
	char *end;
	errno = 0;
	if (!v[0] || (!is_signed && v[0] == '-'))
		goto bad;
	if (is_signed) {
		long long x = strtoll(v, &end, 0);
		long long lo = p->size == 2 ? SHRT_MIN : p->size == 4 ? INT_MIN : LLONG_MIN;
		long long hi = p->size == 2 ? SHRT_MAX : p->size == 4 ? INT_MAX : LLONG_MAX;
		if (errno || (*end && strcmp(end, "\n")) || x < lo || x > hi)
			goto bad;
		if (p->size == 2)
			*(short *)p->var = (short)x;
		else if (p->size == 4)
			*(int *)p->var = (int)x;
		else
			*(long long *)p->var = x;
		return 0;
	}
	unsigned long long x = strtoull(v, &end, 0);
	unsigned long long hi = p->size == 1 ? UCHAR_MAX : p->size == 2 ? USHRT_MAX :
				p->size == 4 ? UINT_MAX : ULLONG_MAX;
	if (errno || (*end && strcmp(end, "\n")) || x > hi)
		goto bad;
	if (p->size == 1)
		*(unsigned char *)p->var = (unsigned char)x;
	else if (p->size == 2)
		*(unsigned short *)p->var = (unsigned short)x;
	else if (p->size == 4)
		*(unsigned int *)p->var = (unsigned int)x;
	else
		*(unsigned long long *)p->var = x;
	return 0;
bad:
	snprintf(err, errsize, "parameter %s: '%s' is not a valid value", p->name, v);
	return -EINVAL;
}

static int mod_set_param(const char *name, const char *value, char *err, size_t errsize)
{
	for (int i = 0; mod_param_name(i); i++)
		if (!strcmp(__start_kapi_param[i].name, name))
			return parse_param(&__start_kapi_param[i], value, err, errsize);
	snprintf(err, errsize, "governor %s has no parameter '%s'", registered->name, name);
	return -ENOENT;
}

#ifdef KAPI_US_VIEWS
/* the µs views of the state table and of each CPU's device */
static struct cpuidle_driver us_drv;

static struct cpuidle_driver *view_driver(const struct il_driver *drv, struct il_device *dev)
{
	cur_drv = drv;
	cur_dev = dev;
	us_drv.name = drv->name;
	us_drv.state_count = drv->state_count;
	us_drv.safe_state_index = drv->safe_state_index;
	us_drv.bctimer = drv->bctimer;
	for (int i = 0; i < drv->state_count && i < IL_STATE_MAX; i++) {
		const struct il_state *s = &drv->states[i];
		struct cpuidle_state *k = &us_drv.states[i];

		memcpy(k->name, s->name, sizeof(k->name));
		memcpy(k->desc, s->desc, sizeof(k->desc));
		k->flags = s->flags;
		k->exit_latency = il_state_el_us(s);
		k->target_residency = il_state_tr_us(s);
		k->power_usage = s->power_usage;
		k->disabled = !!(dev->states_usage[i].disable & IL_DISABLE_BY_DRIVER);
	}
	return &us_drv;
}

static struct cpuidle_device *view_device(const struct il_device *dev)
{
	struct cpuidle_device *k = &us_dev[dev->cpu];

	k->registered = 1;
	k->enabled = dev->enabled;
	k->poll_time_limit = dev->poll_time_limit;
	k->cpu = (unsigned int)dev->cpu;
	k->last_residency = (int)il_device_last_residency_us(dev);
	k->poll_limit_ns = dev->poll_limit_ns;
	k->last_state_idx = dev->last_state_idx;
	for (int i = 0; i < IL_STATE_MAX; i++) {
		k->states_usage[i] = dev->states_usage[i];
		k->states_usage[i].disable &= IL_DISABLE_BY_USER;
	}
	return k;
}

/* what a governor writes in the device */
static void view_back(const struct cpuidle_device *k, struct il_device *dev)
{
	dev->last_state_idx = k->last_state_idx;
	dev->poll_limit_ns = k->poll_limit_ns;
	dev->poll_time_limit = k->poll_time_limit;
}
#define DRV(drv, dev) view_driver(drv, dev)
#define DEV(dev) view_device(dev)
#define BACK(k, dev) view_back(k, dev)
#else
#define DRV(drv, dev) ((struct cpuidle_driver *)(drv))
#define DEV(dev) (dev)
#define BACK(k, dev) ((void)(k), (void)(dev))
#endif

static int mod_enable(const struct il_driver *drv, struct il_device *dev)
{
	kapi_cpu = dev->cpu;
	no_inputs.tick_nsec = kapi_tick_nsec;
	kapi_in = &no_inputs;
	if (!registered->enable)
		return 0;
	struct cpuidle_device *k = DEV(dev);
	int r = registered->enable(DRV(drv, dev), k);
	BACK(k, dev);
	return r;
}

static int mod_select(const struct il_driver *drv, struct il_device *dev,
		      const struct il_idle_inputs *in, bool *stop_tick)
{
	kapi_cpu = dev->cpu;
	kapi_in = in;
	kapi_tick_nsec = (long)in->tick_nsec;
	struct cpuidle_device *k = DEV(dev);
	int r = registered->select(DRV(drv, dev), k, stop_tick);
	BACK(k, dev);
	return r;
}

static void mod_reflect(struct il_device *dev, int index, const struct il_idle_inputs *in)
{
	if (!registered->reflect)
		return;
	kapi_cpu = dev->cpu;
	kapi_in = in;
	kapi_tick_nsec = (long)in->tick_nsec;
	struct cpuidle_device *k = DEV(dev);
	registered->reflect(k, index);
	BACK(k, dev);
}

static void mod_exit(void)
{
	free(kapi_percpu_base);
	kapi_percpu_base = NULL;
#ifdef KAPI_US_VIEWS
	free(us_dev);
	us_dev = NULL;
#endif
}

__attribute__((visibility("default"))) const struct kapi_module kapi_module = {
	.abi_version = KAPI_ABI_VERSION,
	.init = mod_init,
	.name = mod_name,
	.rating = mod_rating,
	.set_param = mod_set_param,
	.param_name = mod_param_name,
	.enable = mod_enable,
	.select = mod_select,
	.reflect = mod_reflect,
	.exit = mod_exit,
};
