#!/usr/bin/env bash
# startup.sh: how long pair --version takes against git --version, the
# two taking turns for RUNS rounds (after a warm-up); prints both medians
# in milliseconds and their ratio (the goal is at most 2).
#
#   scripts/startup.sh                  # builds pair as scripts/build.sh does,
#                                       # which is the README's install command
#   PAIR=./pair RUNS=500 scripts/startup.sh
#
# Needs bash 5 ($EPOCHREALTIME), go (unless PAIR is given) and git.
#
# It times a copy of the binary, not the file the linker wrote: on Linux
# (seen on 6.18, ext4) a freshly linked binary starts about 2 ms slower
# than the same bytes copied with cp, until its pages leave the page cache:
# the linker writes its output through mmap, and a file written through mmap
# by any program starts as slowly. A copy behaves as a binary read from disk.
set -euo pipefail

RUNS=${RUNS:-200}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -z ${PAIR:-} ]]; then
	PAIR=$tmp/pair.linked
	"$(dirname "$0")/build.sh" "$PAIR"
fi
cp "$PAIR" "$tmp/pair"
PAIR=$tmp/pair
GIT=$(command -v git)

# usec prints $EPOCHREALTIME (seconds.micros) as microseconds.
usec() { local s=${1%[.,]*} f=${1#*[.,]}; echo $((10#$s * 1000000 + 10#$f)); }

# time_one runs a command once and prints its wall time in microseconds.
time_one() {
	local t0 t1
	t0=$EPOCHREALTIME
	"$@" >/dev/null 2>&1
	t1=$EPOCHREALTIME
	echo $(($(usec "$t1") - $(usec "$t0")))
}

# median prints the median of the numbers on standard input.
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

for _ in 1 2 3; do time_one "$PAIR" --version >/dev/null; time_one "$GIT" --version >/dev/null; done
: >"$tmp/pair.us"
: >"$tmp/git.us"
for ((i = 0; i < RUNS; i++)); do
	time_one "$PAIR" --version >>"$tmp/pair.us"
	time_one "$GIT" --version >>"$tmp/git.us"
done
p=$(median <"$tmp/pair.us")
g=$(median <"$tmp/git.us")
awk -v p="$p" -v g="$g" -v n="$RUNS" 'BEGIN {
	printf "pair --version: median %.2f ms\n", p / 1000
	printf "git --version:  median %.2f ms\n", g / 1000
	printf "ratio %.2f over %d alternating runs (goal: at most 2)\n", p / g, n
}'
