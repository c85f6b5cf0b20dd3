// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_command - the "#triage VERB ARGS" lines of a reply (command.c):
 * any bytes, and what it promises of every command it returns
 */
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "fuzz.h"
#include "util.h"

/* LLVMFuzzerTestOneInput - one reply body through command_parse() */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct command_list l;
	size_t i;

	command_parse((const char *)data, size, &l);
	if (l.n > COMMAND_MAX)
		abort();
	for (i = 0; i < l.n; i++) {
		const struct command *c = &l.cmd[i];

		/* strings are terminated, arguments clean, errors said */
		if (!memchr(c->line, '\0', sizeof(c->line)) ||
		    !memchr(c->arg, '\0', sizeof(c->arg)) ||
		    !memchr(c->error, '\0', sizeof(c->error)))
			abort();
		if (!utf8_valid(c->line, strlen(c->line)))
			abort();
		if (c->verb == COMMAND_ERROR) {
			if (!c->error[0])
				abort();
			continue;
		}
		if (c->verb < 0 || c->verb >= COMMAND_NVERBS ||
		    !utf8_valid(c->arg, strlen(c->arg)))
			abort();
		if (c->verb == COMMAND_FIXED &&
		    (strlen(c->arg) < 7 || strlen(c->arg) > 40))
			abort();
		if (c->verb == COMMAND_CAP &&
		    (c->cap < 0 || c->cap > COMMAND_CAP_MAX))
			abort();
		if (c->verb == COMMAND_DUP && c->id < 0)
			abort();
	}
	return 0;
}
