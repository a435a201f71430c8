/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Durations as users write them: in spec strings ("menu+poll-escape=20us"),
 * platform files, workload and engine options, and on the command line.
 */
#ifndef IDLELAB_DURATION_H
#define IDLELAB_DURATION_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Parse "20us", "15000", "15000ns", "1.5ms", "2s" (units ns, us, µs, ms,
 * s; none means ns; a fraction is rounded to the nearest ns) into *ns.
 * Returns 0, -EINVAL for text that is not a duration, -ERANGE when it does
 * not fit in an int64_t.
 */
int il_parse_duration_ns(const char *text, int64_t *ns);
/*
 * The same, but with bare_us a bare number ("80", "1.5", "+80", "1e3":
 * any number without a unit) is in µs, 0 up to 10^12 µs, as workload
 * options read them. -EINVAL for a bare number outside that range.
 */
int il_parse_duration(const char *text, bool bare_us, int64_t *ns);

#ifdef __cplusplus
}
#endif

#endif
