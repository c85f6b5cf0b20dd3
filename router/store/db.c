// SPDX-License-Identifier: GPL-2.0-only
/*
 * db - the connection: open, pragmas, WAL, close, errors, transactions;
 * the statement cache, binding and reading rows (see db.h, audit.h)
 *
 * The only SQL text assembled at run time is a pragma from numbers
 * (schema.c's user_version, audit_set_cache()'s sizes).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "db.h"
#include "walbuf.h"

#define DIR_MODE  02770
#define FILE_MODE 0660

/* ---- errors -------------------------------------------------------------- */

static bool rc_temporary(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
	case SQLITE_IOERR:
	case SQLITE_FULL:
	case SQLITE_CANTOPEN:
	case SQLITE_READONLY:
	case SQLITE_NOMEM:
	case SQLITE_PROTOCOL:
	case SQLITE_INTERRUPT:
		return true;
	}
	return false;
}

static bool errno_temporary(int e)
{
	switch (e) {
	case EACCES:
	case EPERM:
	case EROFS:
	case ENOSPC:
	case EDQUOT:
	case EIO:
	case EMFILE:
	case ENFILE:
	case ENOMEM:
	case EINTR:
	case EAGAIN:
		return true;
	}
	return false;
}

int db_fail(struct audit *db, int rc, const char *what)
{
	db->temporary = rc_temporary(rc);
	snprintf(db->errmsg, sizeof(db->errmsg), "%s: %s", what,
		 sqlite3_errmsg(db->db));
	return error("database %s: %s", db->path, db->errmsg);
}

int db_bad(struct audit *db, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(db->errmsg, sizeof(db->errmsg), fmt, ap);
	va_end(ap);
	db->temporary = false;
	return error("database %s: %s", db->path, db->errmsg);
}

/* audit_temporary - whether the last failure may pass by itself */
bool audit_temporary(const struct audit *db)
{
	return db->temporary;
}

/* audit_errmsg - the last failure, without the database path */
const char *audit_errmsg(const struct audit *db)
{
	return db->errmsg;
}

/* ---- statements ---------------------------------------------------------- */

/* slot - where sql's statement is, or the empty slot it would take */
static size_t slot(const struct audit *db, const char *sql)
{
	/* the address's Fibonacci hash: statics are near one another */
	uint64_t h = (uint64_t)(uintptr_t)sql * 0x9e3779b97f4a7c15u;
	size_t i = (size_t)(h >> 40) & (DB_STMT_SLOTS - 1);

	while (db->stmt[i].sql && db->stmt[i].sql != sql)
		i = (i + 1) & (DB_STMT_SLOTS - 1);
	return i;
}

sqlite3_stmt *db_prep(struct audit *db, const char *sql)
{
	size_t i = slot(db, sql);
	sqlite3_stmt *st;
	int rc;

	if (db->stmt[i].sql)
		return db->stmt[i].st;
	/* one slot always stays empty, so that slot() ends */
	if (db->nstmt + 1 >= DB_STMT_SLOTS) {
		db_bad(db, "more than %d statements", DB_STMT_SLOTS - 1);
		return NULL;
	}
	rc = sqlite3_prepare_v3(db->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st,
				NULL);
	if (rc != SQLITE_OK) {
		db_fail(db, rc, "prepare");
		return NULL;
	}
	db->stmt[i].sql = sql;
	db->stmt[i].st = st;
	db->nstmt++;
	return st;
}

void db_finish(sqlite3_stmt *st)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

static int bind_rc(struct audit *db, int rc)
{
	return rc == SQLITE_OK ? 0 : db_fail(db, rc, "bind");
}

int db_bind_text(struct audit *db, sqlite3_stmt *st, int i, const char *s)
{
	if (!s)
		return bind_rc(db, sqlite3_bind_null(st, i));
	return bind_rc(db, sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC));
}

int db_bind_textn(struct audit *db, sqlite3_stmt *st, int i, const char *s,
		  size_t n)
{
	if (!s)
		return bind_rc(db, sqlite3_bind_null(st, i));
	return bind_rc(db, sqlite3_bind_text64(st, i, s, n, SQLITE_STATIC,
					       SQLITE_UTF8));
}

int db_bind_blob(struct audit *db, sqlite3_stmt *st, int i, const void *p,
		 size_t n)
{
	/* A NULL pointer would bind SQL NULL: an empty blob is a blob. */
	return bind_rc(
		db, sqlite3_bind_blob64(st, i, p ? p : "", n, SQLITE_STATIC));
}

int db_bind_zeroblob(struct audit *db, sqlite3_stmt *st, int i, size_t n)
{
	return bind_rc(db, sqlite3_bind_zeroblob64(st, i, n));
}

int db_bind_int(struct audit *db, sqlite3_stmt *st, int i, int64_t v)
{
	return bind_rc(db, sqlite3_bind_int64(st, i, v));
}

int db_bind_id(struct audit *db, sqlite3_stmt *st, int i, int64_t v)
{
	if (!v)
		return bind_rc(db, sqlite3_bind_null(st, i));
	return db_bind_int(db, st, i, v);
}

int db_bind_real(struct audit *db, sqlite3_stmt *st, int i, double v)
{
	return bind_rc(db, sqlite3_bind_double(st, i, v));
}

int db_step(struct audit *db, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st), ret = 0;

	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		ret = db_fail(db, rc, what);
	db_finish(st);
	return ret;
}

int db_step_row(struct audit *db, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW)
		return 1;
	if (rc != SQLITE_DONE)
		db_fail(db, rc, what);
	db_finish(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int db_get_i64(struct audit *db, sqlite3_stmt *st, const char *what, int64_t *v)
{
	int rc = db_step_row(db, st, what);

	*v = 0;
	if (rc == 1) {
		*v = sqlite3_column_int64(st, 0);
		db_finish(st);
	}
	return rc;
}

int db_stop(sqlite3_stmt *st, int stop)
{
	db_finish(st);
	return stop;
}

const char *db_col_text(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

char *db_col_dup(sqlite3_stmt *st, int i, size_t *len)
{
	const void *p = sqlite3_column_blob(st, i);
	size_t n = (size_t)sqlite3_column_bytes(st, i);

	if (len)
		*len = n;
	return p ? xmemdup0(p, n) : xstrdup("");
}

/* ---- rows by description ------------------------------------------------- */

/* fill_text - column i as a C string: borrowed, owned by o, or malloc'ed */
static const char *fill_text(sqlite3_stmt *st, int i, struct audit_owned *o,
			     bool dup)
{
	const char *s = db_col_text(st, i);
	char *copy;

	if (!s || (!o && !dup))
		return s;
	copy = xmemdup0(s, (size_t)sqlite3_column_bytes(st, i));
	return dup ? copy : db_own(o, copy);
}

/* put - store v as the field's type T, whatever p's alignment */
#define PUT(T, v)                           \
	do {                                \
		T v_ = (T)(v);              \
		memcpy(p, &v_, sizeof(v_)); \
	} while (0)

void db_fill(sqlite3_stmt *st, const struct db_row *r, void *out,
	     struct audit_owned *o)
{
	size_t i;

	for (i = 0; i < r->ncol; i++) {
		const struct db_col *c = &r->col[i];
		char *p = (char *)out + c->off;
		int k = (int)i;

		switch (c->type) {
		case DB_I64:
			PUT(int64_t, sqlite3_column_int64(st, k));
			break;
		case DB_INT:
			PUT(int, sqlite3_column_int(st, k));
			break;
		case DB_UINT:
			PUT(unsigned, sqlite3_column_int64(st, k));
			break;
		case DB_LONG:
			PUT(long, sqlite3_column_int64(st, k));
			break;
		case DB_ULONG:
			PUT(unsigned long, sqlite3_column_int64(st, k));
			break;
		case DB_SIZE:
			PUT(size_t, sqlite3_column_int64(st, k));
			break;
		case DB_BOOL:
			PUT(bool, sqlite3_column_int64(st, k) != 0);
			break;
		case DB_REAL:
			PUT(double, sqlite3_column_double(st, k));
			break;
		case DB_TEXT:
		case DB_DUP:
			PUT(const char *,
			    fill_text(st, k, o, c->type == DB_DUP));
			break;
		case DB_CHARS:
			snprintf(p, c->size, "%s",
				 db_col_text(st, k) ? db_col_text(st, k) : "");
			break;
		}
	}
}

int db_get(struct audit *db, sqlite3_stmt *st, const char *what,
	   const struct db_row *r, void *out, struct audit_owned *o)
{
	int rc = db_step_row(db, st, what);

	if (rc == 1) {
		db_fill(st, r, out, o);
		db_finish(st);
	}
	return rc;
}

int db_next(struct audit *db, sqlite3_stmt *st, const char *what,
	    const struct db_row *r, void *out)
{
	int rc = db_step_row(db, st, what);

	if (rc == 1)
		db_fill(st, r, out, NULL);
	return rc;
}

int db_all(struct audit *db, sqlite3_stmt *st, const char *what,
	   const struct db_row *r, struct audit_owned *o, void *array,
	   size_t *n)
{
	char *v = NULL;
	size_t alloc = 0;
	int rc;

	*n = 0;
	while ((rc = db_step_row(db, st, what)) == 1) {
		if (*n == alloc) {
			alloc = alloc ? alloc * 2 : 8;
			v = xreallocarray(v, alloc, r->size);
		}
		memset(v + *n * r->size, 0, r->size);
		db_fill(st, r, v + *n * r->size, o);
		(*n)++;
	}
	db_own(o, v);
	memcpy(array, &v, sizeof(v));
	return rc;
}

int db_get_id(struct audit *db, const char *sql, int64_t id, const char *what,
	      const struct db_row *r, void *out, struct audit_owned *o)
{
	sqlite3_stmt *st = db_prep(db, sql);

	if (!st || db_bind_int(db, st, 1, id))
		return -1;
	return db_get(db, st, what, r, out, o);
}

int db_all_id(struct audit *db, const char *sql, int64_t id, const char *what,
	      const struct db_row *r, struct audit_owned *o, void *array,
	      size_t *n)
{
	sqlite3_stmt *st = db_prep(db, sql);

	*n = 0;
	if (!st || db_bind_int(db, st, 1, id))
		return -1;
	return db_all(db, st, what, r, o, array, n);
}

int db_run2(struct audit *db, const char *sql, int64_t a, int64_t b,
	    const char *what)
{
	sqlite3_stmt *st = db_prep(db, sql);

	if (!st || db_bind_int(db, st, 1, a) || db_bind_int(db, st, 2, b))
		return -1;
	return db_step(db, st, what);
}

/* ---- records' allocations ------------------------------------------------ */

void *db_own(struct audit_owned *o, void *p)
{
	if (!p)
		return NULL;
	ALLOC_GROW(o->v, o->n, o->alloc);
	o->v[o->n++] = p;
	return p;
}

void db_owned_release(struct audit_owned *o)
{
	size_t i;

	for (i = 0; i < o->n; i++)
		free(o->v[i]);
	free(o->v);
	memset(o, 0, sizeof(*o));
}

/* ---- small things -------------------------------------------------------- */

int64_t db_now(int64_t t)
{
	return t ? t : (int64_t)time(NULL);
}

const char *db_or_null(const char *s)
{
	return s && *s ? s : NULL;
}

bool db_one_of(const char *s, const char *const *names, size_t n)
{
	size_t i;

	if (!s)
		return false;
	for (i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return true;
	return false;
}

/* ---- opening ------------------------------------------------------------- */

/*
 * make_dirs - create the missing directories of path's parent with mode
 * 02770 (chmod after mkdir: the umask and mkdir(2) drop the setgid bit)
 */
static int make_dirs(const char *path, bool *temporary)
{
	char buf[PATH_MAX];
	size_t i, n;
	char *slash;

	if (strlen(path) >= sizeof(buf))
		return error("database path too long: '%s'", path);
	strcpy(buf, path);
	slash = strrchr(buf, '/');
	if (!slash || slash == buf)
		return 0;
	*slash = '\0';
	n = strlen(buf);
	for (i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0700) == 0) {
			if (chmod(buf, DIR_MODE) < 0) {
				*temporary = errno_temporary(errno);
				return error("cannot chmod '%s': %s", buf,
					     strerror(errno));
			}
		} else if (errno != EEXIST) {
			*temporary = errno_temporary(errno);
			return error("cannot create directory '%s': %s", buf,
				     strerror(errno));
		}
		buf[i] = i < n ? '/' : '\0';
	}
	return 0;
}

/*
 * create_file - make the database file 0660 whatever the umask: SQLite
 * creates -wal and -shm with the database file's mode, so this one
 * mode makes all three group-writable
 */
static int create_file(const char *path, bool *temporary)
{
	struct stat sb;
	int fd;

	if (stat(path, &sb) == 0)
		return 0;
	if (errno != ENOENT) {
		*temporary = errno_temporary(errno);
		return error("cannot stat '%s': %s", path, strerror(errno));
	}
	if (make_dirs(path, temporary) < 0)
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		  FILE_MODE);
	if (fd < 0) {
		if (errno == EEXIST)
			return 0;
		*temporary = errno_temporary(errno);
		return error("cannot create database '%s': %s", path,
			     strerror(errno));
	}
	if (fchmod(fd, FILE_MODE) < 0) {
		*temporary = errno_temporary(errno);
		close(fd);
		return error("cannot chmod '%s': %s", path, strerror(errno));
	}
	close(fd);
	return 0;
}

static int exec(struct audit *db, const char *text, const char *what)
{
	int rc = sqlite3_exec(db->db, text, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : db_fail(db, rc, what);
}

static bool in_memory(const char *path)
{
	return !strcmp(path, ":memory:");
}

/*
 * db_set_wal - switch to WAL (a no-op once done: the mode is persistent).
 * The switch needs an exclusive lock and SQLite does not call the busy
 * handler for it when that could deadlock, so processes racing to
 * create a new database get SQLITE_BUSY at once: retry with a growing
 * pause until the busy timeout runs out.
 */
int db_set_wal(struct audit *db)
{
	double deadline = now_seconds() + db->busy_timeout_ms / 1000.0;
	useconds_t pause = 500 + (useconds_t)(getpid() % 500);
	sqlite3_stmt *st;
	const char *mode;
	bool wal;
	int rc;

	for (;;) {
		rc = sqlite3_prepare_v2(db->db, "PRAGMA journal_mode = WAL", -1,
					&st, NULL);
		if (rc != SQLITE_OK)
			return db_fail(db, rc, "journal_mode");
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW)
			break;
		sqlite3_finalize(st);
		if (((rc & 0xff) != SQLITE_BUSY &&
		     (rc & 0xff) != SQLITE_LOCKED) ||
		    now_seconds() > deadline)
			return db_fail(db, rc, "journal_mode = WAL");
		usleep(pause);
		if (pause < 50000)
			pause *= 2;
	}
	mode = db_col_text(st, 0);
	/* An in-memory database (tests) keeps journal mode "memory". */
	wal = mode &&
	      (!sqlite3_stricmp(mode, "wal") ||
	       (in_memory(db->path) && !sqlite3_stricmp(mode, "memory")));
	sqlite3_finalize(st);
	if (!wal)
		return db_bad(db, "cannot switch to WAL journal mode");
	return 0;
}

/*
 * wal_hook - after each commit of an AUDIT_FILTER connection (its write
 * lock released): note the WAL's size for audit_close(), and checkpoint
 * at 1000 pages as SQLite's default hook, which this one replaces,
 * would, but only every 1000 more pages.
 *
 * While another connection reads (the other resident worker, between
 * its transactions), a checkpoint cannot copy the frames after that
 * reader's snapshot, so the WAL never starts over: the default hook
 * then checkpoints, with two fdatasync(), after nearly every commit
 * of two busy workers, and the WAL still grows.  So a connection that has
 * checkpointed before and sees the WAL past WAL_RESTART_FRAMES asks
 * for a RESTART checkpoint: it waits WAL_RESTART_WAIT_MS at most for
 * those readers to move on (not the busy timeout: it holds the write
 * lock meanwhile, and a reader may be a person's query that lasts),
 * and the next commit writes the WAL from its start.
 */
#define WAL_CKPT_FRAMES	    1000
#define WAL_RESTART_FRAMES  4000
#define WAL_RESTART_WAIT_MS 50

static int wal_hook(void *arg, sqlite3 *sdb, const char *name, int frames)
{
	struct audit *db = arg;
	bool restart;

	db->wal_frames = frames;
	if (frames < db->ckpt_frames)
		db->ckpt_frames = 0; /* the WAL started over */
	if (frames < WAL_CKPT_FRAMES ||
	    frames - db->ckpt_frames < WAL_CKPT_FRAMES)
		return SQLITE_OK;
	restart = db->ckpt_frames > 0 && frames >= WAL_RESTART_FRAMES;
	if (restart)
		sqlite3_busy_timeout(sdb, WAL_RESTART_WAIT_MS);
	sqlite3_wal_checkpoint_v2(sdb, name,
				  restart ? SQLITE_CHECKPOINT_RESTART
					  : SQLITE_CHECKPOINT_PASSIVE,
				  NULL, NULL);
	if (restart)
		sqlite3_busy_timeout(sdb, db->busy_timeout_ms);
	db->ckpt_frames = frames;
	return SQLITE_OK;
}

/*
 * open_connection - open the SQLite connection of db, its pragmas and hooks.
 * SQLite opens a file it may not write read-only, silently, and the
 * first read then creates -wal and -shm with the database file's mode:
 * read-only too.  Once the file's mode was put right, the read-only
 * -shm failed every write ("attempt to write a readonly database")
 * until someone removed it.  A writer stops here, before anything is
 * created.
 */
/* nofollow_path - as root, path with its directory resolved (caller
 * frees), or NULL: not root, in memory, or the directory unresolved */
static char *nofollow_path(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir, *real, *out;

	if (geteuid() != 0 || in_memory(path) || !slash || !slash[1])
		return NULL;
	dir = slash == path ? xstrdup("/")
			    : xstrndup(path, (size_t)(slash - path));
	real = realpath(dir, NULL);
	free(dir);
	if (!real)
		return NULL;
	out = xasprintf("%s/%s", strcmp(real, "/") ? real : "", slash + 1);
	free(real);
	return out;
}

static int open_connection(struct audit *db, const char *path, unsigned flags)
{
	char *real;
	int rc, oflags;

	oflags = (flags & AUDIT_RDONLY) ? SQLITE_OPEN_READONLY
					: SQLITE_OPEN_READWRITE;
	oflags |= SQLITE_OPEN_NOMUTEX;
	/*
	 * Root: a link swapped in after root_refuses_link() looked is
	 * refused too (SQLite's NOFOLLOW refuses a link anywhere in the
	 * name: the directory's own links resolved first)
	 */
	real = nofollow_path(path);
	if (real)
		oflags |= SQLITE_OPEN_NOFOLLOW;
	/* the default VFS, a commit's WAL frames written with one call */
	rc = sqlite3_open_v2(real ? real : path, &db->db, oflags, walbuf_vfs());
	free(real);
	if (rc != SQLITE_OK) {
		if (db->db)
			return db_fail(db, rc, "open");
		return error("database %s: cannot open: out of memory", path);
	}
	sqlite3_extended_result_codes(db->db, 1);
	if (!(flags & AUDIT_RDONLY) && sqlite3_db_readonly(db->db, "main") == 1)
		return error("database %s: opened read-only: the file (or its "
			     "directory) is not writable",
			     path);
	if (flags & AUDIT_FILTER) {
		sqlite3_db_config(db->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1,
				  NULL);
		sqlite3_wal_hook(db->db, wal_hook, db);
	}
	sqlite3_busy_timeout(db->db, db->busy_timeout_ms);
	return exec(db, "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON",
		    "set pragmas");
}

/* check_version - the schema of the open database, migrated if need be */
static int check_version(struct audit *db, unsigned flags)
{
	int v = audit_user_version(db);

	if (v < 0)
		return -1;
	if (v > AUDIT_SCHEMA_VERSION)
		return db_bad(db,
			      "schema version %d is newer than this program's "
			      "(%d)",
			      v, AUDIT_SCHEMA_VERSION);
	if (v == AUDIT_SCHEMA_VERSION || (flags & AUDIT_NOMIGRATE))
		return 0;
	if (flags & AUDIT_RDONLY)
		return db_bad(
			db,
			v ? "schema version %d is older than this "
			    "program's: run a writing triage command first"
			  : "no triage database here yet (version %d)",
			v);
	return audit_migrate(db, AUDIT_SCHEMA_VERSION);
}

static bool configured;

/* audit_open - open (and with AUDIT_CREATE create) the database at path */
int audit_open(const char *path, unsigned flags, int busy_timeout_ms,
	       struct audit **out, bool *temporary)
{
	struct audit *db;
	bool ignored;

	if (!temporary)
		temporary = &ignored; /* the caller does not care */
	*out = NULL;
	*temporary = false;
	/* SQLite writes the journal and -shm files beside the database */
	if (!(flags & AUDIT_RDONLY) && !in_memory(path) &&
	    root_refuses_dir(path))
		return -1;
	/* root opens the file itself, never what a link names */
	if (!in_memory(path) && root_refuses_link(path))
		return -1;
	if ((flags & AUDIT_CREATE) && !(flags & AUDIT_RDONLY) &&
	    !in_memory(path) && create_file(path, temporary) < 0)
		return -1;

	/*
	 * SQLite's allocation statistics take a global mutex around every
	 * malloc (a measurable part of the filter's audit stage); nothing
	 * reads them.  Only possible before SQLite initialises: later
	 * calls fail harmlessly.
	 *
	 * No page-cache slots allocated ahead (SQLITE_CONFIG_PAGECACHE
	 * with no buffer and no lines): by default every page cache,
	 * the temporary b-tree a statement opens for an IN list or a
	 * sort included, starts by allocating 20 page slots and writing
	 * a header into each, one page of memory apiece, where such a
	 * b-tree mostly uses one.  Slots are then allocated one by one
	 * as pages are read.
	 */
	if (!configured) {
		sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
		sqlite3_config(SQLITE_CONFIG_PAGECACHE, NULL, 0, 0);
		configured = true;
	}
	db = xcalloc(1, sizeof(*db));
	db->path = xstrdup(path);
	db->flags = flags;
	db->busy_timeout_ms =
		busy_timeout_ms > 0 ? busy_timeout_ms : AUDIT_BUSY_TIMEOUT_MS;
	if (open_connection(db, path, flags) < 0 ||
	    check_version(db, flags) < 0) {
		*temporary = db->temporary;
		audit_close(db);
		return -1;
	}
	*out = db;
	return 0;
}

/*
 * audit_set_cache - the page cache: at most cache_kib KiB kept (0: leave
 * SQLite's default), and dirty pages spilled to the WAL in the middle of
 * a transaction only past spill_kib KiB (0: leave the default)
 */
int audit_set_cache(struct audit *db, unsigned cache_kib, unsigned spill_kib)
{
	char text[96];
	int n = 0;

	if (cache_kib)
		n += snprintf(text + n, sizeof(text) - (size_t)n,
			      "PRAGMA cache_size = -%u;", cache_kib);
	if (spill_kib) {
		sqlite3_stmt *st;
		int page = 4096;

		if (sqlite3_prepare_v2(db->db, "PRAGMA page_size", -1, &st,
				       NULL) == SQLITE_OK) {
			if (sqlite3_step(st) == SQLITE_ROW &&
			    sqlite3_column_int(st, 0) > 0)
				page = sqlite3_column_int(st, 0);
			sqlite3_finalize(st);
		}
		n += snprintf(text + n, sizeof(text) - (size_t)n,
			      "PRAGMA cache_spill = %u;",
			      (unsigned)(((uint64_t)spill_kib << 10) / page));
	}
	return n ? exec(db, text, "set the page cache") : 0;
}

/* audit_close - finalize statements and close (NULL is fine) */
void audit_close(struct audit *db)
{
	size_t i;

	if (!db)
		return;
	for (i = 0; i < DB_STMT_SLOTS; i++)
		sqlite3_finalize(db->stmt[i].st);
	/*
	 * When the filter's process is the last connection, the next one
	 * rebuilds the WAL index by reading the whole WAL (its cost grows
	 * with the WAL) and forgets how much was checkpointed, so SQLite can
	 * never restart the WAL and it grows without bound.  Once the WAL
	 * is past a threshold, let this close checkpoint and delete it
	 * (it does so only if no other connection is open).
	 */
	if ((db->flags & AUDIT_FILTER) &&
	    db->wal_frames >= AUDIT_FILTER_CKPT_FRAMES)
		sqlite3_db_config(db->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0,
				  NULL);
	if (db->db && sqlite3_close(db->db) != SQLITE_OK)
		warn("database %s: close: %s", db->path,
		     sqlite3_errmsg(db->db));
	free(db->path);
	free(db);
}

/*
 * audit_end - the connection of a process that ends right after.  An
 * AUDIT_FILTER close without a checkpoint due writes nothing: it
 * finalizes the statements, unmaps the WAL index and closes the files,
 * which the end of the process does at once (the kernel releases the
 * locks with the files), and the unmap alone cost a TLB flush on every
 * CPU.  SQLite recovers from a process that ends without closing, as
 * from any crash; after a commit nothing is lost.  Otherwise, or with a
 * transaction still open, audit_close().
 */
void audit_end(struct audit *db)
{
	if (!db)
		return;
	if (!(db->flags & AUDIT_FILTER) ||
	    db->wal_frames >= AUDIT_FILTER_CKPT_FRAMES ||
	    !sqlite3_get_autocommit(db->db))
		audit_close(db);
}

/* ---- transactions -------------------------------------------------------- */

static const char sql_begin[] = "BEGIN IMMEDIATE";
static const char sql_commit[] = "COMMIT";
static const char sql_rollback[] = "ROLLBACK";

static int run_simple(struct audit *db, const char *sql, const char *what)
{
	sqlite3_stmt *st = db_prep(db, sql);

	return st ? db_step(db, st, what) : -1;
}

/* audit_begin - BEGIN IMMEDIATE: take the write lock now (busy_timeout) */
int audit_begin(struct audit *db)
{
	if (!sqlite3_get_autocommit(db->db))
		return db_bad(db, "a transaction is already open");
	return run_simple(db, sql_begin, "begin");
}

/* audit_commit - commit; on failure the transaction is rolled back */
int audit_commit(struct audit *db)
{
	if (run_simple(db, sql_commit, "commit") < 0) {
		bool temp = db->temporary;

		audit_rollback(db);
		db->temporary = temp;
		return -1;
	}
	return 0;
}

/* audit_rollback - abandon the open transaction, if any */
void audit_rollback(struct audit *db)
{
	sqlite3_stmt *st;

	if (sqlite3_get_autocommit(db->db))
		return;
	st = db_prep(db, sql_rollback);
	if (st) {
		sqlite3_step(st);
		db_finish(st);
	}
}

/*
 * audit_savepoint, audit_savepoint_end - a nested step of the open
 * transaction: kept (RELEASE) or undone alone (ROLLBACK TO, then
 * RELEASE), the rest of the transaction untouched
 */
static const char sql_savepoint[] = "SAVEPOINT step";
static const char sql_release[] = "RELEASE step";
static const char sql_rollback_to[] = "ROLLBACK TO step";

int audit_savepoint(struct audit *db)
{
	if (sqlite3_get_autocommit(db->db))
		return db_bad(db, "a savepoint outside a transaction");
	return run_simple(db, sql_savepoint, "savepoint");
}

int audit_savepoint_end(struct audit *db, bool keep)
{
	char msg[sizeof(db->errmsg)];
	bool temp = db->temporary;
	int rc;

	/* undoing keeps the failure that made us undo */
	memcpy(msg, db->errmsg, sizeof(msg));
	rc = keep ? 0 : run_simple(db, sql_rollback_to, "rollback to");
	if (rc == 0)
		rc = run_simple(db, sql_release, "release");
	if (!keep && rc == 0) {
		memcpy(db->errmsg, msg, sizeof(msg));
		db->temporary = temp;
	}
	return rc;
}

int db_txn_enter(struct audit *db, bool *own)
{
	*own = sqlite3_get_autocommit(db->db);
	return *own ? audit_begin(db) : 0;
}

int db_txn_leave(struct audit *db, bool own, int ret)
{
	if (!own)
		return ret;
	if (ret < 0) {
		bool temp = db->temporary;

		audit_rollback(db);
		db->temporary = temp;
		return ret;
	}
	return audit_commit(db) < 0 ? -1 : ret;
}
