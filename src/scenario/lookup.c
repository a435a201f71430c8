// SPDX-License-Identifier: GPL-2.0-only
/*
 * A parsed scenario's configurations, tables and sources found by id.
 * The parser (scenario.c) resolves names with them, and so do the
 * expressions (expr.c) the parser builds: below both, so the expressions
 * do not call back into the parser.
 */
#include <string.h>

#include "idlelab/scenario.h"

int il_scn_config_find(const struct il_scn *s, const char *id)
{
	for (int i = 0; i < s->nconfigs; i++)
		if (!strcmp(s->configs[i].id, id))
			return i;
	return -1;
}

int il_scn_table_find(const struct il_scn *s, const char *id)
{
	for (int i = 0; i < s->ntables; i++)
		if (!strcmp(s->tables[i].id, id))
			return i;
	return -1;
}

const struct il_scn_source *il_scn_source_find(const struct il_scn *s, const char *id)
{
	for (int i = 0; i < s->nsources; i++)
		if (!strcmp(s->sources[i].id, id))
			return &s->sources[i];
	return NULL;
}
