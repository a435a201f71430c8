// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: sysfs attribute contents and --cpu lists.
 * Feeds the input to the counter parser (il_sysfs_parse_u64) and the text
 * parser (il_sysfs_parse_str) exactly as a file's bytes, and, NUL-terminated,
 * to the CPU-list parser. Checks the properties the reader relies on.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/sysfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	uint64_t v = 0;
	int r;

	r = il_sysfs_parse_u64(buf, size, &v);
	if (r != 0 && r != -EINVAL && r != -ERANGE)
		abort();
	if (r == 0) {
		/* a parsed counter prints back as the input minus its newline */
		char out[32];
		size_t n = size && buf[size - 1] == '\n' ? size - 1 : size;
		int len = snprintf(out, sizeof(out), "%llu", (unsigned long long)v);
		size_t lead = 0;
		while (lead + 1 < n && buf[lead] == '0')
			lead++;
		if ((size_t)len != n - lead || memcmp(out, buf + lead, n - lead))
			abort();
	}

	char *s = il_sysfs_parse_str(buf, size);
	if (s && strlen(s) > size)
		abort();
	free(s);

	if (size < 4096) {
		char *z = malloc(size + 1);
		struct il_cpulist l;
		struct il_err err;
		if (!z)
			return 0;
		memcpy(z, data, size);
		z[size] = '\0';
		if (il_cpulist_parse(z, &l, &err) == 0) {
			for (int i = 1; i < l.n; i++)
				if (l.cpus[i - 1] >= l.cpus[i])
					abort();
			for (int i = 0; i < l.n; i++)
				if (!il_cpulist_has(&l, l.cpus[i]))
					abort();
			il_cpulist_free(&l);
		}
		free(z);
	}
	return 0;
}
