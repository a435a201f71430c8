/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * idlelab's kernel-API layer: what a cpuidle governor file of the kernel
 * uses, written from the documented interfaces (Documentation/driver-api/pm/
 * cpuidle.rst, the kernel-doc of include/linux/cpuidle.h, tick.h, math64.h,
 * minmax.h, percpu-defs.h, moduleparam.h), mapped onto the state idlelab's
 * core keeps. Every linux/... header of the layer includes this one.
 *
 * The mapping (docs/own-governor.md):
 *  - struct cpuidle_device/driver/state/state_usage ARE idlelab's
 *    struct il_device/il_driver/il_state/il_state_usage, which keep the
 *    kernel's field names and types: a governor reads the very device the
 *    core accounts into, with no copy.
 *  - the tick, scheduler, clock and PM QoS helpers return the fields of the
 *    struct il_idle_inputs idlelab hands every governor for the call.
 *  - HZ and TICK_NSEC are the run's values (run-time, not constants).
 *  - per-CPU variables live in a section of their own; each governor
 *    instance gets ncpus copies of it.
 */
#ifndef KAPI_KAPI_H
#define KAPI_KAPI_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "idlelab/device.h"
#include "idlelab/governor.h"
#include "idlelab/state.h"

#define KAPI_HIDDEN __attribute__((visibility("hidden")))

/* ---- types ---- */
typedef signed char s8;
typedef unsigned char u8;
typedef short s16;
typedef unsigned short u16;
typedef int s32;
typedef unsigned int u32;
typedef long long s64;
typedef unsigned long long u64;
typedef s64 ktime_t;
typedef u8 __u8;
typedef u16 __u16;
typedef u32 __u32;
typedef u64 __u64;
typedef s32 __s32;
typedef s64 __s64;

/* ---- limits ---- */
#define U8_MAX ((u8)~0U)
#define U16_MAX ((u16)~0U)
#define U32_MAX ((u32)~0U)
#define S32_MAX ((s32)(U32_MAX >> 1))
#define S32_MIN ((s32)(-S32_MAX - 1))
#define U64_MAX ((u64)~0ULL)
#define S64_MAX ((s64)(U64_MAX >> 1))
#define S64_MIN ((s64)(-S64_MAX - 1))

/* ---- compiler ---- */
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define __init
#define __exit
#define __initdata
#define __read_mostly
#define __cpuidle
#undef __always_inline
#define __always_inline inline __attribute__((always_inline))
#define noinline __attribute__((noinline))
#define __maybe_unused __attribute__((unused))
#define __always_unused __attribute__((unused))
#define __must_check __attribute__((warn_unused_result))
#define fallthrough __attribute__((fallthrough))
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) do { *(volatile __typeof__(x) *)&(x) = (v); } while (0)
#define barrier() __asm__ __volatile__("" ::: "memory")
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BUILD_BUG_ON(c) _Static_assert(!(c), "BUILD_BUG_ON: " #c)
#define container_of(p, type, member) ((type *)((char *)(p) - offsetof(type, member)))
#define BIT(n) (1UL << (n))
#define BIT_ULL(n) (1ULL << (n))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define IS_ENABLED(option) 0

/* ---- min, max, clamp: once-evaluated, the comparison in C's usual conversions ---- */
#define kapi_cmp_(a, b, op) ({ __auto_type _ka = (a); __auto_type _kb = (b); \
			      _ka op _kb ? _ka : _kb; })
#define min(a, b) kapi_cmp_(a, b, <)
#define max(a, b) kapi_cmp_(a, b, >)
#define min_t(t, a, b) kapi_cmp_((t)(a), (t)(b), <)
#define max_t(t, a, b) kapi_cmp_((t)(a), (t)(b), >)
#define umin(a, b) min_t(u64, a, b)
#define umax(a, b) max_t(u64, a, b)
#define min3(a, b, c) min(min(a, b), c)
#define max3(a, b, c) max(max(a, b), c)
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define clamp_t(t, v, lo, hi) min_t(t, max_t(t, v, lo), hi)
#define clamp_val(v, lo, hi) clamp_t(__typeof__(v), v, lo, hi)
#define swap(a, b) do { __auto_type _kt = (a); (a) = (b); (b) = _kt; } while (0)
#define abs(x) ({ __auto_type _kx = (x); _kx < 0 ? -_kx : _kx; })

/* ---- time ---- */
#define MSEC_PER_SEC 1000L
#define USEC_PER_MSEC 1000L
#define NSEC_PER_USEC 1000L
#define NSEC_PER_MSEC 1000000L
#define USEC_PER_SEC 1000000L
#define NSEC_PER_SEC 1000000000L
#define KTIME_MAX ((s64)~((u64)1 << 63))
#define KTIME_MIN (-KTIME_MAX - 1)
#define KTIME_SEC_MAX (KTIME_MAX / NSEC_PER_SEC)

static inline s64 ktime_to_ns(const ktime_t kt) { return kt; }
static inline ktime_t ns_to_ktime(u64 ns) { return (ktime_t)ns; }
static inline s64 ktime_divns(const ktime_t kt, s64 div) { return kt / div; }
static inline s64 ktime_to_us(const ktime_t kt) { return kt / NSEC_PER_USEC; }
static inline s64 ktime_to_ms(const ktime_t kt) { return kt / NSEC_PER_MSEC; }
static inline ktime_t us_to_ktime(u64 us) { return (ktime_t)(us * NSEC_PER_USEC); }
static inline ktime_t ms_to_ktime(u64 ms) { return (ktime_t)(ms * NSEC_PER_MSEC); }
#define ktime_add(a, b) ((a) + (b))
#define ktime_sub(a, b) ((a) - (b))
#define ktime_add_ns(kt, ns) ((kt) + (ns))
#define ktime_sub_ns(kt, ns) ((kt) - (ns))
#define ktime_compare(a, b) ((a) < (b) ? -1 : (a) > (b) ? 1 : 0)
#define ktime_after(a, b) ((a) > (b))
#define ktime_before(a, b) ((a) < (b))
static inline s64 ktime_us_delta(ktime_t later, ktime_t earlier)
{
	return ktime_to_us(later - earlier);
}

/* ---- math64 ---- */
static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = (u32)(dividend % divisor);
	return dividend / divisor;
}
static inline u64 div_u64(u64 dividend, u32 divisor) { return dividend / divisor; }
static inline s64 div_s64(s64 dividend, s32 divisor) { return dividend / divisor; }
static inline u64 div64_u64(u64 dividend, u64 divisor) { return dividend / divisor; }
static inline s64 div64_s64(s64 dividend, s64 divisor) { return dividend / divisor; }
static inline u64 div64_ul(u64 dividend, unsigned long divisor) { return dividend / divisor; }
static inline u64 div64_u64_rem(u64 dividend, u64 divisor, u64 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}
static inline u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * mul) >> shift);
}
static inline u64 mul_u64_u64_div_u64(u64 a, u64 b, u64 c)
{
	return (u64)(((unsigned __int128)a * b) / c);
}
/* do_div: divides the u64 lvalue n in place, gives the u32 remainder */
#define do_div(n, base) ({ u32 _kb = (base); u32 _kr = (u32)((n) % _kb); \
			   (n) = (n) / _kb; _kr; })
#define DIV64_U64_ROUND_UP(ll, d) ({ u64 _kd = (d); div64_u64((ll) + _kd - 1, _kd); })
#define DIV_ROUND_CLOSEST(x, d) (((x) + ((d) / 2)) / (d))

/* ---- the call's context, set by idlelab before each callback ---- */
extern const struct il_idle_inputs *kapi_in KAPI_HIDDEN;
extern int kapi_cpu KAPI_HIDDEN;
extern long kapi_tick_nsec KAPI_HIDDEN;
extern int kapi_ncpus KAPI_HIDDEN;

/* HZ and TICK_NSEC are the run's values */
#define TICK_NSEC kapi_tick_nsec
#define HZ ((int)((NSEC_PER_SEC + kapi_tick_nsec / 2) / kapi_tick_nsec))
#define jiffies ((unsigned long)(local_clock() / (u64)kapi_tick_nsec))
#define jiffies_64 ((u64)jiffies)
static inline unsigned int jiffies_to_usecs(unsigned long j) { return (unsigned int)(j * (unsigned long)kapi_tick_nsec / NSEC_PER_USEC); }
static inline unsigned int jiffies_to_msecs(unsigned long j) { return (unsigned int)(j * (unsigned long)kapi_tick_nsec / NSEC_PER_MSEC); }
static inline unsigned long usecs_to_jiffies(unsigned int u) { return DIV_ROUND_UP((unsigned long)u * NSEC_PER_USEC, (unsigned long)kapi_tick_nsec); }
static inline unsigned long msecs_to_jiffies(unsigned int m) { return DIV_ROUND_UP((unsigned long)m * NSEC_PER_MSEC, (unsigned long)kapi_tick_nsec); }
static inline u64 jiffies_to_nsecs(unsigned long j) { return (u64)j * (u64)kapi_tick_nsec; }

/* ---- sched, tick, clock, PM QoS: the inputs of the call ---- */
static inline int smp_processor_id(void) { return kapi_cpu; }
#define raw_smp_processor_id() smp_processor_id()
static inline u64 local_clock(void) { return kapi_in->clock_ns; }
static inline u64 sched_clock(void) { return kapi_in->clock_ns; }
static inline u64 ktime_get_ns(void) { return kapi_in->clock_ns; }
static inline ktime_t ktime_get(void) { return (ktime_t)kapi_in->clock_ns; }
static inline ktime_t tick_nohz_get_sleep_length(ktime_t *delta_next)
{
	*delta_next = kapi_in->delta_tick_ns;
	return kapi_in->sleep_length_ns;
}
static inline bool tick_nohz_tick_stopped(void) { return kapi_in->tick_stopped; }
static inline bool tick_nohz_idle_got_tick(void) { return kapi_in->got_tick; }
extern bool tick_nohz_enabled KAPI_HIDDEN;
static inline unsigned int nr_iowait_cpu(int cpu) { (void)cpu; return kapi_in->nr_iowait; }
#define SCHED_CAPACITY_SHIFT 10
#define SCHED_CAPACITY_SCALE (1L << SCHED_CAPACITY_SHIFT)
/* idlelab knows whether the CPU counts as utilized: full capacity or none */
static inline unsigned long sched_cpu_util(int cpu)
{
	(void)cpu;
	return kapi_in->cpu_utilized ? SCHED_CAPACITY_SCALE : 0;
}
static inline unsigned long arch_scale_cpu_capacity(int cpu) { (void)cpu; return SCHED_CAPACITY_SCALE; }
#if defined(LINUX_VERSION_CODE) && LINUX_VERSION_CODE < 0x050600
/* an int in µs before c1d51f684c72 (v5.6) */
static inline int cpuidle_governor_latency_req(unsigned int cpu)
{
	(void)cpu;
	return il_latency_req_us(kapi_in->latency_req_ns);
}
#else
static inline s64 cpuidle_governor_latency_req(unsigned int cpu)
{
	(void)cpu;
	return kapi_in->latency_req_ns;
}
#endif
static inline bool kvm_para_available(void) { return true; }
static inline unsigned int num_possible_cpus(void) { return (unsigned int)kapi_ncpus; }
#define nr_cpu_ids ((unsigned int)kapi_ncpus)

/* ---- per-CPU variables: ncpus copies of section kapi_percpu per instance ---- */
extern char __start_kapi_percpu[] __attribute__((weak)) KAPI_HIDDEN;
extern char *kapi_percpu_base KAPI_HIDDEN;
extern size_t kapi_percpu_stride KAPI_HIDDEN;
#define DEFINE_PER_CPU(type, name) __attribute__((section("kapi_percpu"))) __typeof__(type) name
#define DECLARE_PER_CPU(type, name) extern __typeof__(type) name
#define per_cpu_ptr(ptr, cpu) ((__typeof__(ptr))(kapi_percpu_base + \
	(size_t)(cpu) * kapi_percpu_stride + ((char *)(ptr) - __start_kapi_percpu)))
#define per_cpu(var, cpu) (*per_cpu_ptr(&(var), cpu))
#define this_cpu_ptr(ptr) per_cpu_ptr(ptr, kapi_cpu)
#define raw_cpu_ptr(ptr) this_cpu_ptr(ptr)
#define __this_cpu_read(var) (*this_cpu_ptr(&(var)))
#define this_cpu_read(var) __this_cpu_read(var)
#define __this_cpu_write(var, v) (*this_cpu_ptr(&(var)) = (v))
#define this_cpu_write(var, v) __this_cpu_write(var, v)
#define for_each_possible_cpu(c) for ((c) = 0; (c) < kapi_ncpus; (c)++)
#define for_each_online_cpu(c) for_each_possible_cpu(c)

#define TICK_USEC ((unsigned long)((USEC_PER_SEC + HZ / 2) / HZ))
#define DIV_ROUND_CLOSEST_ULL(x, d) ({ u32 _kd = (d); div_u64((u64)(x) + _kd / 2, _kd); })

/*
 * ---- cpuidle ----
 * From v5.6 on (and without --kernel): idlelab's own structures under the
 * kernel's names. Before (--kernel 5.4, 5.5): the µs views of that era, in
 * structures of their own that the runtime fills from idlelab's before
 * each call (exit_latency, target_residency as il_state_el_us/tr_us give
 * them, a state's driver-level "disabled", the device's int
 * last_residency in µs) and copies the governor's fields back from after.
 */
#if defined(LINUX_VERSION_CODE) && LINUX_VERSION_CODE < 0x050600
#define KAPI_US_VIEWS 1
#define cpuidle_state_usage il_state_usage
struct cpuidle_state {
	char name[IL_NAME_LEN];
	char desc[IL_DESC_LEN];
	unsigned int flags;
	unsigned int exit_latency;     /* µs */
	int power_usage;
	unsigned int target_residency; /* µs */
	bool disabled;                 /* by the driver */
};
struct cpuidle_driver {
	const char *name;
	struct cpuidle_state states[IL_STATE_MAX];
	int state_count;
	int safe_state_index;
	bool bctimer;
};
struct cpuidle_device {
	unsigned int registered:1;
	unsigned int enabled:1;
	unsigned int poll_time_limit:1;
	unsigned int cpu;
	int last_residency;            /* µs */
	u64 poll_limit_ns;
	int last_state_idx;
	struct cpuidle_state_usage states_usage[IL_STATE_MAX];
};
#else
#define cpuidle_device il_device
#define cpuidle_driver il_driver
#define cpuidle_state il_state
#define cpuidle_state_usage il_state_usage
#endif
#define CPUIDLE_STATE_MAX IL_STATE_MAX
#define CPUIDLE_NAME_LEN IL_NAME_LEN
#define CPUIDLE_DESC_LEN IL_DESC_LEN
#define CPUIDLE_FLAG_NONE 0
#define CPUIDLE_FLAG_POLLING IL_FLAG_POLLING
#define CPUIDLE_FLAG_COUPLED IL_FLAG_COUPLED
#define CPUIDLE_FLAG_TIMER_STOP IL_FLAG_TIMER_STOP
#define CPUIDLE_FLAG_UNUSABLE IL_FLAG_UNUSABLE
#define CPUIDLE_FLAG_OFF IL_FLAG_OFF
#define CPUIDLE_FLAG_TLB_FLUSHED IL_FLAG_TLB_FLUSHED
#define CPUIDLE_FLAG_RCU_IDLE IL_FLAG_RCU_IDLE
#define CPUIDLE_STATE_DISABLED_BY_USER IL_DISABLE_BY_USER
#define CPUIDLE_STATE_DISABLED_BY_DRIVER IL_DISABLE_BY_DRIVER
#define CPUIDLE_POLL_MIN IL_CPUIDLE_POLL_MIN_NS

struct list_head {
	struct list_head *next, *prev;
};

struct cpuidle_governor {
	char name[CPUIDLE_NAME_LEN];
	struct list_head governor_list;
	unsigned int rating;
	int (*enable)(struct cpuidle_driver *drv, struct cpuidle_device *dev);
	void (*disable)(struct cpuidle_driver *drv, struct cpuidle_device *dev);
	int (*select)(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick);
	void (*reflect)(struct cpuidle_device *dev, int index);
};

int cpuidle_register_governor(struct cpuidle_governor *gov) KAPI_HIDDEN;
u64 cpuidle_poll_time(struct cpuidle_driver *drv, struct cpuidle_device *dev) KAPI_HIDDEN;

/* ---- printk ---- */
#define KERN_SOH "\001"
#define KERN_EMERG KERN_SOH "0"
#define KERN_ALERT KERN_SOH "1"
#define KERN_CRIT KERN_SOH "2"
#define KERN_ERR KERN_SOH "3"
#define KERN_WARNING KERN_SOH "4"
#define KERN_NOTICE KERN_SOH "5"
#define KERN_INFO KERN_SOH "6"
#define KERN_DEBUG KERN_SOH "7"
#define KERN_DEFAULT ""
#define KERN_CONT KERN_SOH "c"
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
int printk(const char *fmt, ...) __attribute__((format(printf, 1, 2))) KAPI_HIDDEN;
#define pr_emerg(fmt, ...) printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...) printk(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...) printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...) printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...) printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...) printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...) printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...) printk(KERN_CONT fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) do { if (0) printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__); } while (0)
#define pr_info_once pr_info
#define pr_warn_once pr_warn
#define WARN_ON(c) ({ bool _kc = !!(c); if (unlikely(_kc)) \
	printk(KERN_WARNING "WARN_ON(%s) at %s:%d\n", #c, __FILE__, __LINE__); _kc; })
#define WARN_ON_ONCE(c) WARN_ON(c)
#define WARN_ONCE(c, fmt, ...) ({ bool _kc = !!(c); if (unlikely(_kc)) \
	printk(KERN_WARNING fmt, ##__VA_ARGS__); _kc; })

/* ---- modules, parameters, initcalls ---- */
enum kapi_param_type {
	kapi_param_bool, kapi_param_int, kapi_param_uint, kapi_param_long,
	kapi_param_ulong, kapi_param_short, kapi_param_ushort, kapi_param_ullong,
	kapi_param_byte,
};
struct kapi_param {
	const char *name;
	void *var;
	enum kapi_param_type type;
	size_t size;
};
#define kapi_param_invbool kapi_param_bool
#define kapi_param__Bool kapi_param_bool /* "bool" is a macro of <stdbool.h> */
#define module_param_named(name, var, type, perm) \
	static struct kapi_param __kapi_param_##name \
	__attribute__((used, section("kapi_param"), aligned(8))) = \
	{ #name, &(var), kapi_param_##type, sizeof(var) }
#define module_param(name, type, perm) module_param_named(name, name, type, perm)
#define MODULE_PARM_DESC(name, text) struct kapi_unused_
#define MODULE_LICENSE(s) struct kapi_unused_
#define MODULE_AUTHOR(s) struct kapi_unused_
#define MODULE_DESCRIPTION(s) struct kapi_unused_
#define MODULE_ALIAS(s) struct kapi_unused_
#define EXPORT_SYMBOL(s) struct kapi_unused_
#define EXPORT_SYMBOL_GPL(s) struct kapi_unused_
#define THIS_MODULE ((void *)0)

typedef int (*kapi_initcall_t)(void);
#define kapi_initcall_(fn) \
	static kapi_initcall_t __kapi_initcall_##fn \
	__attribute__((used, section("kapi_initcall"), aligned(8))) = fn
#define early_initcall(fn) kapi_initcall_(fn)
#define pure_initcall(fn) kapi_initcall_(fn)
#define core_initcall(fn) kapi_initcall_(fn)
#define postcore_initcall(fn) kapi_initcall_(fn)
#define arch_initcall(fn) kapi_initcall_(fn)
#define subsys_initcall(fn) kapi_initcall_(fn)
#define fs_initcall(fn) kapi_initcall_(fn)
#define device_initcall(fn) kapi_initcall_(fn)
#define late_initcall(fn) kapi_initcall_(fn)
#define module_init(fn) kapi_initcall_(fn)
#define module_exit(fn) static void (*__kapi_exit_##fn)(void) __attribute__((used)) = fn

/* ---- trace points: no tracing here ---- */
#define trace_guest_halt_poll_ns_grow(...) do { } while (0)
#define trace_guest_halt_poll_ns_shrink(...) do { } while (0)
#define trace_cpu_idle(...) do { } while (0)
#define trace_cpu_idle_miss(...) do { } while (0)

#endif
