#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""eval-real - the real filter over real list mail, judged against hand labels

usage: tools/eval-real.py [--bin DIR] [--maintainers FILE] [--kernel-tree DIR]
                          [--model FILE | --no-model] [--json OUT] [--show N]
                          SET...

Each SET is NAME=PART:LABELS:DIR: PART is "tuning" or "held-out", LABELS a
labels file of tests/real/ (message_id, list, file, kind, class, sections,
note), DIR the directory whose LIST/FILE the labels name.  A set whose
directory is absent is skipped with a note.

Every message of a set goes through triage-filter, oldest Date first, into
one fresh state directory per set (threads join within a set), with the
Linux MAINTAINERS, the symbol index of the kernel tree and the model:
--model FILE as the site's STATE_DIR/model.bin, else the one shipped
with the rules (what a new site runs), or none with --no-model.
Then each labelled message is looked up by Message-ID in the database and
compared with its label:

  kind        the kind the router recorded against the labelled kind
              (its confusions counted; with --show, the messages)
  forwarded   non-reports (every kind but report) the router forwarded
              as a report of their own (a new assignment); a follow-up
              that joined a known report and went to its recipient
              with the thread is counted apart
  class       first reports: accuracy over the labelled classes and
              precision/recall per class (uncertain is a miss for
              accuracy and recall, not a prediction); the genuine user
              reports held for a triager instead of forwarded, and
              those classed ai (a genuine user must never be)
  section     first reports: the recorded section is one of the label's
              equally good sections (top-1); one of them is among the
              first three sections the router found (top-3); no section
              at all (unmapped)

Nothing here is tuned: the figures of a "held-out" set are those of mail
nothing in the router was fitted on (tests/real/README).
"""
import argparse
import collections
import csv
import email
import email.policy
import email.utils
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

KINDS = ['report', 'followup', 'patch', 'cover', 'review', 'pull', 'stable',
         'bot', 'bz-update', 'discussion', 'spam']
# the router's names for the labels' kinds
ROUTER_KIND = {'follow-up': 'followup', 'cover-letter': 'cover',
               'pull-request': 'pull'}
CLASSES = ['user', 'fuzzer', 'ai']


def load_labels(path):
    with open(path, newline='') as f:
        rows = [r for r in csv.DictReader(
            (l for l in f if not l.startswith('#')), delimiter='\t')]
    return rows


def msg_date(path):
    try:
        with open(path, 'rb') as f:
            m = email.message_from_binary_file(f, policy=email.policy.compat32)
        d = email.utils.parsedate_to_datetime(str(m.get('Date', '')))
        return d.timestamp()
    except Exception:
        return 0.0


def run(cmd, env, stdin=None, check=True):
    p = subprocess.run(cmd, env=env, stdin=stdin, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if check and p.returncode != 0:
        sys.exit('eval-real: %s failed (%d): %s' % (
            ' '.join(cmd), p.returncode, p.stderr.decode(errors='replace')))
    return p


def prepare_state(args, tmp):
    """routes.conf and compiled indexes, once; each set copies them"""
    base = os.path.join(tmp, 'base')
    os.makedirs(base)
    conf = os.path.join(tmp, 'routes.conf')
    src = os.path.join(args.src, 'routes.conf')
    with open(src) as f:
        text = f.read()
    with open(conf, 'w') as f:
        f.write(text)
        f.write('\n# eval-real\nmaintainers = %s\n' % args.maintainers)
        f.write('kernel_tree = %s\n' % (args.kernel_tree or ''))
        f.write('tree = %s\n' % (args.kernel_tree or ''))
        f.write('rules_dir = %s\n' % os.path.join(args.src, 'classifiers'))
        f.write('transport = smtp\n')
        # the stream is fed in seconds: a per-sender cap per 24 hours
        # would hold a list's regular posters, which is no judgment
        f.write('sender_cap = 0\n')
        if args.no_model:
            f.write('shipped_model = no\n')
    env = dict(os.environ, TRIAGE_CONFIG=conf, TRIAGE_STATE_DIR=base,
               LC_ALL='C')
    env.pop('TRIAGE_NOW', None)
    run([os.path.join(args.bin, 'triage'), 'update'], env)
    if args.model:
        shutil.copy(args.model, os.path.join(base, 'model.bin'))
    return conf, base


def feed(args, conf, base, tmp, name, rows, root):
    state = os.path.join(tmp, 'state-' + name)
    shutil.copytree(base, state)
    env = dict(os.environ, TRIAGE_CONFIG=conf, TRIAGE_STATE_DIR=state,
               LC_ALL='C', SENDER='reporter@example.org',
               RECIPIENT='bugs@example.org')
    paths = sorted({os.path.join(root, r['list'], r['file']) for r in rows})
    paths = [p for p in paths if os.path.exists(p)]
    paths.sort(key=msg_date)
    bad = 0
    for p in paths:
        with open(p, 'rb') as f:
            r = run([os.path.join(args.bin, 'triage-filter')], env, stdin=f,
                    check=False)
        if r.returncode != 0 or r.stdout:
            bad += 1
            print('# %s: exit %d, %d bytes on stdout: %s' % (
                p, r.returncode, len(r.stdout),
                r.stderr.decode(errors='replace').strip()[:200]))
    return os.path.join(state, 'triage.db'), len(paths), bad


def columns(db, table):
    return {r[1] for r in db.execute('PRAGMA table_info(%s)' % table)}


def hold_cause(reason):
    """the cause a hold reason names, to count holds by: without the class
    prefix and the message's own words.

    >>> hold_cause('user: no sign of a bug anyone hit: no crash, ...')
    'no sign of a bug anyone hit'
    >>> hold_cause('uncertain: held for a triager (action uncertain hold)')
    'held for a triager (class uncertain)'
    >>> hold_cause('ai: held for a triager (action ai hold); regression: x')
    'held for a triager (class ai)'
    >>> hold_cause('user: MAINTAINERS B: asks for reports on a@b.org, but '
    ...            'MAINTAINERS marks it moderated: closed to outsiders; held')
    'list asked for, but MAINTAINERS marks it moderated'
    >>> hold_cause('user: X names no person, only its list a@b.org, but no '
    ...            'user rule reached the user threshold: a say-so; held')
    'list asked for, but no user rule reached the user threshold'
    >>> hold_cause('')
    'no reason recorded'
    """
    m = re.match(r'^(user|fuzzer|ai|uncertain): (.*)$', reason or '', re.S)
    cls, rest = (m.group(1), m.group(2)) if m else ('', reason or '')
    if not rest.strip():
        return 'no reason recorded'
    first = rest.split(';', 1)[0]
    if ', but ' in first:
        # act.c's list fallback: "<why the list>, but <why held>: ..."
        return 'list asked for, but ' + re.split(
            r'[:;(]', first.split(', but ', 1)[1])[0].strip()
    cause = re.split(r'[:;(]', rest)[0].strip()
    if cause == 'held for a triager' and cls:
        cause += ' (class %s)' % cls
    return cause


def lookup(dbpath):
    """Message-ID -> what the router recorded for the first row of it"""
    db = sqlite3.connect(dbpath)
    cols = columns(db, 'reports')
    kind = 'kind' if 'kind' in cols else "'report'"
    out = {}
    q = ('SELECT r.id, r.message_id, %s, r.class, r.state, r.section, '
         'r.sections, (SELECT group_concat(action) FROM decisions d '
         'WHERE d.report = r.id), (SELECT reason FROM decisions d '
         "WHERE d.report = r.id AND d.action = 'hold' ORDER BY d.id DESC "
         'LIMIT 1) FROM reports r ORDER BY r.id' % kind)
    for rid, mid, k, cls, state, sec, secs, acts, why in db.execute(q):
        if mid is None or mid in out:
            continue
        try:
            seclist = [s['name'] for s in json.loads(secs or '[]')]
        except (ValueError, TypeError, KeyError):
            seclist = []
        out[mid] = dict(id=rid, kind=ROUTER_KIND.get(k, k), cls=cls,
                        state=state, section=sec, sections=seclist,
                        hold_reason=why or '',
                        # a new assignment, not a follow-up sent with
                        # its report's thread
                        forwarded='forward' in (acts or '').split(','),
                        with_thread='follow-up' in (acts or '').split(',')
                        and state == 'forwarded')
    return out


def ratio(a, b):
    return a / b if b else float('nan')


def judge(rows, got, show):
    res = collections.OrderedDict()
    kind_ok = kind_n = 0
    conf = collections.Counter()
    nonrep = fwd_nonrep = 0
    fwd_examples = []
    kind_misses = []
    thread_fwd = collections.Counter()
    reports = []
    missing = 0
    for r in rows:
        g = got.get(r['message_id'])
        if g is None:
            missing += 1
            continue
        kind_n += 1
        if g['kind'] == r['kind']:
            kind_ok += 1
        else:
            conf[(r['kind'], g['kind'])] += 1
            kind_misses.append('%s/%s %s as %s' % (r['list'], r['file'],
                                                   r['kind'], g['kind']))
        if r['kind'] != 'report':
            nonrep += 1
            if g['forwarded']:
                fwd_nonrep += 1
                fwd_examples.append('%s/%s (%s)' % (r['list'], r['file'],
                                                    r['kind']))
            elif g['with_thread']:
                thread_fwd[r['kind']] += 1
        else:
            reports.append((r, g))
    res['messages'] = kind_n
    res['not recorded'] = missing
    res['kind accuracy'] = ratio(kind_ok, kind_n)
    res['kind confusions'] = ['%s as %s: %d' % (a, b, n)
                              for (a, b), n in conf.most_common(12)]
    res['kind misses'] = kind_misses[:show]
    res['non-reports'] = nonrep
    res['forwarded non-reports'] = fwd_nonrep
    res['forwarded non-reports share'] = ratio(fwd_nonrep, nonrep)
    res['forwarded examples'] = fwd_examples[:show]
    res['sent with their report (follow-ups)'] = sum(thread_fwd.values())
    res['sent with their report, by label'] = [
        '%s: %d' % kv for kv in thread_fwd.most_common()]

    # first reports: class and section
    n = len(reports)
    res['first reports'] = n
    tp = collections.Counter()
    pred = collections.Counter()
    true = collections.Counter()
    verdicts = 0
    top1 = top3 = unmapped = 0
    sec_misses = []
    cls_misses = []
    for r, g in reports:
        want = r['class']
        true[want] += 1
        if g['cls'] in CLASSES:
            pred[g['cls']] += 1
            if g['cls'] == want:
                tp[want] += 1
        if g['cls']:
            verdicts += 1
        if g['cls'] != want:
            cls_misses.append('%s/%s want %s got %s' % (
                r['list'], r['file'], want, g['cls']))
        ok = [s.lower() for s in r['sections'].split('|') if s and s != '-']
        if not ok:
            continue
        secs = [s.lower() for s in g['sections']]
        chosen = (g['section'] or (secs[0] if secs else '')).lower()
        if not secs and not chosen:
            unmapped += 1
        if chosen in ok:
            top1 += 1
        if any(s in ok for s in secs[:3]) or chosen in ok:
            top3 += 1
        if chosen not in ok:
            sec_misses.append('%s/%s want %s got %s' % (
                r['list'], r['file'], r['sections'], chosen or '(none)'))
    res['first reports with a verdict'] = verdicts
    # what reached a maintainer: a held report waits for a triager
    users = [g for r, g in reports if r['class'] == 'user']
    held = [(r, g) for r, g in reports
            if r['class'] == 'user' and g['state'] == 'held']
    res['user reports held for a triager'] = len(held)
    res['user reports held share'] = ratio(len(held), len(users))
    why = collections.Counter(hold_cause(g['hold_reason']) for r, g in held)
    res['user reports held, by reason'] = ['%s: %d' % kv
                                           for kv in why.most_common()]
    res['user reports held, examples'] = [
        '%s/%s: %s' % (r['list'], r['file'], g['hold_reason'])
        for r, g in held][:show]
    res['user reports classed ai'] = sum(1 for r, g in reports
                                         if r['class'] == 'user' and
                                         g['cls'] == 'ai')
    res['class accuracy'] = ratio(sum(tp.values()),
                                  sum(true[c] for c in CLASSES))
    for c in CLASSES:
        res['%s precision' % c] = ratio(tp[c], pred[c])
        res['%s recall' % c] = ratio(tp[c], true[c])
        res['%s count' % c] = true[c]
    mapped_n = sum(1 for r, g in reports
                   if [s for s in r['sections'].split('|') if s and s != '-'])
    res['section top-1'] = ratio(top1, mapped_n)
    res['section top-3'] = ratio(top3, mapped_n)
    res['unmapped share'] = ratio(unmapped, mapped_n)
    res['class misses'] = cls_misses[:show]
    res['section misses'] = sec_misses[:show]
    return res


def fmt(v):
    if isinstance(v, float):
        return 'n/a' if v != v else '%.3f' % v
    return str(v)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument('--src', default=os.path.dirname(here))
    ap.add_argument('--bin', default=None)
    ap.add_argument('--maintainers', required=True)
    ap.add_argument('--kernel-tree', default='')
    ap.add_argument('--model', default='')
    ap.add_argument('--no-model', action='store_true',
                    help='the rules alone (shipped_model = no)')
    ap.add_argument('--json', default='')
    ap.add_argument('--show', type=int, default=15)
    ap.add_argument('--keep', action='store_true',
                    help='keep the state directories (their path is printed)')
    ap.add_argument('sets', nargs='+')
    args = ap.parse_args()
    args.bin = args.bin or args.src
    tmp = tempfile.mkdtemp(prefix='eval-real.')
    results = collections.OrderedDict()
    try:
        conf, base = prepare_state(args, tmp)
        for s in args.sets:
            name, spec = s.split('=', 1)
            part, labels, root = spec.split(':', 2)
            if not os.path.isdir(root):
                print('== %s (%s): %s is absent: skipped' % (name, part, root))
                continue
            rows = load_labels(labels)
            dbpath, nfed, bad = feed(args, conf, base, tmp, name, rows, root)
            res = judge(rows, lookup(dbpath), args.show)
            res['filter runs'] = nfed
            res['filter runs not exiting 0 silently'] = bad
            results[name] = dict(part=part, **res)
            print('== %s (%s, %s)' % (name, part, labels))
            for k, v in res.items():
                if isinstance(v, list):
                    for x in v:
                        print('   %-34s %s' % (k, x))
                else:
                    print('   %-34s %s' % (k, fmt(v)))
    finally:
        if args.keep:
            print('# state kept in %s' % tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(results, f, indent=1)


if __name__ == '__main__':
    main()
