// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the parsers of the live machine's files
 * (include/idlelab/host.h): snapshot metadata, /proc/cpuinfo and the
 * kernel configuration. Checks that metadata that parses prints back to
 * text that parses to the same items, that the configuration filter keeps
 * only lines of its input and is idempotent, and that nothing crashes.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct il_meta m, back;
	struct il_cpuinfo ci;
	struct il_err err;
	char *f, *f2, *v;

	if (il_meta_parse(buf, size, "fuzz", &m, &err) == 0) {
		char *text = il_meta_text(&m);
		if (il_meta_parse(text, strlen(text), "fuzz", &back, &err) || back.n != m.n)
			abort();
		for (int i = 0; i < m.n; i++)
			if (strcmp(m.items[i].key, back.items[i].key) ||
			    strcmp(m.items[i].value, back.items[i].value))
				abort();
		il_meta_free(&back);
		free(text);
		il_meta_free(&m);
	} else if (m.n || m.items) {
		abort();   /* a refusal leaves nothing behind */
	}

	il_cpuinfo_parse(buf, size, &ci);
	if (ci.nprocessors < 0 || strlen(ci.model_name) >= sizeof(ci.model_name))
		abort();

	f = il_config_filter(buf, size);
	if (strlen(f) > size + 1)   /* an unterminated last line gets its newline */
		abort();
	f2 = il_config_filter(f, strlen(f));
	if (strcmp(f, f2))
		abort();
	v = il_config_get(f, strlen(f), "HZ");
	free(v);
	free(f2);
	free(f);
	return 0;
}
