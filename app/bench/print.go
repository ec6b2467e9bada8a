package bench

import (
	"fmt"
	"io"
	"strings"

	"github.com/pair-cli/pair/internal/output"
)

// printCounts prints what a person reads after the tasks' lines: the
// counts, what the model was sent, and for a live run the mean pass rate.
func printCounts(w io.Writer, rep Report) {
	fmt.Fprintf(w, "%d passed, %d failed", rep.Passed, rep.Failed)
	if rep.Skipped > 0 {
		fmt.Fprintf(w, ", %d skipped", rep.Skipped)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, sentLine(rep))
	if rep.Live {
		fmt.Fprintf(w, "%s: mean pass rate %.1f%% ± %.1f%% (standard error over %d %s)\n",
			rep.Model, 100*rep.Mean, 100*rep.StdErr, rep.Scored, output.Plural(rep.Scored, "round"))
	}
}

// sentLine says what the model was sent over the requests of rep, in all
// and a request.
func sentLine(rep Report) string {
	s, n := rep.Sent, max(rep.Requests, 1)
	return fmt.Sprintf("sent to the model: %d bytes in %d %s; about %d tokens (%d a request), of them tool definitions about %d (%d a request) and tool results about %d",
		s.Bytes, rep.Requests, output.Plural(rep.Requests, "request"), s.Tokens, s.Tokens/n, s.ToolDefTokens, s.ToolDefTokens/n, s.ToolTokens)
}

// printResult prints the line of one result: PASS, SKIP with the reason,
// or FAIL with the first unmet expectation (verbose: all of them, and
// what pair printed).
func printResult(w io.Writer, r Result, verbose bool) {
	id := r.ID
	if r.Round > 0 {
		id = fmt.Sprintf("%s #%d", r.ID, r.Round)
	}
	switch {
	case r.Skipped != "":
		fmt.Fprintf(w, "SKIP %s: %s\n", id, r.Skipped)
	case r.Pass:
		fmt.Fprintf(w, "PASS %s\n", id)
	default:
		fmt.Fprintf(w, "FAIL %s: %s\n", id, r.Failures[0])
		if verbose {
			for _, f := range r.Failures[1:] {
				fmt.Fprintf(w, "     also: %s\n", f)
			}
			fmt.Fprintf(w, "     output:\n%s\n", indent(r.Output, "       "))
		}
	}
}

// indent puts pre before every line of s.
func indent(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i := range lines {
		lines[i] = pre + lines[i]
	}
	return strings.Join(lines, "\n")
}
