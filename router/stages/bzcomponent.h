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

#endif
