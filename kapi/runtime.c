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
/* the inputs of enable, which the kernel calls outside the idle loop */
static struct il_idle_inputs no_inputs = { .tick_nsec = 4000000, .true_idle_ns = -1 };

int cpuidle_register_governor(struct cpuidle_governor *gov)
{
	if (!gov || !gov->select)
		return -EINVAL;
	registered = gov;
	nregistered++;
	return 0;
}

u64 cpuidle_poll_time(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	return host->poll_time(host->host_data, drv, dev, kapi_tick_nsec);
}

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
	for (kapi_initcall_t *fn = __start_kapi_initcall; fn && fn < __stop_kapi_initcall; fn++) {
		int r = (*fn)();
		if (r < 0) {
			snprintf(err, errsize, "an initcall failed with %d", r);
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

static int mod_enable(const struct il_driver *drv, struct il_device *dev)
{
	kapi_cpu = dev->cpu;
	no_inputs.tick_nsec = kapi_tick_nsec;
	kapi_in = &no_inputs;
	if (!registered->enable)
		return 0;
	return registered->enable((struct cpuidle_driver *)drv, dev);
}

static int mod_select(const struct il_driver *drv, struct il_device *dev,
		      const struct il_idle_inputs *in, bool *stop_tick)
{
	kapi_cpu = dev->cpu;
	kapi_in = in;
	kapi_tick_nsec = (long)in->tick_nsec;
	return registered->select((struct cpuidle_driver *)drv, dev, stop_tick);
}

static void mod_reflect(struct il_device *dev, int index, const struct il_idle_inputs *in)
{
	if (!registered->reflect)
		return;
	kapi_cpu = dev->cpu;
	kapi_in = in;
	kapi_tick_nsec = (long)in->tick_nsec;
	registered->reflect(dev, index);
}

static void mod_exit(void)
{
	free(kapi_percpu_base);
	kapi_percpu_base = NULL;
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
