/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bzcomponent - the MAINTAINERS section of a Bugzilla product/component
 *
 * DESCRIPTION
 *	kernel.org's Bugzilla files every bug under a product and a
 *	component ("Drivers/Bluetooth", "File System/ext4"); a
 *	bugzilla-daemon notification says them in its X-Bugzilla-Product
 *	and X-Bugzilla-Component headers and its "Product:" and
 *	"Component:" lines.  bzcomponent_section() gives the title of the
 *	section that owns a component by default (a table of the public
 *	component list, kept as data below), or NULL.  Products and
 *	components compare without regard to case; a "*" component is the
 *	product's other components.
 */
#ifndef TRIAGE_BZCOMPONENT_H
#define TRIAGE_BZCOMPONENT_H

#include <stdbool.h>

const char *bzcomponent_section(const char *product, const char *component);

/*
 * bzcomponent_site_section - the site's own table first: routes.conf's
 * "bugzilla_component PRODUCT COMPONENT|* SECTION" records (an exact
 * component before the product's "*"; the last record of a pair wins),
 * for a site's own Bugzilla or a change of kernel.org's; then the
 * built-in one.  cfg may be NULL.
 */
struct config;
const char *bzcomponent_site_section(const struct config *cfg,
				     const char *product,
				     const char *component);

/*
 * bzcomponent_from_bugzilla - whether r's product and component are
 * Bugzilla's own word: a bug read from the site's Bugzilla (a webhook
 * or the REST poll: r->source "bugzilla"), or mail From a Bugzilla's
 * daemon, "bugzilla-daemon@" of kernel.org's Bugzilla or of routes.conf's
 * bugzilla_url host (that host's domain or a parent of it, never a
 * country registry's suffix such as "co.uk"), and, when
 * routes.conf names authserv_id, our server authenticated that From
 * (authres.h), as for a MAINTAINERS person's own mail.  Anyone can write
 * X-Bugzilla-Component or a "Component:" line: a stranger's changes
 * nothing.  cfg may be NULL.
 */
struct report;
bool bzcomponent_from_bugzilla(const struct report *r,
			       const struct config *cfg);

#endif
