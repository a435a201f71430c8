// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the two parsers of governors built from kernel files.
 * The input is a compiler's output for il_kgov_missing_symbols() (the list
 * must stay NUL-terminated within its buffer at every size) and, line by
 * line, module parameter values for the layer's parser (kapi/runtime.c,
 * compiled in here), one parameter of every type; a value the parser takes
 * must be one it gives back the same way a second time.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../src/kgov/kgov.h"
#include "../kapi/runtime.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool p_bool;
static int p_int;
static unsigned int p_uint;
static long p_long;
static unsigned long p_ulong;
static short p_short;
static unsigned short p_ushort;
static unsigned long long p_ullong;
static unsigned char p_byte;
module_param(p_bool, bool, 0644);
module_param(p_int, int, 0644);
module_param(p_uint, uint, 0644);
module_param(p_long, long, 0644);
module_param(p_ulong, ulong, 0644);
module_param(p_short, short, 0644);
module_param(p_ushort, ushort, 0644);
module_param(p_ullong, ullong, 0644);
module_param(p_byte, byte, 0644);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), list[64], err[200];

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (size_t n = 1; n <= sizeof(list); n += 21) {
		memset(list, 'x', sizeof(list));
		il_kgov_missing_symbols(text, n % 2 ? NULL : "/kapi", list, n);
		if (!memchr(list, '\0', n))
			abort();
	}
	char *line = text, *next;
	for (; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		for (const struct kapi_param *p = __start_kapi_param; p < __stop_kapi_param; p++) {
			unsigned char before[8], after[8];

			if (parse_param(p, line, err, sizeof(err)) < 0)
				continue;
			memcpy(before, p->var, p->size);
			if (parse_param(p, line, err, sizeof(err)) < 0)
				abort();
			memcpy(after, p->var, p->size);
			if (memcmp(before, after, p->size))
				abort();
		}
	}
	free(text);
	return 0;
}
