package edit_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// BenchmarkPlaceLargeFile parses a patch of 50 hunks spread through a
// generated Go file, places them and applies them, at three sizes of file
// so that the scaling shows. The exact patch is what git diff writes; the
// damaged one is what models write: no line numbers, no a/ b/ prefixes,
// trailing whitespace on context lines, and a stale context line in every
// fifth hunk.
//
//	go test -run '^$' -bench PlaceLargeFile ./edit
func BenchmarkPlaceLargeFile(b *testing.B) {
	for _, lines := range []int{10_000, 50_000, 100_000} {
		old := benchFile(lines)
		want := ""
		for _, damaged := range []bool{false, true} {
			name := fmt.Sprintf("lines=%dk/exact", lines/1000)
			if damaged {
				name = fmt.Sprintf("lines=%dk/damaged", lines/1000)
			}
			patch := benchPatch(old, 50, damaged)
			b.Run(name, func(b *testing.B) {
				got := benchApply(b, old, patch)
				if want == "" {
					want = got
				} else if got != want {
					b.Fatal("the damaged patch gave another result than the exact one")
				}
				b.SetBytes(int64(len(old)))
				b.ResetTimer()
				for b.Loop() {
					benchApply(b, old, patch)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(lines), "ns/line")
			})
		}
	}
}

// benchApply parses patch, places it against old and returns the result,
// failing the benchmark if any hunk does not place.
func benchApply(b *testing.B, old, patch string) string {
	b.Helper()
	p, err := edit.Parse(patch)
	if err != nil {
		b.Fatal(err)
	}
	if len(p.Files) != 1 {
		b.Fatalf("got %d files in the patch, want 1", len(p.Files))
	}
	plan := edit.PlanFile("big.go", "big.go", old, p.Files[0])
	for _, e := range plan.Errors {
		b.Fatal(e)
	}
	if len(plan.Hunks) != len(p.Files[0].Hunks) {
		b.Fatalf("placed %d hunks, want %d", len(plan.Hunks), len(p.Files[0].Hunks))
	}
	out, err := plan.Result(nil)
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// benchBlock is the number of lines of one function of benchFile.
const benchBlock = 8

// benchFile returns a Go-like file of n lines made of small functions,
// with the repeated lines ("}", "\t}", blank lines) that real code has.
func benchFile(n int) string {
	var sb strings.Builder
	for i := 0; i < n/benchBlock; i++ {
		fmt.Fprintf(&sb, "// f%d computes the %dth value.\n", i, i)
		fmt.Fprintf(&sb, "func f%d(x int) int {\n", i)
		sb.WriteString("\tif x < 0 {\n")
		sb.WriteString("\t\treturn 0\n")
		sb.WriteString("\t}\n")
		fmt.Fprintf(&sb, "\treturn x*%d + 1\n", i)
		sb.WriteString("}\n")
		sb.WriteString("\n")
	}
	return sb.String()
}

// benchPatch returns a patch of hunks hunks spread evenly through old,
// each changing the return line of one function with three lines of
// context on each side, as git diff -U3 would.
func benchPatch(old string, hunks int, damaged bool) string {
	lines := strings.SplitAfter(old, "\n")
	blocks := len(lines) / benchBlock
	var sb strings.Builder
	if damaged {
		sb.WriteString("--- big.go\n+++ big.go\n")
	} else {
		sb.WriteString("--- a/big.go\n+++ b/big.go\n")
	}
	ctx := func(l string) {
		l = strings.TrimSuffix(l, "\n")
		if damaged && strings.TrimSpace(l) != "" {
			l += "  " // trailing whitespace
		}
		sb.WriteString(" " + l + "\n")
	}
	for h := 0; h < hunks; h++ {
		blk := h*blocks/hunks + blocks/(2*hunks)
		at := blk*benchBlock + 5 // the return line, 0-based
		if damaged {
			sb.WriteString("@@ ... @@\n")
		} else {
			fmt.Fprintf(&sb, "@@ -%d,7 +%d,7 @@\n", at-2, at-2)
		}
		for i := at - 3; i < at; i++ {
			if damaged && h%5 == 0 && i == at-3 {
				// A stale context line: "if x <= 0" for "if x < 0".
				sb.WriteString(" \tif x <= 0 {\n")
				continue
			}
			ctx(lines[i])
		}
		sb.WriteString("-" + lines[at])
		fmt.Fprintf(&sb, "+\treturn x*%d + 2\n", blk)
		for i := at + 1; i <= at+3; i++ {
			ctx(lines[i])
		}
	}
	return sb.String()
}

// BenchmarkSyntaxGuard places the damaged patch of BenchmarkPlaceLargeFile
// (every hunk placed by a tolerant pass) in a valid Go file of 10,000
// lines, named big.go, where the syntax guard parses the file before and
// after, and named big.txt, where no check runs: the difference is the
// guard's cost.
//
//	go test -run '^$' -bench SyntaxGuard -count 10 ./edit
func BenchmarkSyntaxGuard(b *testing.B) {
	old := "package big\n\n" + benchFile(10_000)
	patch := benchPatch(old, 50, true)
	for _, name := range []string{"big.go", "big.txt"} {
		b.Run(name, func(b *testing.B) {
			p, err := edit.Parse(strings.ReplaceAll(patch, "big.go", name))
			if err != nil {
				b.Fatal(err)
			}
			fd := p.Files[0]
			rs, errs := edit.Place(old, fd)
			if len(errs) > 0 || len(rs) != 50 {
				b.Fatalf("placed %d hunks, errors %v", len(rs), errs)
			}
			if name == "big.go" && !slices.Contains(rs[0].Notes, "syntax check (go/parser) passed") {
				b.Fatalf("notes: got %q, want the guard run", rs[0].Notes)
			}
			b.ReportAllocs()
			for b.Loop() {
				edit.Place(old, fd)
			}
		})
	}
}
