// SPDX-License-Identifier: GPL-2.0-only
/*
 * menu of Linux 6.12 deciding on the idle states intel_idle builds for a
 * Skylake client, through the installed library:
 *
 *   cc menu-demo.c $(pkg-config --cflags --libs idlelab) -o menu-demo
 *
 * Each idle period goes through select, the core's accounting and reflect,
 * as in the kernel's cpuidle_idle_call(), with the inputs a replay log
 * holds (docs/replay.md): the sleep length, the time to the next tick, how
 * long the CPU then slept and whether the tick woke it. A timer is due at
 * 4 ms; at first the tick wakes the CPU, then an interrupt every 40 us.
 * The periods are those of a kernel with HZ=1000 (a 1 ms tick), whatever
 * the platform file's own CONFIG_HZ.
 */
#include <stdio.h>

#include <idlelab/drivers.h>
#include <idlelab/governor.h>

static const struct period {
	int sleep_us, tick_us, slept_us, got_tick;
} periods[] = {
	{ 4000, 1000, 1000, 1 }, { 3000, 1000, 1000, 1 }, { 2000, 1000, 1000, 1 },
	{ 1000, 1000, 40, 0 }, { 960, 960, 40, 0 }, { 920, 920, 40, 0 }, { 880, 880, 40, 0 },
	{ 840, 840, 40, 0 }, { 800, 800, 40, 0 }, { 760, 760, 40, 0 }, { 720, 720, 40, 0 },
};

int main(void)
{
	struct il_platform plat;
	struct il_machine_idle mi;
	struct il_device dev;
	struct il_err err;
	struct il_gov *gov = NULL;

	if (il_platform_load(&plat, "intel-skylake-client", &err) < 0 ||
	    il_machine_idle_build(&plat, "6.12", &mi, &err) < 0 ||
	    !(gov = il_gov_new("menu@6.12", 1, &err))) {
		fprintf(stderr, "menu-demo: %s\n", err.msg);
		return 1;
	}
	il_device_init(&dev, &mi.drv, 0);
	il_gov_enable(gov, 0, &mi.drv, &dev);
	for (size_t i = 0; i < sizeof(periods) / sizeof(periods[0]); i++) {
		const struct period *p = &periods[i];
		struct il_idle_inputs in = {
			.sleep_length_ns = p->sleep_us * 1000LL, .delta_tick_ns = p->tick_us * 1000LL,
			.latency_req_ns = 2000000000000, .tick_nsec = il_tick_nsec(1000),
			.true_idle_ns = -1,
		};
		bool stop_tick = true;
		int idx = il_gov_select(gov, 0, &mi.drv, &dev, &in, &stop_tick);

		il_account_enter(&mi.drv, &dev, idx, idx, p->slept_us * 1000LL);
		in.got_tick = p->got_tick;
		il_gov_reflect(gov, 0, &mi.drv, &dev, idx, &in);
		printf("%2zu sleep %4d us: state %d %-4s %s tick, slept %4d us\n", i, p->sleep_us,
		       idx, mi.drv.states[idx].name, stop_tick ? "stop" : "keep", p->slept_us);
	}
	il_gov_free(gov);
	return 0;
}
