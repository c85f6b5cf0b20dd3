// SPDX-License-Identifier: GPL-2.0-only
/*
 * bzcomponent - kernel.org Bugzilla components to sections (see
 * bzcomponent.h)
 */
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "authres.h"
#include "bzcomponent.h"
#include "config.h"
#include "report.h"
#include "util.h"

static const struct {
	const char *product, *component, *section;
} table[] = {
	{ "ACPI", "Power-Sleep-Wake", "SUSPEND TO RAM" },
	{ "ACPI", "Power-Thermal", "THERMAL" },
	{ "ACPI", "*", "ACPI" },
	{ "Drivers", "Bluetooth", "BLUETOOTH DRIVERS" },
	{ "Drivers", "USB", "USB SUBSYSTEM" },
	{ "Drivers", "Network", "NETWORKING DRIVERS" },
	{ "Drivers", "network-wireless", "NETWORKING DRIVERS (WIRELESS)" },
	{ "Drivers", "network-wireless-intel",
	  "INTEL WIRELESS WIFI LINK (iwlwifi)" },
	{ "Drivers", "Sound(ALSA)", "SOUND" },
	{ "Drivers", "Video(DRI - Intel)",
	  "INTEL DRM DISPLAY FOR XE AND I915 DRIVERS" },
	{ "Drivers", "Video(DRI - non Intel)", "DRM DRIVERS" },
	{ "Drivers", "Video(Other)", "FRAMEBUFFER LAYER" },
	{ "Drivers", "Console/Framebuffers", "FRAMEBUFFER LAYER" },
	{ "Drivers", "Input Devices",
	  "INPUT (KEYBOARD, MOUSE, JOYSTICK, TOUCHSCREEN) DRIVERS" },
	{ "Drivers", "PCI", "PCI SUBSYSTEM" },
	{ "Drivers", "SCSI", "SCSI SUBSYSTEM" },
	{ "Drivers", "IDE",
	  "LIBATA SUBSYSTEM (Serial and Parallel ATA drivers)" },
	{ "Drivers", "Serial", "TTY LAYER AND SERIAL DRIVERS" },
	{ "Drivers", "I2C", "I2C SUBSYSTEM" },
	{ "Drivers", "SPI", "SPI SUBSYSTEM" },
	{ "Drivers", "IOMMU", "IOMMU SUBSYSTEM" },
	{ "Drivers", "Platform_x86", "X86 PLATFORM DRIVERS" },
	{ "Drivers", "MMC/SD",
	  "MULTIMEDIA CARD (MMC), SECURE DIGITAL (SD) AND SDIO SUBSYSTEM" },
	{ "Drivers", "Hardware Monitoring", "HARDWARE MONITORING" },
	{ "Drivers", "Watchdog", "WATCHDOG DEVICE DRIVERS" },
	{ "Drivers", "Flash/Memory Technology Devices",
	  "MEMORY TECHNOLOGY DEVICES (MTD)" },
	{ "Drivers", "Staging", "STAGING SUBSYSTEM" },
	{ "Drivers", "gpio", "GPIO SUBSYSTEM" },
	{ "Drivers", "EDAC", "EDAC-CORE" },
	{ "Drivers", "Infiniband/RDMA", "INFINIBAND SUBSYSTEM" },
	{ "Drivers", "IEEE1394", "FIREWIRE SUBSYSTEM" },
	{ "Drivers", "Parallel", "PARALLEL PORT SUBSYSTEM" },
	{ "Drivers", "IIO", "IIO SUBSYSTEM AND DRIVERS" },
	{ "File System", "ext4", "EXT4 FILE SYSTEM" },
	{ "File System", "ext3", "EXT4 FILE SYSTEM" },
	{ "File System", "ext2", "EXT2 FILE SYSTEM" },
	{ "File System", "btrfs", "BTRFS FILE SYSTEM" },
	{ "File System", "XFS", "XFS FILESYSTEM" },
	{ "File System", "NFS", "NFS, SUNRPC, AND LOCKD CLIENTS" },
	{ "File System", "CIFS",
	  "COMMON INTERNET FILE SYSTEM CLIENT (CIFS and SMB3)" },
	{ "File System", "f2fs", "F2FS FILE SYSTEM" },
	{ "File System", "FUSE", "FUSE: FILESYSTEM IN USERSPACE" },
	{ "File System", "NTFS", "NTFS3 FILESYSTEM" },
	{ "File System", "isofs", "ISOFS FILESYSTEM" },
	{ "File System", "NILFS", "NILFS2 FILESYSTEM" },
	{ "File System", "UDF", "UDF FILESYSTEM" },
	{ "File System", "JFS", "JFS FILESYSTEM" },
	{ "File System", "SquashFS", "SQUASHFS FILE SYSTEM" },
	{ "File System", "overlayfs", "OVERLAY FILESYSTEM" },
	{ "File System", "exFAT", "EXFAT FILE SYSTEM" },
	{ "File System", "VFS", "FILESYSTEMS (VFS and infrastructure)" },
	{ "File System", "*", "FILESYSTEMS (VFS and infrastructure)" },
	{ "IO/Storage", "Block Layer", "BLOCK LAYER" },
	{ "IO/Storage", "MD", "SOFTWARE RAID (Multiple Disks) SUPPORT" },
	{ "IO/Storage", "LVM2/DM", "DEVICE-MAPPER  (LVM)" },
	{ "IO/Storage", "NVMe", "NVM EXPRESS DRIVER" },
	{ "IO/Storage", "SCSI", "SCSI SUBSYSTEM" },
	{ "IO/Storage", "Serial ATA",
	  "LIBATA SUBSYSTEM (Serial and Parallel ATA drivers)" },
	{ "IO/Storage", "IDE",
	  "LIBATA SUBSYSTEM (Serial and Parallel ATA drivers)" },
	{ "IO/Storage", "*", "BLOCK LAYER" },
	{ "Memory Management", "Slab Allocator", "SLAB ALLOCATOR" },
	{ "Memory Management", "*", "MEMORY MANAGEMENT" },
	{ "Networking", "IPV4", "NETWORKING [IPv4/IPv6]" },
	{ "Networking", "IPV6", "NETWORKING [IPv4/IPv6]" },
	{ "Networking", "Netfilter/Iptables", "NETFILTER" },
	{ "Networking", "Wireless", "802.11 (including CFG80211/NL80211)" },
	{ "Networking", "Bridge", "ETHERNET BRIDGE" },
	{ "Networking", "*", "NETWORKING [GENERAL]" },
	{ "Power Management", "Hibernation/Suspend",
	  "HIBERNATION (aka Software Suspend, aka swsusp)" },
	{ "Power Management", "cpufreq", "CPU FREQUENCY SCALING FRAMEWORK" },
	{ "Power Management", "cpuidle", "CPU IDLE TIME MANAGEMENT FRAMEWORK" },
	{ "Virtualization", "KVM", "KERNEL VIRTUAL MACHINE (KVM)" },
	{ "Virtualization", "Xen", "XEN HYPERVISOR INTERFACE" },
	{ "Platform Specific/Hardware", "x86-64",
	  "X86 ARCHITECTURE (32-BIT AND 64-BIT)" },
	{ "Platform Specific/Hardware", "i386",
	  "X86 ARCHITECTURE (32-BIT AND 64-BIT)" },
	{ "Timers", "*", "TIMEKEEPING, CLOCKSOURCE CORE, NTP, ALARMTIMER" },
	{ "Tracing/Profiling", "*", "TRACING" },
	{ "Process Management", "Scheduler", "SCHEDULER" },
};

const char *bzcomponent_section(const char *product, const char *component)
{
	const char *any = NULL;
	size_t i;

	if (!product || !component)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(table); i++) {
		if (strcasecmp(table[i].product, product) != 0)
			continue;
		if (!strcasecmp(table[i].component, component))
			return table[i].section;
		if (!any && !strcmp(table[i].component, "*"))
			any = table[i].section;
	}
	return any;
}

const char *bzcomponent_site_section(const struct config *cfg,
				     const char *product, const char *component)
{
	const char *exact = NULL, *any = NULL;
	size_t i;

	if (!product || !component)
		return NULL;
	for (i = 0; cfg && i < cfg->nrec; i++) {
		const struct config_record *r = &cfg->rec[i];

		if (r->setting || r->bad || r->argc != 3 ||
		    strcmp(r->name, "bugzilla_component") != 0 ||
		    strcasecmp(r->argv[0], product) != 0)
			continue;
		if (!strcasecmp(r->argv[1], component))
			exact = r->argv[2];
		else if (!strcmp(r->argv[1], "*"))
			any = r->argv[2];
	}
	if (exact)
		return exact;
	if (any)
		return any;
	return bzcomponent_section(product, component);
}

/* kernel.org's Bugzilla, whose components the built-in table has */
#define KERNEL_ORG_BUGZILLA "bugzilla.kernel.org"

/*
 * registry_suffix - dom is a country's registry suffix, under which
 * anyone registers ("co.uk", "com.au", "org.br", "ac.jp"): a second-level
 * label of the registries' usual names under a two-letter top-level
 * domain.  Without a public suffix list, these are the ones a parent of a
 * Bugzilla's host can be.
 */
static bool registry_suffix(const char *dom)
{
	static const char *const sld[] = { "co",  "com", "net", "org", "gov",
					   "edu", "ac",	 "or",	"ne",  "go",
					   "gob", "mil", "nic", "ltd", "plc" };
	const char *dot = strchr(dom, '.');
	size_t i, n;

	if (!dot || strchr(dot + 1, '.') || strlen(dot + 1) != 2)
		return false;
	n = (size_t)(dot - dom);
	for (i = 0; i < sizeof(sld) / sizeof(sld[0]); i++)
		if (strlen(sld[i]) == n && !strncasecmp(dom, sld[i], n))
			return true;
	return false;
}

/*
 * host_under - the sender's domain dom is host or a parent of it with a
 * dot of its own ("kernel.org" for bugzilla.kernel.org; not "org", nor a
 * registry's suffix: "co.uk" for bugzilla.example.co.uk)
 */
static bool host_under(const char *host, size_t hl, const char *dom)
{
	size_t dl = strlen(dom);

	if (!dl || !strchr(dom, '.') || dl > hl)
		return false;
	if (dl == hl)
		return !strncasecmp(host, dom, hl);
	return host[hl - dl - 1] == '.' &&
	       !strncasecmp(host + hl - dl, dom, dl) && !registry_suffix(dom);
}

/* url_host - the host of "https://bugzilla.example.org/..." (its length;
 * 0 when none) */
static size_t url_host(const char *url, const char **host)
{
	const char *p = url ? strstr(url, "://") : NULL;

	if (!p)
		return 0;
	*host = p + 3;
	return strcspn(*host, "/:?# \t");
}

bool bzcomponent_from_bugzilla(const struct report *r, const struct config *cfg)
{
	static const char daemon[] = "bugzilla-daemon@";
	const char *a, *dom, *host = NULL;
	size_t hl;

	if (!r)
		return false;
	if (r->source && !strcmp(r->source, "bugzilla"))
		return true;
	a = r->from_addr ? r->from_addr : "";
	if (strncasecmp(a, daemon, sizeof(daemon) - 1))
		return false;
	dom = a + sizeof(daemon) - 1;
	hl = url_host(config_get(cfg, "bugzilla_url"), &host);
	if (!host_under(KERNEL_ORG_BUGZILLA, strlen(KERNEL_ORG_BUGZILLA),
			dom) &&
	    !(hl && host_under(host, hl, dom)))
		return false;
	return !authres_check(r, config_get(cfg, "authserv_id"), a);
}
