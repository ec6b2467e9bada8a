#!/usr/bin/env bash
# build.sh: builds pair as it is meant to be installed and released, into
# OUT (default ./pair):
#
#   - without cgo: pair needs no C library, and a static binary starts
#     without the dynamic loader (about 0.6 ms of every command);
#   - with the tag urfave_cli_no_docs: urfave/cli leaves out its man-page
#     and markdown generators (and blackfriday, whose package init every
#     command would pay for); pair does not use them.
#
# `go install` does the same with
#   CGO_ENABLED=0 go install -tags urfave_cli_no_docs ./cmd/pair
# A plain `go build` works too; it only starts slower (scripts/startup.sh).
#
#   scripts/build.sh [OUT]
set -euo pipefail
out=${1:-pair}
case $out in /*) ;; *) out=$PWD/$out ;; esac
cd "$(dirname "$0")/.."
CGO_ENABLED=0 go build -trimpath -tags urfave_cli_no_docs -o "$out" ./cmd/pair
