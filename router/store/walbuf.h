/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * walbuf - a SQLite VFS that writes a commit's WAL frames with one call
 *
 * DESCRIPTION
 *	Part of the store.  SQLite appends a transaction to the WAL with
 *	one write for each frame's 24-byte header and one for its page:
 *	a recorded report (some twenty pages) costs forty-odd pwrite()
 *	calls.  walbuf is the default VFS with the WAL files' writes
 *	gathered: frames appended one after the other are kept in a
 *	buffer and written with one call as soon as the commit frame (a
 *	header whose "database size after commit" is not 0) is whole.
 *	SQLite writes the commit frame before it publishes the commit in
 *	the WAL index, so no other connection can be told of a frame that
 *	is only in the buffer, and when SQLite reports the commit done it
 *	is in the file as it would have been without walbuf (in the
 *	kernel's page cache; the sync that synchronous= asks for, if any,
 *	comes after and finds the buffer empty).
 *
 *	Everything else goes straight to the default VFS: the database
 *	and -shm files are the default VFS's own, and a WAL write that
 *	does not continue the buffer (a rewritten header, a page written
 *	over, a commit of a single frame) first writes out what is
 *	buffered, then itself unbuffered.  Reading, syncing, truncating,
 *	sizing or closing the WAL writes the buffer out first.  The
 *	buffer is WALBUF_MAX bytes at most (a longer run is written in
 *	several calls) and is allocated at the first gathered write.
 *
 * Ownership:
 *	walbuf_vfs() registers the VFS once, over the default VFS of that
 *	moment, and returns its name for sqlite3_open_v2(); it is never
 *	the default VFS itself.
 *
 * Errors:
 *	A write of the buffer that fails is the failure of the write that
 *	made it due (SQLite's rc: SQLITE_FULL on a full disk, else
 *	SQLITE_IOERR_WRITE), so the transaction fails as it would have;
 *	the buffer is dropped.  walbuf_vfs() returns NULL when SQLite
 *	refuses the registration (or there is no default VFS): the
 *	caller opens with the default VFS.
 */
#ifndef TRIAGE_WALBUF_H
#define TRIAGE_WALBUF_H

/*
 * the most bytes gathered before they are written: 31 frames of 4 KiB
 * pages (SQLite's unix VFS writes less than 128 KiB in one call)
 */
#define WALBUF_MAX (31 * (4096 + 24))

/* walbuf_vfs - the VFS's name, registered on the first call; NULL: none */
const char *walbuf_vfs(void);

#endif
