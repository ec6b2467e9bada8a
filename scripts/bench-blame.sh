#!/usr/bin/env bash
# bench-blame.sh: time pair's blame against git blame --porcelain on a
# file of about 500 lines changed by each of 1,000 commits
# (BenchmarkBlame in repo/blamebench_test.go, which first checks that
# both give every line the same commit), and print the ratio of their
# times per blame.
#
#   scripts/bench-blame.sh              # 5 blames each
#   COUNT=20 scripts/bench-blame.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(go test ./repo -run '^$' -bench '^BenchmarkBlame$' -benchtime "${COUNT:-5}x" -count 1)
echo "$out" | grep '^BenchmarkBlame/'
echo "$out" | awk '/^BenchmarkBlame\/pair/ {p=$3} /^BenchmarkBlame\/git/ {g=$3} END {if (p && g) printf "pair / git: %.2f\n", p/g; else exit 1}'
