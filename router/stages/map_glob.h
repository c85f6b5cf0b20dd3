/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map_glob - what a MAINTAINERS F: pattern is made of
 *
 * get_maintainer.pl reads an F: pattern as a glob turned into a regex
 * (. -> \.  * -> .*  ? -> .); most are plain globs ("drivers/usb/",
 * "fs/ext4/", "[a-z]*.c") that the map matches without pcre2, and the few
 * that use regex syntax beyond that are compiled.  These helpers decide
 * which, and give the directory every match starts with (the map's
 * bucket key).  Pure functions of the pattern text.
 */
#ifndef TRIAGE_MAP_GLOB_H
#define TRIAGE_MAP_GLOB_H

#include <stdbool.h>

/*
 * glob_class_end - end of a "[...]" class starting at p (p[0] == '['),
 * or NULL when unterminated or using syntax the glob matcher does not
 * handle
 */
const char *glob_class_end(const char *p);

/* glob_needs_regex - does the glob use regex syntax beyond "* ? [..]"? */
bool glob_needs_regex(const char *g);

/* glob_to_regex - the regex get_maintainer.pl makes of g, in a new string */
char *glob_to_regex(const char *g);

/*
 * glob_bucket_key_len - length of the directory every path the pattern
 * matches starts with (0 when unknown); -1 when it must be tried for
 * every path
 */
long glob_bucket_key_len(const char *g, bool regex);

#endif
