/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Governors from kernel source files (docs/own-governor.md): built with the
 * system compiler against idlelab's kernel-API layer (kapi/) into a shared
 * object, loaded with dlopen and run through idlelab's governor ops.
 *
 * Loading a shared object runs its code with the rights of idlelab: only
 * load objects built from sources you trust.
 */
#ifndef IDLELAB_KGOV_H
#define IDLELAB_KGOV_H

#include <stddef.h>

#include "idlelab/err.h"

/* Is spec a file rather than a registry name: "file:X.c", "X.so", a path with '/'? */
int il_kgov_is_file_spec(const char *spec);

/*
 * Compile src against the layer (release: the kernel release the file is
 * from, NULL for none; it sets LINUX_VERSION_CODE) into out, or, when out
 * is NULL, into the cache ($XDG_CACHE_HOME/idlelab, keyed by a hash of the
 * preprocessed source, the layer and the command). The object's path goes
 * to so_path. On a compiler error, err names the file and the missing
 * symbols; the compiler's own messages are in *log (malloc'd, may be NULL).
 */
int il_kgov_build(const char *src, const char *release, const char *out, char *so_path,
		  size_t size, char **log, struct il_err *err);

/*
 * The names a compiler's messages (log, NUL-terminated) say are unknown
 * (implicit declarations, undeclared names, unknown types, undefined
 * references, missing headers), each once, comma-separated, into list.
 * Messages located under the directory layer (the kernel-API layer's, or
 * NULL) are left out: a name spelled there is the layer's own, and its
 * error a consequence of one in the governor's file.
 */
void il_kgov_missing_symbols(const char *log, const char *layer, char *list, size_t size);

/*
 * The object a file spec loads (file:X.c built, or found in the cache, as
 * il_gov_new() would), its path into path: what the runs of the governor
 * depend on, for the partial results file's fingerprint. 0, or -1 with err.
 */
int il_kgov_object(const char *spec, char *path, size_t size, struct il_err *err);

/* Make il_gov_new() accept file specs (registers the loader). */
void il_kgov_install(void);

#endif
