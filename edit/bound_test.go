package edit_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// bigHunk returns a file and a patch of one hunk covering all of it, in
// one of the shapes that once made tolerant placement quadratic:
//
//   - "alternating": context lines alternating with changed lines, one
//     context line slightly stale in the middle (it places, fuzzily);
//   - "alternating-far": the same, with that line unlike any other (it
//     is refused);
//   - "context": context lines only between a change at each end, one
//     context line unlike any other in the middle (the fused pass tries
//     every split; it is refused).
//
// n is the number of file lines.
func bigHunk(shape string, n int) (old, patch string) {
	var f, p strings.Builder
	fmt.Fprintf(&p, "--- a/big.txt\n+++ b/big.txt\n@@ -1,%d +1,%d @@\n", n, n)
	for i := range n {
		// Lines unlike each other, as code is: a stale one is like one
		// line only.
		line := fmt.Sprintf("v%d := %016x", i, uint64(i+1)*0x9e3779b97f4a7c15)
		fmt.Fprintln(&f, line)
		stale := i == n/2 || i == n/2+1 && shape != "context"
		switch {
		case shape != "context" && i%2 == 1:
			fmt.Fprintf(&p, "-%s\n+%s changed\n", line, line)
		case shape == "context" && (i == 0 || i == n-1):
			fmt.Fprintf(&p, "-%s\n+%s changed\n", line, line)
		case stale && shape == "alternating":
			fmt.Fprintf(&p, " %s0\n", line)
		case stale:
			fmt.Fprintf(&p, " nothing like it %d\n", i)
		default:
			fmt.Fprintf(&p, " %s\n", line)
		}
	}
	return f.String(), p.String()
}

// TestLargeHunkBoundedWork places one large hunk with a stale context
// line: the tolerant passes must take work linear in its size (counted in
// steps, and in bytes allocated), where they once took a table of hunk
// lines by file lines, 5 GB for 10,000 lines.
func TestLargeHunkBoundedWork(t *testing.T) {
	for _, shape := range []string{"alternating", "alternating-far", "context"} {
		t.Run(shape, func(t *testing.T) {
			const n = 10_000
			old, patch := bigHunk(shape, n)
			fd := onlyFile(t, patch)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			rs, errs, work := edit.PlaceWork(old, fd)
			runtime.ReadMemStats(&after)
			placed := len(rs) == 1 && len(errs) == 0
			if want := shape == "alternating"; placed != want {
				t.Errorf("placed: got %v (errors %v), want %v", placed, errs, want)
			}
			// A few cells of alignment and steps of walk per line.
			if limit := 200 * n; work > limit {
				t.Errorf("work: got %d steps, want at most %d", work, limit)
			}
			if bytes, limit := after.TotalAlloc-before.TotalAlloc, uint64(64<<20); bytes > limit {
				t.Errorf("allocated: got %d MB, want at most %d MB", bytes>>20, limit>>20)
			}
		})
	}
}

// BenchmarkLargeHunk places a 10,000-line hunk with one stale context
// line, in each shape of bigHunk.
//
//	go test -run '^$' -bench LargeHunk ./edit
func BenchmarkLargeHunk(b *testing.B) {
	for _, shape := range []string{"alternating", "alternating-far", "context"} {
		old, patch := bigHunk(shape, 10_000)
		b.Run(shape, func(b *testing.B) {
			fd := onlyFile(b, patch)
			b.ReportAllocs()
			for b.Loop() {
				edit.Place(old, fd)
			}
		})
	}
}
