#!/usr/bin/env bash
# bench-apply.sh: time pair apply --check against git apply --check and
# GNU patch --dry-run, and pair's start-up against git's; print a
# Markdown table of medians and ratios.
#
# Three kinds of patch, all timed in one run, the tools taking turns in
# each of RUNS rounds (after a warm-up round); the median counts:
#
#   - a large real patch: git diff --no-index between two versions of a
#     Go module from the module cache (downloaded with go mod download if
#     missing), by default golang.org/x/tools v0.45.0 -> v0.52.0, some 340
#     files and 1,050 hunks; pair apply --yes --no-commit must then
#     give the new version exactly;
#   - generated Go files of 1k, 10k and 100k lines, with a patch of one
#     hunk every 54 lines (changed, added and removed lines), the same on
#     every run; pair must apply it exactly too;
#   - start-up: pair --version against git --version (and patch --version).
#
#   scripts/bench-apply.sh                    # x/tools v0.45.0 -> v0.52.0
#   MOD=github.com/urfave/cli/v2 OLD=v2.25.7 NEW=v2.27.7 RUNS=9 scripts/bench-apply.sh
#
# Needs go, git, GNU patch (installed with apt-get when missing and
# possible, else its column says n/a) and a network path to the Go module
# proxy (or the two versions already in the module cache). Exits non-zero
# if anything fails or pair's result differs from the new version.
set -euo pipefail
trap 'echo "bench-apply: FAILED at line $LINENO: $BASH_COMMAND" >&2' ERR

MOD=${MOD:-golang.org/x/tools}
OLD=${OLD:-v0.45.0}
NEW=${NEW:-v0.52.0}
RUNS=${RUNS:-5}

top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-apply-XXXXXX")
trap 'rm -rf "$work"' EXIT

export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@pair.invalid
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@pair.invalid
export GIT_CONFIG_NOSYSTEM=1

if ! command -v patch >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
	echo "installing GNU patch"
	apt-get update -qq || true
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq patch >/dev/null || true
fi
if command -v patch >/dev/null 2>&1; then
	havepatch=1
else
	havepatch=0
	echo "bench-apply: GNU patch is missing (apt-get install patch); its column says n/a" >&2
fi

echo "building pair (as scripts/build.sh does) and scripts/benchtime"
"$top/scripts/build.sh" "$work/pair.linked"
(cd "$top" && go build -o "$work/benchtime" ./scripts/benchtime)
# A copy, not the file the linker wrote: a freshly linked binary starts
# slower until its pages leave the page cache (see scripts/startup.sh).
cp "$work/pair.linked" "$work/pair"
pair=$work/pair

# moddir prints the module cache directory of $MOD@$1, downloading it if
# needed. go mod download runs outside any module, in $work.
moddir() {
	(cd "$work" && GOFLAGS=-mod=mod go mod download -json "$MOD@$1") |
		sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p'
}

# diffdirs writes to $3 the patch from directory $1 to $2 (both under
# $work) as git diff writes it for a repository: git diff --no-index
# names the files $1/... and $2/... (both $1/... for a removed file, both
# $2/... for an added one), which become a/... and b/....
diffdirs() {
	(
		cd "$work"
		git diff --no-index --no-renames "$1" "$2" || [ $? -eq 1 ]
	) |
		sed -e "s#^diff --git a/\($1\|$2\)/\(.*\) b/\($1\|$2\)/#diff --git a/\2 b/#" \
			-e "s#^--- a/$1/#--- a/#" -e "s#^+++ b/$2/#+++ b/#" >"$3"
}

# commit makes directory $1 a git repository with one commit, as pair
# apply expects.
commit() {
	(cd "$1" && git init -q && git add -A && git commit -q -m "$2")
}

# describe prints "F files, H hunks, C changed lines" for patch $1.
describe() {
	awk '
		/^diff --git / { f++; next }
		/^@@ / { h++; next }
		/^(---|\+\+\+) (a\/|b\/|\/dev\/null)/ { next }
		/^[-+]/ { c++ }
		function comma(n) { return n < 1000 ? n : comma(int(n / 1000)) "," sprintf("%03d", n % 1000) }
		END { printf "%s file%s, %s hunks, %s changed lines\n", comma(f), f == 1 ? "" : "s", comma(h), comma(c) }
	' "$1"
}

# checkapplied applies patch $2 with pair in repository $1 and fails
# unless the tree then equals directory $3.
checkapplied() {
	(cd "$1" && "$pair" apply --yes --no-commit "$2" >/dev/null)
	mv "$1/.git" "$1.git"
	if ! git diff --no-index --stat --exit-code "$1" "$3"; then
		echo "bench-apply: after pair apply --yes the tree differs from $3 (above)" >&2
		exit 1
	fi
	mv "$1.git" "$1/.git"
}

table=$work/table.md
# shellcheck disable=SC2016 # the backquotes are Markdown
printf '| patch | `pair apply --check` | `git apply --check` | `patch --dry-run` | pair/git | pair/patch |\n' >"$table"
printf '| --- | ---: | ---: | ---: | ---: | ---: |\n' >>"$table"

# row times the commands that follow $1 (the row's label) in directory
# $work/$2, separated by "--": pair's, git's, then patch's (left out when
# patch is missing), and adds a row of medians and ratios to the table.
row() {
	local label=$1 dir=$work/$2
	shift 2
	local medians
	medians=$("$work/benchtime" -n "$RUNS" -C "$dir" "$@" | tr '\n' ' ')
	# shellcheck disable=SC2086 # two or three numbers, split on purpose
	set -- $medians
	awk -v label="$label" -v p="$1" -v g="$2" -v q="${3:-}" '
		function ms(ns) { return ns >= 1e8 ? sprintf("%.0f ms", ns / 1e6) : ns >= 1e7 ? sprintf("%.1f ms", ns / 1e6) : sprintf("%.2f ms", ns / 1e6) }
		BEGIN {
			printf "| %s | %s | %s | %s | %.2f | %s |\n", label, ms(p), ms(g), q == "" ? "n/a" : ms(q), p / g, q == "" ? "n/a" : sprintf("%.2f", p / q)
		}' >>"$table"
	tail -n 1 "$table"
}

# bench times pair apply --check, git apply --check and patch --dry-run
# with patch $3 in $work/$2 (a repository of the old version), as row $1.
bench() {
	local patchcmd=()
	if [ "$havepatch" -eq 1 ]; then
		patchcmd=(-- patch --dry-run --batch -p1 -i "$3")
	fi
	row "$1" "$2" "$pair" apply --check "$3" -- git apply --check "$3" ${patchcmd[@]+"${patchcmd[@]}"}
}

# The real patch. The module cache is read-only: copy both versions and
# make them writable.
olddir=$(moddir "$OLD")
newdir=$(moddir "$NEW")
if [ -z "$olddir" ] || [ -z "$newdir" ]; then
	echo "bench-apply: could not download $MOD@$OLD and @$NEW" >&2
	exit 1
fi
cp -R "$olddir" "$work/old"
cp -R "$newdir" "$work/new"
chmod -R u+w "$work/old" "$work/new"
diffdirs old new "$work/real.diff" # before git init, or it would include .git
commit "$work/old" "$MOD $OLD"
real=$(describe "$work/real.diff")
echo "patch: $MOD $OLD -> $NEW: $real"

# gen prints a generated Go file of $1 lines made of small functions
# (nine lines each, with the repeated lines real code has); with $2 = 1,
# the changed version: every sixth function has one line changed, one
# added, or one removed and one changed, in turn.
gen() {
	awk -v lines="$1" -v new="$2" '
		BEGIN {
			nf = int(lines / 9)
			for (i = 0; i < nf; i++) {
				edit = new && i % 6 == 3 ? int(i / 6) % 3 + 1 : 0
				if (edit != 3) printf "// f%d computes the %dth value.\n", i, i
				printf "func f%d(x int) int {\n", i
				printf "\ty := x*%d + %d\n", i, edit == 1 ? 8 : 7
				if (edit == 2) print "\ty++"
				print "\tif y > 1000 {"
				printf "\t\treturn y - %d\n", i % 10
				print "\t}"
				print edit == 3 ? "\treturn y + 1" : "\treturn y"
				print "}"
				print ""
			}
			for (n = nf * 9; n < lines; n++) print "// end"
		}'
}

echo "generating files of 1k, 10k and 100k lines"
sizes=(1000 10000 100000)
for n in "${sizes[@]}"; do
	mkdir -p "$work/old$n" "$work/new$n"
	gen "$n" 0 >"$work/old$n/big.go"
	gen "$n" 1 >"$work/new$n/big.go"
	diffdirs "old$n" "new$n" "$work/gen$n.diff"
	commit "$work/old$n" "generated, $n lines"
done

echo
echo "timing: median of $RUNS rounds"
bench "$MOD $OLD -> $NEW: $real" old "$work/real.diff"
for n in "${sizes[@]}"; do
	bench "generated file of $((n / 1000))k lines: $(describe "$work/gen$n.diff" | sed 's/^1 file, //')" "old$n" "$work/gen$n.diff"
done
patchversion=()
if [ "$havepatch" -eq 1 ]; then
	patchversion=(-- patch --version)
fi
row "start-up: \`pair --version\`, \`git --version\`, \`patch --version\`" old "$pair" --version -- git --version ${patchversion[@]+"${patchversion[@]}"}

# Correctness: pair applies every patch exactly.
checkapplied "$work/old" "$work/real.diff" "$work/new"
for n in "${sizes[@]}"; do
	checkapplied "$work/old$n" "$work/gen$n.diff" "$work/new$n"
done
echo "correct: after pair apply --yes --no-commit every tree equals its new version"

echo
echo "pair: $("$pair" --version), commit $(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown); $(git --version)$([ "$havepatch" -eq 0 ] || echo "; $(patch --version | head -n 1)")"
echo "machine: $(uname -sm), $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') cores; $RUNS rounds; $(date -u +%Y-%m-%d)"
echo
cat "$table"
