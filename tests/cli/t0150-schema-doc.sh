#!/bin/sh
# t0150-schema-doc: triage(1) DATABASE describes the live schema
#
# The schema is written once, as SQL (the migrations of router/store/schema.c);
# the man page describes it.  A fresh database made by triage-filter is
# compared with the DATABASE section: every table and every column
# (PRAGMA table_info) must be there, as an italic name (\fIcolumn\fP)
# in the table's entry, and no other; and every value a CHECK (column
# IN (...)) list allows, which is every action, state, kind, class and
# source the code can record, must be in the "(a|b|c)" list written
# after the column, and no other.
. "$(dirname "$0")/../lib.sh"

DB="$T/state/triage.db"
MAN="$SRC/man/triage.1"
cat >"$T/routes.conf" <<CONF
state_dir = $T/state
maintainers = $SRC/tests/data/MAINTAINERS.kernel
rules_dir = $SRC/classifiers
router_address = triage@example.org
CONF
unset TRIAGE_STATE_DIR

if ! command -v sqlite3 >/dev/null; then
	test_skip 'sqlite3 is not installed: the schema is not compared with triage(1)'
	test_done
	exit 0
fi

# man_schema: "table column" and "table column value" lines of the
# DATABASE section of triage(1); a table's entry is a .TP whose next
# line is ".B table", and ends at the next .TP, .PP or .SH
man_schema() {
	awk '
	function flush(   s, col, rest, list, n, v, i) {
		if (table == "")
			return
		s = text
		gsub(/\\-/, "-", s)
		while (match(s, /\\fI[a-z0-9_]+\\fP/)) {
			col = substr(s, RSTART + 3, RLENGTH - 6)
			s = substr(s, RSTART + RLENGTH)
			print table, col
			# a list of values right after it: " (a|b|c" up to ")", ":" or ";"
			if (match(s, /^ \([a-z-]+ *(\| *[a-z-]+ *)+[);:]/)) {
				list = substr(s, 3, RLENGTH - 3)
				gsub(/ /, "", list)
				n = split(list, v, "|")
				for (i = 1; i <= n; i++)
					print table, col, v[i]
			}
		}
		table = ""
	}
	/^\.SH / { flush(); indb = ($0 == ".SH DATABASE"); next }
	!indb { next }
	/^\.(TP|PP)$/ { flush(); tp = ($0 == ".TP"); next }
	tp && /^\.B [a-z_]+$/ { table = $2; text = ""; tp = 0; next }
	{ tp = 0; if (table != "") text = text " " $0 }
	END { flush() }
	' "$MAN"
}

# db_schema: the same lines from the database's own schema
db_schema() {
	sqlite3 "$DB" "SELECT m.name || ' ' || p.name FROM sqlite_schema m,
		pragma_table_info(m.name) p WHERE m.type = 'table' AND
		m.name NOT LIKE 'sqlite_%'" &&
	sqlite3 "$DB" "SELECT name || ' ' || replace(replace(sql, char(10), ' '),
		char(9), ' ') FROM sqlite_schema WHERE type = 'table' AND
		name NOT LIKE 'sqlite_%'" |
	awk '{
		table = $1
		s = $0
		gsub(/  +/, " ", s)
		while (match(s, /CHECK \([a-z_]+ IN \([^)]*\)/)) {
			c = substr(s, RSTART + 7, RLENGTH - 7)
			s = substr(s, RSTART + RLENGTH)
			col = c
			sub(/ .*/, "", col)
			sub(/^[^(]*\(/, "", c)
			sub(/\)$/, "", c)
			gsub(/[ '\'']/, "", c)
			n = split(c, v, ",")
			for (i = 1; i <= n; i++)
				print table, col, v[i]
		}
	}'
}

test_expect_success 'a fresh database, made by triage-filter' '
	"$FILTER" <"$SRC/tests/corpus/explain/0001-user-xfs-oops.eml" &&
	test "$(sqlite3 "$DB" "select count(*) from reports")" = 1 &&
	test "$(sqlite3 "$DB" "pragma user_version")" -gt 0
'

test_expect_success 'the DATABASE section of triage(1) is found and read' '
	man_schema | sort -u >"$T/man" &&
	# every table has an entry, and the action lists were read
	test "$(cut -d" " -f1 "$T/man" | sort -u | wc -l)" -ge 11 &&
	grep -q "^decisions action seen-again$" "$T/man" &&
	grep -q "^actions action release$" "$T/man"
'

test_expect_success 'every table and column of the live schema is in triage(1), and no other' '
	db_schema | awk "NF == 2" | sort >"$T/db.columns" &&
	test "$(wc -l <"$T/db.columns")" -ge 100 &&
	awk "NF == 2" "$T/man" >"$T/man.columns" &&
	test_cmp "$T/db.columns" "$T/man.columns"
'

test_expect_success 'every value a CHECK list allows (every action name) is in triage(1), and no other' '
	db_schema | awk "NF == 3" | sort >"$T/db.values" &&
	grep -q "^decisions action follow-up$" "$T/db.values" &&
	grep -q "^actions action undup$" "$T/db.values" &&
	grep -q "^outbox kind bugzilla$" "$T/db.values" &&
	awk "NF == 3" "$T/man" >"$T/man.values" &&
	test_cmp "$T/db.values" "$T/man.values"
'

test_done
