#!/usr/bin/env bash
# bench-apply.sh: time pair apply --check against git apply --check on a
# large real patch, and check that pair apply --yes applies it exactly.
#
# The patch is git diff --no-index between two versions of a Go module
# from the module cache (downloaded with go mod download if missing):
# by default golang.org/x/tools v0.30.0 -> v0.31.0, some 260 files and
# 5,000 changed lines. Each command runs RUNS times; the median counts.
#
#   scripts/bench-apply.sh                    # x/tools v0.30.0 -> v0.31.0
#   MOD=github.com/urfave/cli/v2 OLD=v2.25.7 NEW=v2.27.7 RUNS=9 scripts/bench-apply.sh
#
# Needs go, git and a network path to the Go module proxy (or the two
# versions already in the module cache). Prints the medians and the ratio
# pair/git; exits non-zero if anything fails or the applied tree differs
# from the new version.
set -euo pipefail
trap 'echo "bench-apply: FAILED at line $LINENO: $BASH_COMMAND" >&2' ERR

MOD=${MOD:-golang.org/x/tools}
OLD=${OLD:-v0.30.0}
NEW=${NEW:-v0.31.0}
RUNS=${RUNS:-5}

top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-apply-XXXXXX")
trap 'rm -rf "$work"' EXIT

export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@pair.invalid
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@pair.invalid
export GIT_CONFIG_NOSYSTEM=1

echo "building pair"
(cd "$top" && go build -o "$work/pair" ./cmd/pair)
pair=$work/pair

# moddir prints the module cache directory of $MOD@$1, downloading it if
# needed. go mod download runs outside any module, in $work.
moddir() {
	(cd "$work" && GOFLAGS=-mod=mod go mod download -json "$MOD@$1") |
		sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p'
}
olddir=$(moddir "$OLD")
newdir=$(moddir "$NEW")
if [ -z "$olddir" ] || [ -z "$newdir" ]; then
	echo "bench-apply: could not download $MOD@$OLD and @$NEW" >&2
	exit 1
fi

# The module cache is read-only: copy both versions and make them
# writable.
cp -R "$olddir" "$work/old"
cp -R "$newdir" "$work/new"
chmod -R u+w "$work/old" "$work/new"

# git diff --no-index names the files old/... and new/...; make them the
# a/... and b/... of an ordinary patch of the repository.
(cd "$work" && git diff --no-index --no-renames old new || [ $? -eq 1 ]) |
	sed -e 's#^diff --git a/\(old\|new\)/\(.*\) b/\(old\|new\)/#diff --git a/\2 b/#' \
		-e 's#^--- a/old/#--- a/#' -e 's#^+++ b/new/#+++ b/#' >"$work/patch.diff"

# The old version becomes a git repository, as pair apply expects (after
# the diff, which would otherwise include .git).
(
	cd "$work/old"
	git init -q
	git add -A
	git commit -q -m "$MOD $OLD"
)
files=$(grep -c '^diff --git ' "$work/patch.diff")
changed=$(awk '/^(---|\+\+\+) (a\/|b\/|\/dev\/null)/ { next } /^[-+]/ { n++ } END { print n + 0 }' "$work/patch.diff")
hunks=$(grep -c '^@@ ' "$work/patch.diff")
echo "patch: $MOD $OLD -> $NEW: $files files, $hunks hunks, $changed changed lines, $(wc -l <"$work/patch.diff") lines"

# median_ms runs a command RUNS times in the old tree and prints the
# median wall time in milliseconds (with three decimals).
median_ms() {
	local times=() i start end
	for ((i = 0; i < RUNS; i++)); do
		start=$(date +%s%N)
		(cd "$work/old" && "$@" >/dev/null)
		end=$(date +%s%N)
		times+=($((end - start)))
	done
	printf '%s\n' "${times[@]}" | sort -n | awk -v n="$RUNS" '
		{ t[NR] = $1 }
		END {
			m = (n % 2) ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2
			printf "%.3f\n", m / 1e6
		}'
}

# One warm-up run of each, so that neither pays for a cold file cache.
(cd "$work/old" && "$pair" apply --check "$work/patch.diff" >/dev/null)
(cd "$work/old" && git apply --check "$work/patch.diff")

pair_ms=$(median_ms "$pair" apply --check "$work/patch.diff")
git_ms=$(median_ms git apply --check "$work/patch.diff")
echo "pair apply --check: median of $RUNS runs: $pair_ms ms"
echo "git apply --check:  median of $RUNS runs: $git_ms ms"
awk -v p="$pair_ms" -v g="$git_ms" 'BEGIN { printf "ratio pair/git: %.2f\n", p / g }'

# Correctness: apply with pair and compare the tree with the new version.
(cd "$work/old" && "$pair" apply --yes "$work/patch.diff" | tail -n 1)
mv "$work/old/.git" "$work/old.git"
if git diff --no-index --stat --exit-code "$work/old" "$work/new"; then
	echo "correct: after pair apply --yes the tree equals $MOD $NEW"
else
	echo "bench-apply: after pair apply --yes the tree differs from $MOD $NEW (above)" >&2
	exit 1
fi
