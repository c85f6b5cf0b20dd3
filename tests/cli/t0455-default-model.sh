#!/bin/sh
# t0455-default-model: the model shipped with the rules
# (classifiers/model.bin) votes while STATE_DIR has no model of its own,
# unless routes.conf says shipped_model = no,
# and 'triage train --from-corrections' never forgets the base data nor
# replaces a voting model by one that abstains or does worse
. "$(dirname "$0")/../lib.sh"
CORPUS="$SRC/tests/corpus/classify"
cat >>"$T/routes.conf" <<EOF
rules_dir = $SRC/classifiers
local_rules =
filter_memory_mb = 0
EOF

# model_of FILE: the class the model gives most in explain --json, or null
model_of() {
	"$TRIAGE" explain --json "$1" >"$T/explain.json" &&
	python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["model"]
print("null" if m is None else max(m, key=m.get))' "$T/explain.json"
}

test_expect_success 'the shipped model votes when STATE_DIR has none' '
	test -s "$SRC/classifiers/model.bin" &&
	test ! -e "$TRIAGE_STATE_DIR/model.bin" &&
	test "$(model_of "$CORPUS/user/04-raid.eml")" = user &&
	test "$(model_of "$CORPUS/fuzzer/01-syzbot.eml")" = fuzzer
'

test_expect_success 'shipped_model = no leaves the rules alone' '
	cp "$T/routes.conf" "$T/routes.conf.on" &&
	echo "shipped_model = no" >>"$T/routes.conf" &&
	test "$(model_of "$CORPUS/user/04-raid.eml")" = null &&
	mv "$T/routes.conf.on" "$T/routes.conf" &&
	test "$(model_of "$CORPUS/user/04-raid.eml")" = user
'

test_expect_success 'a site model in STATE_DIR wins over the shipped one' '
	mkdir -p "$TRIAGE_STATE_DIR" &&
	"$TRIAGE" train --dir "$CORPUS" --no-cv >"$T/out" &&
	test -s "$TRIAGE_STATE_DIR/model.bin" &&
	grep -q "abstains until every class" "$T/out" &&
	test "$(model_of "$CORPUS/user/04-raid.eml")" = null &&
	rm "$TRIAGE_STATE_DIR/model.bin" "$TRIAGE_STATE_DIR/model.bin.sources"
'

# a base corpus of 10 per class: the 5 hand-written reports of each
# class and a copy of each under another Message-ID
test_expect_success 'setup: base corpus and a correction (ai to user)' '
	for c in user fuzzer ai; do
		mkdir -p "$T/base/$c" &&
		for f in "$CORPUS/$c"/*.eml; do
			b=$(basename "$f" .eml) &&
			cp "$f" "$T/base/$c/$b.eml" &&
			sed "s/^\(Message-I[Dd]: *<\)/\1copy-/" "$f" >"$T/base/$c/$b-copy.eml" || return 1
		done
	done &&
	test "$(ls "$T/base"/*/*.eml | wc -l)" = 30 &&
	for f in "$CORPUS"/user/01-resume-hang.eml "$CORPUS"/ai/02-theoretical.eml; do
		"$FILTER" <"$f" || return 1
	done &&
	db="$TRIAGE_STATE_DIR/triage.db" &&
	sqlite3 "$db" "BEGIN;
		INSERT INTO actions (report, at, who, action, argument, previous)
		SELECT id, 1, '"'"'tri'"'"', '"'"'reclassify'"'"', '"'"'user'"'"', class
		FROM reports WHERE class <> '"'"'user'"'"';
		UPDATE reports SET class = '"'"'user'"'"';
		COMMIT;" &&
	test "$(sqlite3 "$db" "SELECT count(*) FROM actions WHERE action = '"'"'reclassify'"'"'")" = 1
'

test_expect_success 'train --dir records its base data next to the model' '
	"$TRIAGE" train --dir "$T/base" --output "$T/site.bin" --no-cv >"$T/out" &&
	cat "$T/out" &&
	grep -q "^wrote $T/site.bin: logistic regression, 10 user, 10 fuzzer, 10 ai examples$" "$T/out" &&
	! grep -q "abstains" "$T/out" &&
	grep -qx "dir $(cd "$T/base" && pwd -P)" "$T/site.bin.sources"
'

test_expect_success 'train --from-corrections learns them on top of the base data' '
	cp "$T/site.bin" "$T/site-before.bin" &&
	"$TRIAGE" train --from-corrections --output "$T/site.bin" --no-cv >"$T/out" &&
	cat "$T/out" &&
	grep -q "^base data of $T/site.bin: 1 directories$" "$T/out" &&
	grep -q "^directories *10 *10 *10$" "$T/out" &&
	grep -q "^corrections *1 *0 *0$" "$T/out" &&
	grep -q "^each correction weighs 3 examples$" "$T/out" &&
	grep -q "^wrote $T/site.bin: logistic regression, 11 user, 10 fuzzer, 10 ai examples$" "$T/out" &&
	! grep -q "abstains" "$T/out" &&
	! cmp -s "$T/site.bin" "$T/site-before.bin"
'

test_expect_success 'corrections alone never replace a voting model unless --force' '
	cp "$T/site-before.bin" "$T/lone.bin" &&
	test_exit 73 "$TRIAGE" train --from-corrections --output "$T/lone.bin" --no-cv >"$T/out" &&
	cat "$T/out" &&
	grep -q "^note: no $T/lone.bin.sources: no base data, the corrections alone$" "$T/out" &&
	grep -q "^the new model abstains (every class needs enough examples), the current one votes$" "$T/out" &&
	grep -q "^not written: $T/lone.bin stays as it is (--force replaces it)$" "$T/out" &&
	cmp "$T/lone.bin" "$T/site-before.bin" &&
	"$TRIAGE" train --from-corrections --output "$T/lone.bin" --no-cv --force >"$T/out" &&
	grep -q "^--force: replacing it anyway$" "$T/out" &&
	grep -q "^wrote $T/lone.bin: logistic regression, 1 user, 0 fuzzer, 0 ai examples$" "$T/out"
'

# copy_as FILE N: FILE under another Message-ID, sender and thread
copy_as() {
	awk -v n="$2" '
		/^$/ { body = 1 }
		body { print; next }
		/^[ \t]/ { if (!skip) print; next }
		{ skip = 0 }
		/^(In-Reply-To|References):/ { skip = 1; next }
		/^From:/ { print "From: Copy " n " <copy" n "@example.org>"; next }
		/^Message-I[Dd]:/ { print "Message-ID: <copy" n "@example.org>"; next }
		{ print }' "$1"
}

test_expect_success 'a model worse on the held-out part is refused' '
	n=0 &&
	mkdir -p "$T/good/user" "$T/good/fuzzer" "$T/good/ai" \
		"$T/bad/user" "$T/bad/fuzzer" "$T/bad/ai" &&
	for c in user fuzzer ai; do
		case $c in user) w=fuzzer ;; fuzzer) w=ai ;; ai) w=user ;; esac &&
		for f in "$CORPUS/$c"/*.eml; do
			n=$((n + 1)) &&
			cp "$f" "$T/good/$c/" &&
			cp "$f" "$T/bad/$w/" &&
			sed "s/^\(Message-I[Dd]: *<\)/\1tune-/" "$f" >"$T/good/$c/tune$n.eml" &&
			cp "$T/good/$c/tune$n.eml" "$T/bad/$w/" &&
			sed -n "s/^Message-I[Dd]: *<\(.*\)>.*/\1	tune/p" "$T/good/$c/tune$n.eml" >>"$T/split2.tsv" &&
			copy_as "$f" $n >"$T/good/$c/copy$n.eml" &&
			cp "$T/good/$c/copy$n.eml" "$T/bad/$c/" &&
			printf "copy%s@example.org\theld-out\n" $n >>"$T/split2.tsv" || return 1
		done
	done &&
	for f in "$CORPUS"/*/*.eml; do
		sed -n "s/^Message-I[Dd]: *<\(.*\)>.*/\1	tune/p" "$f" | head -n 1 >>"$T/split2.tsv" || return 1
	done &&
	test "$(wc -l <"$T/split2.tsv")" = 45 &&
	"$TRIAGE" train --dir "$T/good" --split "$T/split2.tsv" --output "$T/held.bin" --no-cv >"$T/out" &&
	cat "$T/out" &&
	grep -q "^held-out part, 15 messages" "$T/out" &&
	cp "$T/held.bin" "$T/held-before.bin" &&
	sed "s|^dir .*|dir $T/bad|" "$T/held.bin.sources" >"$T/sources" &&
	mv "$T/sources" "$T/held.bin.sources" &&
	test_exit 73 "$TRIAGE" train --from-corrections --output "$T/held.bin" --no-cv >"$T/out" &&
	cat "$T/out" &&
	grep -q "^base data of $T/held.bin: 1 directories, split " "$T/out" &&
	grep -q "^# before: macro-F1 1.00;" "$T/out" &&
	grep -q "^# after: macro-F1 0.00;" "$T/out" &&
	grep -q "^the new model is worse on the held-out part: macro-F1 0.000, was 1.000$" "$T/out" &&
	cmp "$T/held.bin" "$T/held-before.bin"
'

test_done
