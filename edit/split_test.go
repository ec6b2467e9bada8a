package edit_test

import (
	"fmt"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/edit/edittest"
)

func TestSplit(t *testing.T) {
	old := text("x", "a", "b", "c", "d", "e", "f", "g", "h")
	tests := []struct {
		name   string
		r      edit.Resolved
		starts []int
		pieces [][]string
	}{
		{
			name:   "one run",
			r:      edit.Resolved{Start: 1, Lines: ls(" a", "-b", "+B", " c")},
			starts: []int{1},
			pieces: [][]string{{" a", "-b", "+B", " c"}},
		},
		{
			name:   "two runs share the context between them",
			r:      edit.Resolved{Start: 1, Lines: ls(" a", "-b", "+B", " c", " d", "-e", "+E", " f")},
			starts: []int{1, 3},
			pieces: [][]string{
				{" a", "-b", "+B", " c", " d"},
				{" c", " d", "-e", "+E", " f"},
			},
		},
		{
			name:   "three runs, insertions and deletions",
			r:      edit.Resolved{Start: 1, Lines: ls(" a", "+new", " b", "-c", " d", " e", "-f", "-g", "+G", " h")},
			starts: []int{1, 2, 4},
			pieces: [][]string{
				{" a", "+new", " b"},
				{" b", "-c", " d", " e"},
				{" d", " e", "-f", "-g", "+G", " h"},
			},
		},
		{
			name:   "runs at both ends without outer context",
			r:      edit.Resolved{Start: 1, Lines: ls("-a", "+A", " b", " c", "-d", "+D1", "+D2")},
			starts: []int{1, 2},
			pieces: [][]string{
				{"-a", "+A", " b", " c"},
				{" b", " c", "-d", "+D1", "+D2"},
			},
		},
		{
			name:   "a run of one context line between changes",
			r:      edit.Resolved{Start: 0, Lines: ls("-x", " a", "+a2", " b")},
			starts: []int{0, 1},
			pieces: [][]string{
				{"-x", " a"},
				{" a", "+a2", " b"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.r.Part = 2
			tt.r.Hunk = 5
			tt.r.Pass = edit.PassIndent
			tt.r.Notes = []string{"a note"}
			pieces := edit.Split(tt.r)
			if got, want := edit.CanSplit(tt.r), len(tt.pieces) > 1; got != want {
				t.Errorf("CanSplit: got %v, want %v", got, want)
			}
			if len(pieces) != len(tt.pieces) {
				t.Fatalf("Split: got %d pieces, want %d:\n%s", len(pieces), len(tt.pieces), describe(pieces))
			}
			for i, p := range pieces {
				if p.Start != tt.starts[i] {
					t.Errorf("piece %d: got Start %d, want %d", i, p.Start, tt.starts[i])
				}
				if got, want := edittest.Show(p.Lines), edittest.Show(ls(tt.pieces[i]...)); got != want {
					t.Errorf("piece %d: got lines\n%s\nwant\n%s", i, got, want)
				}
				if p.Hunk != 5 || p.Part != 2+i || p.Pass != edit.PassIndent || len(p.Notes) != 1 {
					t.Errorf("piece %d: got hunk %d part %d pass %v notes %q, want hunk 5 part %d pass indent and the note",
						i, p.Hunk, p.Part, p.Pass, p.Notes, 2+i)
				}
				checkFileText(t, old, p)
			}

			// All pieces together do what the hunk does; so does any
			// subset, each piece on its own.
			whole := mustApply(t, old, []edit.Resolved{tt.r})
			if got := mustApply(t, old, pieces); got != whole {
				t.Errorf("Apply(all pieces): got %q, want %q (the whole hunk)", got, whole)
			}
			for mask := 0; mask < 1<<len(pieces); mask++ {
				var sub []edit.Resolved
				for i, p := range pieces {
					if mask&(1<<i) != 0 {
						sub = append(sub, p)
					}
				}
				got := mustApply(t, old, sub)
				if exp := applySubsetByHand(old, tt.r, pieces, mask); got != exp {
					t.Errorf("Apply(pieces %b): got %q, want %q", mask, got, exp)
				}
			}
		})
	}
}

// applySubsetByHand applies the chosen pieces of r by rewriting r itself:
// the runs of pieces not chosen are turned back into context (their
// deleted lines kept, their added lines dropped). It is the reference for
// applying a subset of Split's pieces.
func applySubsetByHand(old string, r edit.Resolved, pieces []edit.Resolved, mask int) string {
	var lines []edit.Line
	run := -1
	inRun := false
	for _, l := range r.Lines {
		if l.Kind == edit.Context {
			inRun = false
			lines = append(lines, l)
			continue
		}
		if !inRun {
			run++
			inRun = true
		}
		switch {
		case mask&(1<<run) != 0:
			lines = append(lines, l)
		case l.Kind == edit.Delete:
			lines = append(lines, edit.Line{Kind: edit.Context, Text: l.Text})
		}
	}
	r.Lines = lines
	out, err := edit.Apply(old, []edit.Resolved{r})
	if err != nil {
		return fmt.Sprintf("error: %v", err)
	}
	return out
}

func TestSplitPlacedHunk(t *testing.T) {
	patch := "--- a/main.go\n+++ b/main.go\n" + text(
		"@@ -5,8 +5,8 @@",
		" func main() {",
		`-	name := "world"`,
		`+	name := "there"`,
		` 	fmt.Println("hello", name)`,
		"-	count := 3",
		"+	count := 4",
		" 	for i := 0; i < count; i++ {",
		" 		fmt.Println(i)",
		" 	}",
		"-}",
		"+} // main",
	)
	rs := mustPlace(t, goSrc, patch)
	if len(rs) != 1 || !edit.CanSplit(rs[0]) {
		t.Fatalf("Place: got\n%s want one splittable hunk", describe(rs))
	}
	pieces := edit.Split(rs[0])
	if len(pieces) != 3 {
		t.Fatalf("Split: got %d pieces, want 3:\n%s", len(pieces), describe(pieces))
	}
	for i, want := range []int{4, 6, 8} {
		if pieces[i].Start != want {
			t.Errorf("piece %d: got Start %d, want %d", i, pieces[i].Start, want)
		}
	}
	// Keep the first and the last piece only.
	got := mustApply(t, goSrc, []edit.Resolved{pieces[0], pieces[2]})
	want := replaceLine(replaceLine(goSrc, 6, `	name := "there"`), 12, "} // main")
	if got != want {
		t.Errorf("Apply(pieces 1 and 3):\ngot:\n%s\nwant:\n%s", got, want)
	}
	if got, whole := mustApply(t, goSrc, pieces), mustApply(t, goSrc, rs); got != whole {
		t.Errorf("Apply(all pieces):\ngot:\n%s\nwant:\n%s", got, whole)
	}
	// Pieces render and read back like any hunks.
	diff, err := edit.Render("main.go", "main.go", "", goSrc, pieces[1:2])
	if err != nil {
		t.Fatal(err)
	}
	again := mustPlace(t, goSrc, diff)
	if got, want := mustApply(t, goSrc, again), mustApply(t, goSrc, pieces[1:2]); got != want {
		t.Errorf("Apply(Render(piece 2)):\ngot:\n%s\nwant:\n%s", got, want)
	}
}

func TestSplitFinalNewline(t *testing.T) {
	old := "a\nb\nc\nd"
	r := edit.Resolved{Start: 0, Lines: ls("-a", "+A", " b", " c", "-d", "+D"), FinalNewline: edit.NewlineAdd}
	pieces := edit.Split(r)
	if len(pieces) != 2 {
		t.Fatalf("Split: got %d pieces, want 2", len(pieces))
	}
	if pieces[0].FinalNewline != edit.NewlineKeep || pieces[1].FinalNewline != edit.NewlineAdd {
		t.Errorf("Split: got FinalNewline %v, %v; want keep, add (only the piece at the end)", pieces[0].FinalNewline, pieces[1].FinalNewline)
	}
	if got, want := mustApply(t, old, pieces[:1]), "A\nb\nc\nd"; got != want {
		t.Errorf("Apply(first piece): got %q, want %q", got, want)
	}
	if got, want := mustApply(t, old, pieces[1:]), "a\nb\nc\nD\n"; got != want {
		t.Errorf("Apply(last piece): got %q, want %q", got, want)
	}
}

func TestSplitOneRunUnchanged(t *testing.T) {
	r := edit.Resolved{Hunk: 1, Part: 1, Start: 3, Lines: ls(" a", "-b", "-c", "+B", " d"), Notes: []string{"n"}}
	if edit.CanSplit(r) {
		t.Errorf("CanSplit: got true, want false")
	}
	got := edit.Split(r)
	if len(got) != 1 || got[0].Start != 3 || got[0].Part != 1 || edittest.Show(got[0].Lines) != edittest.Show(r.Lines) {
		t.Errorf("Split: got\n%s want the hunk unchanged", describe(got))
	}
}
