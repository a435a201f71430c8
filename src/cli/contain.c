// SPDX-License-Identifier: GPL-2.0-only
/*
 * A command's work with a loaded governor run in a child process, so that
 * a crash or a loop in the governor is reported with where it happened
 * instead of ending idlelab (docs/own-governor.md, "Errors").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "idlelab/governor.h"

int cli_contained(const char *name, const char *file, int (*fn)(void *), void *arg)
{
	struct il_gov_watch *w = il_gov_watch_map();
	char msg[256];
	int status = 0;

	if (!w)
		return cli_error("cannot map shared memory for a governor's watch: %s",
				 strerror(errno));
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		il_gov_watch_unmap(w);
		return cli_error("fork: %s", strerror(errno));
	}
	if (pid == 0) {
		il_gov_watch_child(w, 0);
		/* its output must have arrived, as main() checks it for the parent's */
		int rc = cli_finish_stdout(fn(arg));
		fflush(NULL);
		_exit(rc);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	int v = il_gov_watch_verdict(w, status, name, msg, sizeof(msg));
	if (v < 0) {
		if (file && w->row > 0)
			v = cli_error("%s:%lld: %s", file, (long long)w->row, msg);
		else
			v = cli_error("%s", msg);
	}
	il_gov_watch_unmap(w);
	return v;
}
