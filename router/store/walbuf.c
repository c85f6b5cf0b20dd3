// SPDX-License-Identifier: GPL-2.0-only
/*
 * walbuf - the WAL's frames of one commit written with one call (walbuf.h)
 */
#include <pthread.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "walbuf.h"

#define WAL_FRAME_HDR 24

struct wb_file {
	sqlite3_file base; /* pMethods: &wb_io */
	sqlite3_file *real;
	unsigned char *buf;
	size_t len;
	sqlite3_int64 off;    /* where buf[0] goes */
	sqlite3_int64 commit; /* where the commit frame's page goes, or -1 */
};

static sqlite3_vfs *wb_base;
static sqlite3_vfs wb_vfs;
static sqlite3_io_methods wb_io;
static const char *wb_name;

/* the real file sits after ours, aligned as SQLite aligns its own */
#define WB_REAL_OFFSET ((sizeof(struct wb_file) + 15) & ~(size_t)15)

/* flush - write out what is buffered; the buffer is empty after */
static int flush(struct wb_file *f)
{
	int rc;

	if (!f->len)
		return SQLITE_OK;
	rc = f->real->pMethods->xWrite(f->real, f->buf, (int)f->len, f->off);
	f->len = 0;
	f->commit = -1;
	return rc;
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static int wb_write(sqlite3_file *pf, const void *data, int n,
		    sqlite3_int64 off)
{
	struct wb_file *f = (struct wb_file *)pf;
	const unsigned char *d = data;
	bool header = n == WAL_FRAME_HDR, is_commit;
	int rc;

	is_commit = header && get32(d + 4) != 0;
	if (f->len && off == f->off + (sqlite3_int64)f->len &&
	    f->len + (size_t)n <= WALBUF_MAX) {
		/* the run goes on: a header after a page, a page after its
		 * header */
		memcpy(f->buf + f->len, d, (size_t)n);
		f->len += (size_t)n;
		if (is_commit) {
			f->commit = off + WAL_FRAME_HDR;
		} else if (off == f->commit) {
			/* the commit frame is whole: out before SQLite
			 * publishes it */
			return flush(f);
		}
		return SQLITE_OK;
	}
	rc = flush(f);
	if (rc != SQLITE_OK)
		return rc;
	/*
	 * Only a frame header that does not commit starts a run: its page
	 * follows, and the commit frame ends the run.  A commit's header
	 * alone is written at once: it may be a rewritten checksum that
	 * nothing follows.
	 */
	if (!header || is_commit)
		return f->real->pMethods->xWrite(f->real, data, n, off);
	if (!f->buf) {
		f->buf = sqlite3_malloc(WALBUF_MAX);
		if (!f->buf)
			return f->real->pMethods->xWrite(f->real, data, n, off);
	}
	memcpy(f->buf, d, (size_t)n);
	f->len = (size_t)n;
	f->off = off;
	return SQLITE_OK;
}

static int wb_close(sqlite3_file *pf)
{
	struct wb_file *f = (struct wb_file *)pf;
	int rc = flush(f), rc2;

	sqlite3_free(f->buf);
	f->buf = NULL;
	rc2 = f->real->pMethods->xClose(f->real);
	return rc != SQLITE_OK ? rc : rc2;
}

static int wb_read(sqlite3_file *pf, void *out, int n, sqlite3_int64 off)
{
	struct wb_file *f = (struct wb_file *)pf;
	int rc = flush(f);

	if (rc != SQLITE_OK)
		return rc;
	return f->real->pMethods->xRead(f->real, out, n, off);
}

static int wb_truncate(sqlite3_file *pf, sqlite3_int64 size)
{
	struct wb_file *f = (struct wb_file *)pf;
	int rc = flush(f);

	if (rc != SQLITE_OK)
		return rc;
	return f->real->pMethods->xTruncate(f->real, size);
}

static int wb_sync(sqlite3_file *pf, int flags)
{
	struct wb_file *f = (struct wb_file *)pf;
	int rc = flush(f);

	if (rc != SQLITE_OK)
		return rc;
	return f->real->pMethods->xSync(f->real, flags);
}

static int wb_size(sqlite3_file *pf, sqlite3_int64 *size)
{
	struct wb_file *f = (struct wb_file *)pf;
	int rc = flush(f);

	if (rc != SQLITE_OK)
		return rc;
	return f->real->pMethods->xFileSize(f->real, size);
}

/* the rest as the real file does it (a WAL file takes no locks) */
static int wb_lock(sqlite3_file *pf, int level)
{
	struct wb_file *f = (struct wb_file *)pf;

	return f->real->pMethods->xLock(f->real, level);
}

static int wb_unlock(sqlite3_file *pf, int level)
{
	struct wb_file *f = (struct wb_file *)pf;

	return f->real->pMethods->xUnlock(f->real, level);
}

static int wb_reserved(sqlite3_file *pf, int *out)
{
	struct wb_file *f = (struct wb_file *)pf;

	return f->real->pMethods->xCheckReservedLock(f->real, out);
}

static int wb_control(sqlite3_file *pf, int op, void *arg)
{
	struct wb_file *f = (struct wb_file *)pf;
	int rc = flush(f);

	if (rc != SQLITE_OK)
		return rc;
	return f->real->pMethods->xFileControl(f->real, op, arg);
}

static int wb_sector(sqlite3_file *pf)
{
	struct wb_file *f = (struct wb_file *)pf;

	return f->real->pMethods->xSectorSize(f->real);
}

static int wb_device(sqlite3_file *pf)
{
	struct wb_file *f = (struct wb_file *)pf;

	return f->real->pMethods->xDeviceCharacteristics(f->real);
}

/*
 * wb_open - the database, -shm and journal files are the base VFS's own,
 * opened into SQLite's memory; a WAL file is ours, wrapping one
 */
static int wb_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *pf,
		   int flags, int *out_flags)
{
	struct wb_file *f = (struct wb_file *)pf;
	int rc;

	(void)vfs;
	if (!(flags & SQLITE_OPEN_WAL))
		return wb_base->xOpen(wb_base, name, pf, flags, out_flags);
	memset(f, 0, sizeof(*f));
	f->real = (sqlite3_file *)((char *)pf + WB_REAL_OFFSET);
	f->commit = -1;
	rc = wb_base->xOpen(wb_base, name, f->real, flags, out_flags);
	f->base.pMethods = f->real->pMethods ? &wb_io : NULL;
	return rc;
}

static void wb_register(void)
{
	sqlite3_vfs *base = sqlite3_vfs_find(NULL);

	if (!base || base->iVersion < 1)
		return;
	wb_base = base;
	wb_vfs = *base;
	wb_vfs.pNext = NULL;
	wb_vfs.zName = "triage-walbuf";
	wb_vfs.szOsFile = (int)WB_REAL_OFFSET + base->szOsFile;
	wb_vfs.xOpen = wb_open;
	wb_io = (sqlite3_io_methods){
		.iVersion = 1,
		.xClose = wb_close,
		.xRead = wb_read,
		.xWrite = wb_write,
		.xTruncate = wb_truncate,
		.xSync = wb_sync,
		.xFileSize = wb_size,
		.xLock = wb_lock,
		.xUnlock = wb_unlock,
		.xCheckReservedLock = wb_reserved,
		.xFileControl = wb_control,
		.xSectorSize = wb_sector,
		.xDeviceCharacteristics = wb_device,
	};
	if (sqlite3_vfs_register(&wb_vfs, 0) == SQLITE_OK)
		wb_name = wb_vfs.zName;
}

const char *walbuf_vfs(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, wb_register);
	return wb_name;
}
