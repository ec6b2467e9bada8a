#!/usr/bin/env python3
"""Build a stress corpus for the diff-apply engine, in the format of the
public sample corpus, so that the corpus tools' score.py runs on it
unchanged.

Bases are real version-to-version changes of real projects (Go modules from
the Go module proxy, packages from the npm registry).  For every pair of
nearby versions the changed text files are diffed with
`git diff --no-index -U3`, the paths are rewritten to `a/<path>` `b/<path>`
and every base (1-3 changed files) is verified with plain `git apply`.

Cases: every base gets its `clean` case plus every class of classes.json that
applies to it (see README.md written into the output directory).

  stress-corpus.py --out OUT_DIR --cache CACHE_DIR [--seed 20240611] [--max-bases 80]
  stress-corpus.py --cache CACHE_DIR --explore   # list the changed files per version pair
  stress-corpus.py --out OUT_DIR --cache CACHE_DIR --sources SOURCES.json --ext .py,.go,.js

--sources replaces the built-in list with a JSON list of
[kind, name, old, new, repo, licence] rows.  kind is "go" (a module from the
Go module proxy), "npm" (a package from the npm registry) or "local": then
old and new are paths to two directories, or to two .whl/.zip archives, for
example the pip wheels that different Python installations bundle.
--ext replaces the list of file endings taken (default: .go .js .mjs .cjs
.ts .mts .cts .md).

Standard library only; needs `go` (go mod download), `npm` (npm pack) and
`git` on PATH.  Downloads are cached under --cache; the output is a pure
function of the sources and --seed.
"""
import argparse
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

# (kind, module or package, old version, new version, GitHub repo, licence)
SOURCES = [
    ('go', 'github.com/urfave/cli/v2', 'v2.25.7', 'v2.27.1', 'urfave/cli', 'MIT'),
    ('go', 'github.com/go-git/go-git/v5', 'v5.11.0', 'v5.12.0', 'go-git/go-git', 'Apache-2.0'),
    ('go', 'github.com/sergi/go-diff', 'v1.1.0', 'v1.2.0', 'sergi/go-diff', 'MIT'),
    ('go', 'github.com/rogpeppe/go-internal', 'v1.11.0', 'v1.12.0', 'rogpeppe/go-internal', 'BSD-3-Clause'),
    ('go', 'golang.org/x/text', 'v0.3.7', 'v0.3.8', 'golang/text', 'BSD-3-Clause'),
    ('go', 'golang.org/x/tools', 'v0.20.0', 'v0.21.0', 'golang/tools', 'BSD-3-Clause'),
    ('go', 'github.com/BurntSushi/toml', 'v1.3.2', 'v1.4.0', 'BurntSushi/toml', 'MIT'),
    ('go', 'github.com/spf13/pflag', 'v1.0.5', 'v1.0.6', 'spf13/pflag', 'BSD-3-Clause'),
    ('npm', 'express', '4.18.2', '4.19.2', 'expressjs/express', 'MIT'),
    ('npm', 'jquery', '3.6.0', '3.6.1', 'jquery/jquery', 'MIT'),
    ('npm', 'fastify', '4.26.0', '4.26.2', 'fastify/fastify', 'MIT'),
    ('npm', 'ws', '8.16.0', '8.17.0', 'websockets/ws', 'MIT'),
    ('npm', 'lodash', '4.17.20', '4.17.21', 'lodash/lodash', 'MIT'),
    ('npm', 'chalk', '5.0.0', '5.2.0', 'chalk/chalk', 'MIT'),
    ('npm', 'type-fest', '4.10.0', '4.10.3', 'sindresorhus/type-fest', 'MIT OR CC0-1.0'),
    ('npm', 'minimist', '1.2.5', '1.2.6', 'minimistjs/minimist', 'MIT'),
    ('npm', 'debug', '4.3.4', '4.3.5', 'debug-js/debug', 'MIT'),
    ('npm', 'semver', '7.5.4', '7.6.0', 'npm/node-semver', 'ISC'),
]

TEXT_EXT = ('.go', '.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.md')
SKIP_DIRS = {'vendor', 'node_modules', 'third_party', 'dist', 'build', '.git',
             'site-packages', '__pycache__'}
MAX_FILE = 200 * 1024
MAX_HUNKS_FILE = 12
MAX_HUNKS_BASE = 12
MAX_BODY_BASE = 320          # patch body lines per base (commit-sized)
PER_PAIR = 5                 # bases per version pair at most

CLASSES = [
    'clean', 'lineno_off_small', 'lineno_off_large', 'no_linenos', 'counts_wrong',
    'ws_trailing_added', 'ws_trailing_stripped', 'indent_ctx', 'indent_tabs_to_spaces_all',
    'outdent', 'ctx_line_missing', 'stale_context', 'missing_plus', 'hunks_reordered',
    'merged_hunks', 'hdr_no_git', 'hdr_no_prefix', 'hdr_missing', 'crlf', 'combo_aider',
    'combo_sloppy', 'combo_hard',
]

CLASS_DESC = {
    "clean": "control: the real git diff, unmodified",
    "lineno_off_small": "every @@ start shifted by +-1..5 (per hunk)",
    "lineno_off_large": "every @@ start shifted by +-15..80 (per hunk)",
    "no_linenos": "every hunk header is \"@@ ... @@\" (no numbers)",
    "counts_wrong": "hunk line counts off by +-1..2",
    "ws_trailing_added": "trailing space/tab appended to ~half of context lines",
    "ws_trailing_stripped": "trailing whitespace stripped from context lines (only bases whose context has some)",
    "indent_ctx": "1-3 context lines of one hunk re-indented (tabs->spaces, or +-2 spaces)",
    "indent_tabs_to_spaces_all": "all leading tabs in the hunk bodies (incl. + lines) -> 4 spaces",
    "outdent": "one hunk uniformly outdented (common leading ws removed from all its lines, incl. + lines)",
    "ctx_line_missing": "one interior context line dropped (counts consistent)",
    "stale_context": "one context line slightly altered (a word pluralised/case-flipped/char dropped)",
    "missing_plus": "one added line written as context (\" \" instead of \"+\")",
    "hunks_reordered": "hunks of each multi-hunk file in reverse order",
    "merged_hunks": "two adjacent hunks fused into one, lines between them silently skipped",
    "hdr_no_git": "no \"diff --git\"/index/mode lines, only ---/+++ a/ b/",
    "hdr_no_prefix": "only \"--- path\" / \"+++ path\" without a/ b/ prefixes",
    "hdr_missing": "no ---/+++ lines; only the \"diff --git a/x b/x\" line names the file",
    "crlf": "whole patch uses CRLF line endings (files are LF)",
    "combo_aider": "aider style: \"--- path\"/\"+++ path\" + \"@@ ... @@\"",
    "combo_sloppy": "lineno_off_small + counts_wrong + hdr_no_git + ws_trailing_added",
    "combo_hard": "combo_aider + one of ctx_line_missing/indent_ctx/stale_context",
}


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- fetching

def fetch(kind, name, ver, cache):
    """Return the directory holding the source of name@ver."""
    if kind == 'local':
        if os.path.isdir(ver):
            return ver
        dest = os.path.join(cache, 'local', hashlib.sha1(os.path.abspath(ver).encode()).hexdigest()[:16])
        if not os.path.isdir(dest):
            tmp = dest + '.tmp'
            shutil.rmtree(tmp, ignore_errors=True)
            os.makedirs(tmp)
            shutil.unpack_archive(ver, tmp, format='zip' if ver.endswith('.whl') else None)
            os.rename(tmp, dest)
        return dest
    if kind == 'go':
        env = dict(os.environ, GOFLAGS='-mod=mod', GO111MODULE='on')
        with tempfile.TemporaryDirectory() as td:
            r = subprocess.run(['go', 'mod', 'download', '-json', '%s@%s' % (name, ver)],
                               cwd=td, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               check=True)
        info = json.loads(r.stdout)
        if info.get('Error'):
            raise RuntimeError(info['Error'])
        return info['Dir']
    dest = os.path.join(cache, 'npm', '%s@%s' % (name.replace('/', '+'), ver))
    if not os.path.isdir(dest):
        os.makedirs(os.path.join(cache, 'npm-tgz'), exist_ok=True)
        tgzdir = os.path.join(cache, 'npm-tgz')
        r = subprocess.run(['npm', 'pack', '%s@%s' % (name, ver), '--silent',
                            '--pack-destination', tgzdir],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)
        fn = r.stdout.decode().strip().splitlines()[-1]
        tmp = dest + '.tmp'
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        with tarfile.open(os.path.join(tgzdir, fn)) as tf:
            for m in tf.getmembers():
                if not m.isfile():
                    continue
                parts = m.name.split('/')[1:]          # strip "package/"
                if not parts or any(p in ('', '.', '..') for p in parts):
                    continue
                fp = os.path.join(tmp, *parts)
                os.makedirs(os.path.dirname(fp), exist_ok=True)
                with open(fp, 'wb') as f:
                    f.write(tf.extractfile(m).read())
        os.rename(tmp, dest)
    return dest


def walk(root):
    out = {}
    for dp, dns, fns in os.walk(root):
        dns[:] = sorted(d for d in dns if d not in SKIP_DIRS and d != 'testdata')
        for fn in fns:
            fp = os.path.join(dp, fn)
            out[os.path.relpath(fp, root).replace(os.sep, '/')] = fp
    return out


GEN_RE = re.compile(r'(DO NOT EDIT|@generated|auto-generated|autogenerated|this file is generated)', re.I)


def load_text(fp):
    if os.path.getsize(fp) > MAX_FILE:
        return None
    with open(fp, 'rb') as f:
        b = f.read()
    if b'\0' in b or b'\r' in b or not b.endswith(b'\n'):
        return None
    try:
        t = b.decode('utf-8')
    except UnicodeDecodeError:
        return None
    head = '\n'.join(t.split('\n')[:15])
    if GEN_RE.search(head):
        return None
    if any(len(l) > 400 for l in t.split('\n')):   # minified / bundled
        return None
    return t


def eligible_path(p):
    if not p.endswith(tuple(TEXT_EXT)) or p.endswith('.min.js') or 'generated' in p.rsplit('/', 1)[-1]:
        return False
    if not re.fullmatch(r'[A-Za-z0-9_./@+-]+', p):
        return False
    return not any(part in SKIP_DIRS for part in p.split('/'))


# ---------------------------------------------------------------- diffs

def git_diff(pre, post, path):
    """Real `git diff --no-index -U3` of one file, paths rewritten to a/<path> b/<path>."""
    with tempfile.TemporaryDirectory() as td:
        for side, text in (('pre', pre), ('post', post)):
            fp = os.path.join(td, side, path)
            os.makedirs(os.path.dirname(fp), exist_ok=True)
            with open(fp, 'w', newline='') as f:
                f.write(text)
        r = subprocess.run(['git', '-c', 'core.quotepath=off', '-c', 'diff.noprefix=false',
                            '-c', 'diff.mnemonicPrefix=false', '-c', 'core.autocrlf=false',
                            'diff', '--no-index', '--no-color', '--no-ext-diff', '-U3',
                            '--diff-algorithm=myers', '--src-prefix=a/', '--dst-prefix=b/',
                            'pre/' + path, 'post/' + path],
                           cwd=td, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode not in (0, 1):
        raise RuntimeError(r.stderr.decode())
    text = r.stdout.decode('utf-8')
    if not text:
        return ''
    lines = text.split('\n')
    out, in_hdr = [], True
    for l in lines:
        if l.startswith('@@'):
            in_hdr = False
        if in_hdr:
            l = l.replace('a/pre/' + path, 'a/' + path).replace('b/post/' + path, 'b/' + path)
        out.append(l)
    return '\n'.join(out)


def git_apply_ok(pre, post, patch):
    with tempfile.TemporaryDirectory() as td:
        work = os.path.join(td, 'w')
        os.mkdir(work)
        for p, c in pre.items():
            fp = os.path.join(work, p)
            os.makedirs(os.path.dirname(fp), exist_ok=True)
            with open(fp, 'w', newline='') as f:
                f.write(c)
        q = dict(cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run(['git', 'init', '-q'], **q)
        pf = os.path.join(td, 'p.diff')
        with open(pf, 'w', newline='') as f:
            f.write(patch)
        if subprocess.run(['git', 'apply', pf], **q).returncode != 0:
            return False
        for p, c in post.items():
            with open(os.path.join(work, p), newline='') as f:
                if f.read() != c:
                    return False
    return True


HUNK_RE = re.compile(r'^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$')


class Hunk:
    def __init__(self, os_, oc, ns, nc, section, lines):
        self.os, self.oc, self.ns, self.nc, self.section, self.lines = os_, oc, ns, nc, section, lines

    def copy(self):
        return Hunk(self.os, self.oc, self.ns, self.nc, self.section, list(self.lines))


class FileDiff:
    def __init__(self, path, header, hunks):
        self.path, self.header, self.hunks = path, header, hunks

    def copy(self):
        return FileDiff(self.path, list(self.header), [h.copy() for h in self.hunks])


def parse_patch(text):
    files = []
    cur = None
    for l in text.split('\n')[:-1] if text.endswith('\n') else text.split('\n'):
        if l.startswith('diff --git '):
            path = l.split(' b/', 1)[1]
            cur = FileDiff(path, [l], [])
            files.append(cur)
        elif cur is not None and not cur.hunks and not l.startswith('@@'):
            cur.header.append(l)
        elif l.startswith('@@'):
            m = HUNK_RE.match(l)
            cnt = lambda g: 1 if g is None else int(g)
            cur.hunks.append(Hunk(int(m.group(1)), cnt(m.group(2)), int(m.group(3)), cnt(m.group(4)),
                                  m.group(5), []))
        else:
            assert l[:1] in (' ', '+', '-'), repr(l)
            cur.hunks[-1].lines.append(l)
    return files


def rng_of(seed, *parts):
    return random.Random(hashlib.sha256(('%s|' % seed + '|'.join(map(str, parts))).encode()).hexdigest())


def fmt_range(start, count):
    return '%d' % start if count == 1 else '%d,%d' % (start, count)


def render(files, hdr='git', linenos=True):
    out = []
    for f in files:
        if hdr == 'git':
            out.extend(f.header)
        elif hdr == 'no_git':
            out.extend([l for l in f.header if l.startswith(('--- ', '+++ '))])
        elif hdr == 'no_prefix':
            out.extend(['--- ' + f.path, '+++ ' + f.path])
        elif hdr == 'missing':
            out.extend([l for l in f.header if l.startswith('diff --git ')])
        for h in f.hunks:
            if linenos:
                out.append('@@ -%s +%s @@%s' % (fmt_range(h.os, h.oc), fmt_range(h.ns, h.nc), h.section))
            else:
                out.append('@@ ... @@')
            out.extend(h.lines)
    return '\n'.join(out) + '\n'


# ---------------------------------------------------------------- perturbations
# Each takes (files, rng) -> params dict, mutating files; returns None if the
# class does not apply to this base.

def p_lineno(files, rng, lo, hi):
    deltas = []
    for f in files:
        for h in f.hunks:
            d = rng.randint(lo, hi) * rng.choice((-1, 1))
            if min(h.os, h.ns) + d < 1:
                d = -d
            h.os += d
            h.ns += d
            deltas.append(d)
    return {'deltas': deltas}


def p_counts(files, rng):
    cd = []
    for f in files:
        for h in f.hunks:
            while True:
                do, dn = rng.randint(-2, 2), rng.randint(-2, 2)
                if (do or dn) and h.oc + do >= 0 and h.nc + dn >= 0:
                    break
            h.oc += do
            h.nc += dn
            cd.append([do, dn])
    return {'count_deltas': cd}


def ctx_refs(files, pred=lambda c: True, interior=False):
    out = []
    for fi, f in enumerate(files):
        for hi, h in enumerate(f.hunks):
            for li, l in enumerate(h.lines):
                if l[0] != ' ' or not pred(l[1:]):
                    continue
                if interior and (li == 0 or li == len(h.lines) - 1):
                    continue
                out.append((fi, hi, li))
    return out


def p_ws_added(files, rng):
    refs = ctx_refs(files, lambda c: c.strip() != '')
    if not refs:
        return None
    chosen = [r for r in refs if rng.random() < 0.5] or [rng.choice(refs)]
    for fi, hi, li in chosen:
        h = files[fi].hunks[hi]
        h.lines[li] += rng.choice((' ', '  ', '\t'))
    return {'lines': len(chosen)}


def p_ws_stripped(files, rng):
    refs = ctx_refs(files, lambda c: c != c.rstrip())
    if not refs:
        return None
    for fi, hi, li in refs:
        h = files[fi].hunks[hi]
        h.lines[li] = ' ' + h.lines[li][1:].rstrip()
    return {'lines': len(refs)}


def lead(c):
    return c[:len(c) - len(c.lstrip(' \t'))]


def p_indent_ctx(files, rng):
    refs = ctx_refs(files, lambda c: c.strip() != '' and lead(c) != '')
    if not refs:
        return None
    hunks = sorted({(fi, hi) for fi, hi, _ in refs})
    fi, hi = rng.choice(hunks)
    mine = [r for r in refs if r[:2] == (fi, hi)]
    chosen = rng.sample(mine, min(len(mine), rng.randint(1, 3)))
    h = files[fi].hunks[hi]
    for _, _, li in chosen:
        c = h.lines[li][1:]
        ws, rest = lead(c), c.lstrip(' \t')
        if '\t' in ws:
            ws = ws.replace('\t', '    ')
        elif len(ws) >= 2 and rng.random() < 0.5:
            ws = ws[:-2]
        else:
            ws = ws + '  '
        h.lines[li] = ' ' + ws + rest
    return {'lines': len(chosen)}


def p_tabs_all(files, rng):
    n = 0
    for f in files:
        for h in f.hunks:
            for i, l in enumerate(h.lines):
                c = l[1:]
                ws = lead(c)
                if '\t' in ws:
                    h.lines[i] = l[0] + ws.replace('\t', '    ') + c[len(ws):]
                    n += 1
    return {'lines': n} if n else None


def common_ws(lines):
    cs = [l[1:] for l in lines if l[1:] != '']
    if not cs:
        return ''
    return lead(os.path.commonprefix(cs))


def p_outdent(files, rng):
    cands = [(fi, hi) for fi, f in enumerate(files) for hi, h in enumerate(f.hunks)
             if common_ws(h.lines)]
    if not cands:
        return None
    fi, hi = rng.choice(cands)
    h = files[fi].hunks[hi]
    ws = common_ws(h.lines)
    h.lines = [l if l[1:] == '' else l[0] + l[1 + len(ws):] for l in h.lines]
    return {'removed_indent': ws}


def p_ctx_missing(files, rng):
    refs = ctx_refs(files, interior=True)
    if not refs:
        return None
    fi, hi, li = rng.choice(refs)
    h = files[fi].hunks[hi]
    removed = h.lines.pop(li)
    h.oc -= 1
    h.nc -= 1
    return {'removed': removed}


WORD_RE = re.compile(r'[A-Za-z]{3,}')


def stale(line, rng):
    words = list(WORD_RE.finditer(line[1:]))
    if not words:
        return None
    m = rng.choice(words)
    w = m.group(0)
    kind = rng.choice(('plural', 'case', 'drop'))
    if kind == 'plural':
        nw = w + 's'
    elif kind == 'case':
        nw = w[0].swapcase() + w[1:]
    else:
        i = rng.randint(1, len(w) - 2)
        nw = w[:i] + w[i + 1:]
    s, e = m.start() + 1, m.end() + 1
    return line[:s] + nw + line[e:]


def p_stale(files, rng):
    refs = ctx_refs(files, lambda c: WORD_RE.search(c) is not None)
    if not refs:
        return None
    fi, hi, li = rng.choice(refs)
    h = files[fi].hunks[hi]
    old = h.lines[li]
    new = stale(old, rng)
    h.lines[li] = new
    return {'from': old, 'to': new}


def p_missing_plus(files, rng):
    refs = [(fi, hi, li) for fi, f in enumerate(files) for hi, h in enumerate(f.hunks)
            for li, l in enumerate(h.lines) if l[0] == '+' and l[1:].strip()]
    if not refs:
        return None
    fi, hi, li = rng.choice(refs)
    h = files[fi].hunks[hi]
    h.lines[li] = ' ' + h.lines[li][1:]
    h.oc += 1
    return {'line': h.lines[li]}


def p_reorder(files, rng):
    n = 0
    for f in files:
        if len(f.hunks) > 1:
            f.hunks.reverse()
            n += 1
    return {'files_reordered': n} if n else None


def p_merge(files, rng):
    cands = [(fi, hi) for fi, f in enumerate(files) for hi in range(len(f.hunks) - 1)]
    if not cands:
        return None
    fi, hi = rng.choice(cands)
    f = files[fi]
    a, b = f.hunks[hi], f.hunks[hi + 1]
    skipped = b.os - (a.os + a.oc)
    m = Hunk(a.os, a.oc + b.oc, a.ns, a.nc + b.nc, a.section, a.lines + b.lines)
    f.hunks[hi:hi + 2] = [m]
    return {'skipped_lines': skipped}


def case_for(cls, files0, rng):
    """Return (patch text, params) or None if cls does not apply to the base."""
    files = [f.copy() for f in files0]
    fns = {
        'ws_trailing_added': p_ws_added, 'ws_trailing_stripped': p_ws_stripped,
        'indent_ctx': p_indent_ctx, 'indent_tabs_to_spaces_all': p_tabs_all,
        'outdent': p_outdent, 'ctx_line_missing': p_ctx_missing, 'stale_context': p_stale,
        'missing_plus': p_missing_plus, 'hunks_reordered': p_reorder, 'merged_hunks': p_merge,
        'counts_wrong': p_counts,
    }
    if cls in fns:
        params = fns[cls](files, rng)
        if params is None:
            return None
        return render(files), params
    if cls == 'lineno_off_small':
        params = p_lineno(files, rng, 1, 5)
        return render(files), params
    if cls == 'lineno_off_large':
        params = p_lineno(files, rng, 15, 80)
        return render(files), params
    if cls == 'no_linenos':
        return render(files, linenos=False), {}
    if cls == 'hdr_no_git':
        return render(files, hdr='no_git'), {}
    if cls == 'hdr_no_prefix':
        return render(files, hdr='no_prefix'), {}
    if cls == 'hdr_missing':
        return render(files, hdr='missing'), {}
    if cls == 'crlf':
        return render(files).replace('\n', '\r\n'), {}
    if cls == 'combo_aider':
        return render(files, hdr='no_prefix', linenos=False), {}
    if cls == 'combo_sloppy':
        lp = p_lineno(files, rng, 1, 5)
        cp = p_counts(files, rng)
        wp = p_ws_added(files, rng)
        params = {'counts': cp, 'lineno': lp}
        if wp:
            params['ws'] = wp
        return render(files, hdr='no_git'), params
    if cls == 'combo_hard':
        inners = [('ctx_line_missing', p_ctx_missing), ('indent_ctx', p_indent_ctx),
                  ('stale_context', p_stale)]
        rng.shuffle(inners)
        for name, fn in inners:
            trial = [f.copy() for f in files]
            ip = fn(trial, rng)
            if ip is not None:
                return render(trial, hdr='no_prefix', linenos=False), {'inner': name, 'inner_params': ip}
        return None
    raise AssertionError(cls)


# ---------------------------------------------------------------- bases

def pair_candidates(src, cache):
    kind, name, v0, v1, repo, lic = src
    d0, d1 = fetch(kind, name, v0, cache), fetch(kind, name, v1, cache)
    f0, f1 = walk(d0), walk(d1)
    cands = []
    for p in sorted(set(f0) & set(f1)):
        if not eligible_path(p):
            continue
        a, b = load_text(f0[p]), load_text(f1[p])
        if a is None or b is None or a == b:
            continue
        diff = git_diff(a, b, p)
        files = parse_patch(diff)
        if len(files) != 1 or not files[0].hunks:
            continue
        nh = len(files[0].hunks)
        body = sum(len(h.lines) for h in files[0].hunks)
        cands.append({'path': p, 'pre': a, 'post': b, 'diff': diff, 'n_hunks': nh, 'body': body})
    return cands


def choose_bases(src, cands, seed):
    kind, name, v0, v1, repo, lic = src
    rng = rng_of(seed, 'bases', repo, v0, v1)
    ok = [c for c in cands if 1 <= c['n_hunks'] <= MAX_HUNKS_FILE and c['body'] <= MAX_BODY_BASE]
    code = [c for c in ok if not c['path'].endswith('.md')]
    docs = [c for c in ok if c['path'].endswith('.md')]
    # group by directory so that multi-file bases look like commits
    bydir = {}
    for c in code:
        bydir.setdefault(os.path.dirname(c['path']), []).append(c)
    dirs = sorted(bydir)
    rng.shuffle(dirs)
    for d in dirs:
        rng.shuffle(bydir[d])
    bases = []
    used = set()
    for d in dirs * 3:
        if len(bases) >= PER_PAIR:
            break
        pool = [c for c in bydir[d] if c['path'] not in used]
        if not pool:
            continue
        want = rng.choices((1, 2, 3), weights=(5, 3, 2))[0]
        group = []
        for c in pool:
            if len(group) >= want:
                break
            if sum(x['n_hunks'] for x in group) + c['n_hunks'] > MAX_HUNKS_BASE:
                continue
            if sum(x['body'] for x in group) + c['body'] > MAX_BODY_BASE:
                continue
            group.append(c)
        if not group:
            continue
        used.update(c['path'] for c in group)
        bases.append(group)
    # one docs file per pair at most, added to the pair's list
    docs = [c for c in docs if c['n_hunks'] <= 6]
    if docs and len(bases) < PER_PAIR + 1:
        bases.append([rng.choice(docs)])
    return bases


def make_base(src, group):
    kind, name, v0, v1, repo, lic = src
    group = sorted(group, key=lambda c: c['path'])
    patch = ''.join(c['diff'] for c in group)
    pre = {c['path']: c['pre'] for c in group}
    post = {c['path']: c['post'] for c in group}
    files = parse_patch(patch)
    assert render(files) == patch, 'render(parse(clean)) != clean'
    h = hashlib.sha1(patch.encode()).hexdigest()[:8]
    bid = '%s@%s..%s-%s' % (repo, v0, v1, h)
    nh = [len(f.hunks) for f in files]
    return {
        'id': bid, 'repo': repo, 'commit': v1, 'parent': v0,
        'subject': '%s %s -> %s: %s' % (name, v0, v1, ', '.join(c['path'] for c in group)),
        'pre': pre, 'post': post, 'clean_patch': patch,
        'n_files': len(files), 'n_hunks': sum(nh), 'max_hunks_in_file': max(nh),
    }


EMPTY_WHY = {
    'ws_trailing_stripped': 'None of the chosen real changes has a context line with trailing '
                            'whitespace (gofmt, eslint and prettier strip it; the few files that '
                            'keep some, e.g. Markdown hard breaks, were not touched near such lines '
                            'by any version pair). The class is kept in classes.json; the '
                            'perturbation is implemented (`p_ws_stripped`) and applies as soon as '
                            'a source with such context is added.',
}

README = """# Diff-apply corpus: stress set

Generated by `scripts/stress-corpus.py` (seed {seed}) in the same format as the
public sample corpus, so that the corpus tools' `score.py --corpus THIS_DIR ...`
runs on it unchanged.

- {nbases} bases from real version-to-version changes of {nrepos} projects that are
  not in the public sample: {repos}.
- {ncases} cases: every base has its `clean` case plus **every** class of
  `classes.json` that applies to it (not a sample of 6 as in the public set).

## How the bases were made

For each pair of nearby released versions (Go modules fetched with
`go mod download -json module@version`, npm packages with `npm pack pkg@version`),
the files present in both versions whose text differs were collected, skipping
files over 200 KB, non-UTF-8 or binary files, files with CR characters or without
a final newline, generated files (`Code generated ... DO NOT EDIT` etc.), lines
over 400 characters (minified), `vendor/`, `node_modules/`, `testdata/`,
`dist/`, `build/` and anything that is not `.go`, `.js`/`.mjs`/`.cjs`, `.ts`
or `.md`.  Each file was diffed with the real
`git diff --no-index -U3 --diff-algorithm=myers`, paths rewritten to
`a/<path>`/`b/<path>` (the `index` line is git's own).  Files with 1-12 hunks and
bases of 1-3 files from one directory (at most 12 hunks and 320 patch body
lines per base), at most {per_pair} code bases plus one markdown base per
version pair, were chosen with the seeded RNG.  Every `clean_patch` was
verified to turn `pre` into `post` with plain `git apply` in a fresh git repo.
Only modified files: no new, deleted or renamed files.  All files are UTF-8
with LF endings.

Base ids are `owner/repo@OLD..NEW-<sha1 of clean_patch, 8 hex>`; `parent` and
`commit` hold the old and new version, `subject` names the package and files.

## Version pairs

| project | kind | old | new | licence | bases |
|---|---|---|---|---|---:|
{pairs}

The excerpts are used only as test data; each project's licence applies to
its files.

## Classes and counts

| class | cases | perturbation |
|---|---:|---|
{classes}

{empty}
Perturbations follow the public README exactly; details:
- `lineno_off_*`: per-hunk delta applied to both the old and new start (sign
  flipped if the start would drop below 1); `params.deltas`.
- `counts_wrong`: per hunk `[d_old, d_new]` in -2..2, not both 0, counts stay >= 0.
- `ws_trailing_added`: each non-blank context line with probability 1/2 gets
  " ", "  " or "\\t" appended (at least one line).
- `ws_trailing_stripped`: only bases whose context lines have trailing whitespace.
- `indent_ctx`: 1-3 indented context lines of one hunk: leading tabs -> 4 spaces,
  else -2 or +2 spaces.
- `indent_tabs_to_spaces_all`: only bases whose hunks have leading tabs.
- `outdent`: one hunk whose non-empty lines share a leading-whitespace prefix;
  the whole common prefix is removed from every line (`params.removed_indent`).
- `ctx_line_missing`: a context line that is neither first nor last in its hunk;
  both counts reduced by 1.
- `stale_context`: a word of >= 3 letters in one context line gets an "s"
  appended, its first letter case-flipped, or an inner letter dropped.
- `missing_plus`: a non-blank `+` line becomes a context line; old count + 1.
- `merged_hunks`: one random adjacent pair of hunks in one file; header keeps
  the first start and sums the counts; `params.skipped_lines` = file lines between.
- `combo_sloppy`: params also record `ws` (the ws_trailing_added part).
- `combo_hard`: inner chosen at random among the applicable of
  ctx_line_missing/indent_ctx/stale_context; `params.inner`, `params.inner_params`.

Randomness is seeded per (seed, base id, class), so regenerating gives the
same corpus byte for byte.

## Reproduce

    python3 scripts/stress-corpus.py --out OUT_DIR --cache CACHE_DIR --seed {seed}
    python3 CORPUS_TOOLS/score.py --corpus OUT_DIR --git-init \\
        --cmd git='git apply {{patch}}'
    python3 CORPUS_TOOLS/score.py --corpus OUT_DIR --git-init --jobs 2 \\
        --cmd 'pair=PATH_TO_PAIR apply --yes {{patch}}'
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--out', help='the directory to write the corpus to (required unless --explore)')
    ap.add_argument('--cache', required=True, help='the directory where downloaded sources are kept')
    ap.add_argument('--seed', default='20240611')
    ap.add_argument('--max-bases', type=int, default=80)
    ap.add_argument('--explore', action='store_true')
    ap.add_argument('--sources', help='a JSON file of [kind, name, old, new, repo, licence] rows '
                    'to use instead of the built-in list')
    ap.add_argument('--ext', help='comma-separated file endings to take instead of the built-in list')
    a = ap.parse_args()
    global SOURCES, TEXT_EXT
    if a.sources:
        with open(a.sources) as f:
            SOURCES = [tuple(row) for row in json.load(f)]
        for row in SOURCES:
            if len(row) != 6 or row[0] not in ('go', 'npm', 'local'):
                ap.error('%s: each row must be [kind, name, old, new, repo, licence] with kind '
                         'go, npm or local; got %r' % (a.sources, list(row)))
    if a.ext:
        TEXT_EXT = tuple(e.strip() for e in a.ext.split(',') if e.strip())
    if not a.explore and not a.out:
        ap.error('--out OUT_DIR is required (the directory to write the corpus to)')

    allbases, pairs = [], []
    for src in SOURCES:
        kind, name, v0, v1, repo, lic = src
        log('fetching %s %s..%s' % (name, v0, v1))
        cands = pair_candidates(src, a.cache)
        if a.explore:
            for c in cands:
                print('%-28s %-50s hunks=%2d body=%4d' % (repo, c['path'], c['n_hunks'], c['body']))
            continue
        groups = choose_bases(src, cands, a.seed)
        nb = 0
        for g in groups:
            b = make_base(src, g)
            if not git_apply_ok(b['pre'], b['post'], b['clean_patch']):
                log('  SKIP (git apply failed):', b['id'])
                continue
            allbases.append(b)
            nb += 1
        pairs.append((src, nb))
        log('  %d candidates, %d bases' % (len(cands), nb))
    if a.explore:
        return
    allbases = allbases[:a.max_bases]

    cases = []
    for b in allbases:
        files = parse_patch(b['clean_patch'])
        for cls in CLASSES:
            if cls == 'clean':
                patch, params = b['clean_patch'], {}
            else:
                r = case_for(cls, files, rng_of(a.seed, b['id'], cls))
                if r is None:
                    continue
                patch, params = r
                if cls != 'crlf':
                    assert patch != b['clean_patch'] or cls in ('hunks_reordered',), (b['id'], cls)
            cases.append({'id': '%s/%s' % (b['id'], cls), 'base': b['id'], 'class': cls,
                          'params': params, 'patch': patch})

    out = a.out
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, 'bases.jsonl'), 'w') as f:
        for b in allbases:
            f.write(json.dumps(b, sort_keys=True) + '\n')
    with open(os.path.join(out, 'cases.jsonl'), 'w') as f:
        for c in cases:
            f.write(json.dumps(c, sort_keys=True) + '\n')
    with open(os.path.join(out, 'classes.json'), 'w') as f:
        json.dump({c: CLASS_DESC[c] for c in CLASSES}, f, indent=1)
    counts = {c: sum(1 for x in cases if x['class'] == c) for c in CLASSES}
    nbp = {}
    for b in allbases:
        nbp[(b['repo'], b['parent'], b['commit'])] = nbp.get((b['repo'], b['parent'], b['commit']), 0) + 1
    repos = sorted({b['repo'] for b in allbases})
    with open(os.path.join(out, 'README.md'), 'w') as f:
        f.write(README.format(
            seed=a.seed, nbases=len(allbases), nrepos=len(repos), repos=', '.join(repos),
            ncases=len(cases), per_pair=PER_PAIR,
            pairs='\n'.join('| %s (`%s`) | %s | %s | %s | %s | %d |' % (
                s[4], s[1], s[0], s[2], s[3], s[5], nbp.get((s[4], s[2], s[3]), 0)) for s, _ in pairs),
            classes='\n'.join('| %s | %d | %s |' % (c, counts[c], CLASS_DESC[c]) for c in CLASSES),
            empty=''.join(
                '\nNo base qualifies for `%s`, so it has no cases here. ' % c + EMPTY_WHY.get(c, '') + '\n'
                for c in CLASSES if counts[c] == 0)))
    log('wrote %d bases, %d cases to %s' % (len(allbases), len(cases), out))
    for c in CLASSES:
        log('  %-26s %d' % (c, counts[c]))


if __name__ == '__main__':
    main()
