package review_test

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/review"
)

// hunk1Text is the part of EditText for item 1 before the guide.
const hunk1Text = "# Editing a hunk of calc.go.\n" +
	"@@ -6,7 +6,7 @@\n" +
	" )\n" +
	" \n" +
	" // ErrDivide is returned when dividing by zero.\n" +
	"-var ErrDivide = errors.New(\"divide by zero\")\n" +
	"+var ErrDivide = errors.New(\"calc: divide by zero\")\n" +
	" \n" +
	" // Add returns the sum of a and b.\n" +
	" func Add(a, b int) int {\n"

func TestEditText(t *testing.T) {
	r := fixture(t)
	if !r.CanEdit() {
		t.Fatalf("CanEdit(): got false, want true")
	}
	text, err := r.EditText()
	if err != nil {
		t.Fatalf("EditText(): got error %v, want none", err)
	}
	rest, ok := strings.CutPrefix(text, hunk1Text)
	if !ok {
		t.Fatalf("EditText(): got\n%s\nwant it to start with\n%s", text, hunk1Text)
	}
	if rest == "" || !strings.HasSuffix(rest, "\n") {
		t.Errorf("EditText(): got guide %q, want lines ending with a newline", rest)
	}
	for _, l := range strings.Split(strings.TrimSuffix(rest, "\n"), "\n") {
		if !strings.HasPrefix(l, "#") {
			t.Errorf("EditText(): got guide line %q, want a comment", l)
		}
	}

	// The header of a later hunk with a section, and of a file whose
	// earlier hunk adds a line.
	mustDo(t, r, "g2")
	if text, _ := r.EditText(); !strings.Contains(text, "\n@@ -23,10 +23,10 @@ func Mul(a, b int) int {\n \treturn a * b\n") {
		t.Errorf("EditText() of item 2: got\n%s\nwant its header and first line", text)
	}
	mustDo(t, r, "g6")
	if text, _ := r.EditText(); !strings.HasPrefix(text, "# Editing a hunk of README.md.\n@@ -4,7 +4,8 @@\n \n ## Usage\n") {
		t.Errorf("EditText() of item 6: got\n%s\nwant its path, header and first lines", text)
	}
}

// TestHeaderAfterEdit checks that the new line numbers of a header count
// what earlier hunks of the file add.
func TestHeaderAfterEdit(t *testing.T) {
	r := fixture(t)
	text, _ := r.EditText()
	text = with(t, text, change{"+var ErrDivide = errors.New(\"calc: divide by zero\")\n",
		"+var ErrDivide = errors.New(\"calc: divide by zero\")\n+\n+// ErrOverflow is returned when a result does not fit.\n+var ErrOverflow = errors.New(\"calc: overflow\")\n"})
	if err := r.Edit(text); err != nil {
		t.Fatalf("Edit: got error %v, want none", err)
	}
	tests := []struct {
		id, header string
	}{
		{"1", "@@ -6,7 +6,10 @@"},
		{"2", "@@ -23,10 +26,10 @@ func Mul(a, b int) int {"},
		{"3", "@@ -37,5 +40,9 @@ func Show(a, b int) {"},
		{"4", "@@ -4,7 +4,7 @@ import \"strings\""},
	}
	for _, tt := range tests {
		if got := r.Header(item(t, r, tt.id)); got != tt.header {
			t.Errorf("Header(item %s): got %q, want %q", tt.id, got, tt.header)
		}
	}
}

// TestEdit checks edits that are accepted: the hunk becomes the edit,
// approved as Edited, with the placed hunk kept as Original.
func TestEdit(t *testing.T) {
	const oldVar = "var ErrDivide = errors.New(\"divide by zero\")\n"
	const newVar = "var ErrDivide = errors.New(\"calc: divide by zero\")\n"
	tests := []struct {
		name  string
		setup []string
		edit  func(t *testing.T, text string) string
		file  string // the file edited, calc.go when empty
		want  string // the file with only the edit approved
		after string // state after the edit
		// unchanged: the text is saved as it was, which approves the hunk.
		unchanged bool
	}{
		{
			name:      "unchanged",
			edit:      func(t *testing.T, s string) string { return s },
			want:      with(t, calcOld, change1),
			unchanged: true,
		},
		{
			name: "a removed line kept as context",
			edit: func(t *testing.T, s string) string {
				return with(t, s, change{"\n-" + oldVar, "\n " + oldVar})
			},
			want: with(t, calcOld, change{oldVar, oldVar + newVar}),
		},
		{
			name: "an added line deleted",
			edit: func(t *testing.T, s string) string {
				return with(t, s, change{"\n+" + newVar, "\n"})
			},
			want: with(t, calcOld, change{oldVar, ""}),
		},
		{
			name: "an added line changed",
			edit: func(t *testing.T, s string) string {
				return with(t, s, change{"calc: divide by zero", "calc: cannot divide by zero"})
			},
			want: with(t, calcOld, change{oldVar, "var ErrDivide = errors.New(\"calc: cannot divide by zero\")\n"}),
		},
		{
			name: "added lines added",
			edit: func(t *testing.T, s string) string {
				return with(t, s, change{"\n+" + newVar, "\n+" + newVar + "+var ErrOverflow = errors.New(\"calc: overflow\")\n+\n"})
			},
			want: with(t, calcOld, change{oldVar, newVar + "var ErrOverflow = errors.New(\"calc: overflow\")\n\n"}),
		},
		{
			name: "CRLF line endings from the editor",
			edit: func(t *testing.T, s string) string {
				s = with(t, s, change{"calc: divide by zero", "calc: cannot divide by zero"})
				return strings.ReplaceAll(s, "\n", "\r\n")
			},
			want: with(t, calcOld, change{oldVar, "var ErrDivide = errors.New(\"calc: cannot divide by zero\")\n"}),
		},
		{
			name:      "blank lines the editor left at the end",
			edit:      func(t *testing.T, s string) string { return s + "\n\n\n" },
			want:      with(t, calcOld, change1),
			unchanged: true,
		},
		{
			name: "empty context lines that lost their space",
			edit: func(t *testing.T, s string) string {
				s = strings.ReplaceAll(s, "\n \n", "\n\n")
				return with(t, s, change{"calc: divide by zero", "calc: cannot divide by zero"})
			},
			want: with(t, calcOld, change{oldVar, "var ErrDivide = errors.New(\"calc: cannot divide by zero\")\n"}),
		},
		{
			name: "hunk lines only, no header or comments",
			edit: func(t *testing.T, s string) string {
				var keep []string
				for _, l := range strings.SplitAfter(s, "\n") {
					if !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "@@") {
						keep = append(keep, l)
					}
				}
				return strings.Replace(strings.Join(keep, ""), "calc: divide by zero", "calc: divide by 0", 1)
			},
			want: with(t, calcOld, change{`errors.New("divide by zero")`, `errors.New("calc: divide by 0")`}),
		},
		{
			name:  "a blank last line that lost its space is the file's",
			setup: []string{"g6"},
			edit: func(t *testing.T, s string) string {
				s = strings.ReplaceAll(s, "\n \n", "\n\n")
				if !strings.Contains(s, " ## License\n\n# ---") {
					t.Fatalf("the hunk of README.md does not end with a blank line:\n%s", s)
				}
				return strings.Replace(s, "prints an error.", "prints an error!", 1) + "\n"
			},
			file:  "README.md",
			want:  strings.Replace(readmeNew, "prints an error.", "prints an error!", 1),
			after: "[1=.] 2=. 3=. 4=. 5=. 6=e",
		},
		{
			name:  "one of several added lines deleted",
			setup: []string{"g3"},
			edit: func(t *testing.T, s string) string {
				return with(t, s, change{"\n+\t\treturn\n", "\n"})
			},
			want:  with(t, calcOld, change{"\tfmt.Println(\"div\", q, err)\n", "\tif err != nil {\n\t\tfmt.Println(\"div\", err)\n\t}\n\tfmt.Println(\"div\", q)\n"}),
			after: "1=. 2=. 3=e [4=.] 5=. 6=.",
		},
		{
			name:  "one run of a hunk with two undone",
			setup: []string{"g2"},
			edit: func(t *testing.T, s string) string {
				s = with(t, s, change{"\n-// Div returns a divided by b.\n", "\n // Div returns a divided by b.\n"})
				return with(t, s, change{"\n+// Div returns a divided by b, or ErrDivide when b is zero.\n", "\n"})
			},
			want:  with(t, calcOld, change2b),
			after: "1=. 2=e [3=.] 4=. 5=. 6=.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := fixture(t)
			mustDo(t, r, tt.setup...)
			id := r.Current().ID
			orig := r.Current().Hunk
			text, err := r.EditText()
			if err != nil {
				t.Fatalf("EditText(): got error %v, want none", err)
			}
			if err := r.Edit(tt.edit(t, text)); err != nil {
				t.Fatalf("Edit: got error %v, want none", err)
			}
			after := tt.after
			if after == "" {
				after = "1=e [2=.] 3=. 4=. 5=. 6=."
			}
			if tt.unchanged {
				after = strings.Replace(after, "1=e", "1=y", 1)
			}
			if got := state(r); got != after {
				t.Errorf("after the edit: got state %q, want %q", got, after)
			}
			it := item(t, r, id)
			if tt.unchanged {
				// Saved as it was: approved, not edited.
				if it.Decision != audit.Approved || it.Original != nil || !reflect.DeepEqual(it.Hunk, orig) {
					t.Errorf("got decision %v, original %v, hunk changed %v; want approved as placed", it.Decision, it.Original, !reflect.DeepEqual(it.Hunk, orig))
				}
			} else if it.Decision != audit.Edited {
				t.Errorf("got decision %v, want edited", it.Decision)
			}
			if tt.unchanged {
				// nothing more to check about the edit
			} else if it.Original == nil || !reflect.DeepEqual(*it.Original, orig) {
				t.Errorf("got Original %+v, want the hunk as placed %+v", it.Original, orig)
			}
			if got, want := it.Hunk.Notes, append(append([]string(nil), orig.Notes...), "edited in review"); !tt.unchanged && !reflect.DeepEqual(got, want) {
				t.Errorf("got notes %q, want %q", got, want)
			}
			if it.Hunk.Start != orig.Start || it.Hunk.Hunk != orig.Hunk {
				t.Errorf("got start %d, hunk %d, want the placed hunk's %d, %d", it.Hunk.Start, it.Hunk.Hunk, orig.Start, orig.Hunk)
			}
			file := tt.file
			if file == "" {
				file = "calc.go"
			}
			if got, want := results(t, r), map[string]string{file: tt.want}; !reflect.DeepEqual(got, want) {
				t.Errorf("results:\ngot  %q\nwant %q", got, want)
			}
		})
	}
}

// TestEditRefused checks edits that are refused with an *EditError and
// leave the review as it was.
func TestEditRefused(t *testing.T) {
	tests := []struct {
		name   string
		edit   change
		line   int
		reason string
	}{
		{
			name:   "a context line changed",
			edit:   change{" // ErrDivide is returned when dividing by zero.", " // ErrDivide is returned on division by zero."},
			line:   5,
			reason: `the file has "// ErrDivide is returned when dividing by zero." here, the edit has "// ErrDivide is returned on division by zero."`,
		},
		{
			name:   "a removed line changed",
			edit:   change{`-var ErrDivide = errors.New("divide by zero")`, `-var ErrDivide = errors.New("divide by 0")`},
			line:   6,
			reason: `the edit has "var ErrDivide = errors.New(\"divide by 0\")"`,
		},
		{
			name:   "a removed line deleted instead of kept",
			edit:   change{"-var ErrDivide = errors.New(\"divide by zero\")\n", ""},
			line:   7,
			reason: `the file has "var ErrDivide = errors.New(\"divide by zero\")" here, the edit has ""`,
		},
		{
			name:   "a line with a bad prefix",
			edit:   change{`+var ErrDivide = errors.New("calc`, `*var ErrDivide = errors.New("calc`},
			line:   7,
			reason: `"*var ErrDivide = errors.New(\"calc: divide by zero\")" does not start with ' ', '-' or '+'`,
		},
		{
			name:   "an indented line without a prefix",
			edit:   change{"\n // Add returns", "\n\t// Add returns"},
			line:   9,
			reason: "does not start with ' ', '-' or '+'",
		},
		{
			name:   "lost file lines",
			edit:   change{" func Add(a, b int) int {\n", ""},
			reason: `the edit lost 1 of the file's lines (first: "func Add(a, b int) int {")`,
		},
		{
			name:   "an extra file line",
			edit:   change{" func Add(a, b int) int {\n", " func Add(a, b int) int {\n \treturn a + b\n"},
			line:   11,
			reason: "the hunk covers 7 lines of the file, and this is one more",
		},
		{
			name:   "an extra removed line",
			edit:   change{" func Add(a, b int) int {\n", " func Add(a, b int) int {\n-\treturn a + b\n"},
			line:   11,
			reason: "the hunk covers 7 lines of the file, and this is one more",
		},
		{
			name:   "a change that changes nothing",
			edit:   change{"-var ErrDivide = errors.New(\"divide by zero\")\n+var ErrDivide = errors.New(\"calc: divide by zero\")\n", " var ErrDivide = errors.New(\"divide by zero\")\n"},
			reason: "the edit changes nothing; reject the hunk (n) instead",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := fixture(t)
			text, err := r.EditText()
			if err != nil {
				t.Fatalf("EditText(): got error %v, want none", err)
			}
			before := snapshot(t, r)
			err = r.Edit(with(t, text, tt.edit))
			var ee *review.EditError
			if !errors.As(err, &ee) {
				t.Fatalf("Edit: got error %v, want an *EditError", err)
			}
			if ee.Line != tt.line {
				t.Errorf("got error on line %d, want %d (%v)", ee.Line, tt.line, err)
			}
			if !strings.Contains(ee.Reason, tt.reason) {
				t.Errorf("got reason %q, want it to contain %q", ee.Reason, tt.reason)
			}
			wantMsg := ee.Reason
			if tt.line > 0 {
				wantMsg = "line " + strconv.Itoa(tt.line) + " of the edit: " + ee.Reason
			}
			if got := err.Error(); got != wantMsg {
				t.Errorf("got message %q, want %q", got, wantMsg)
			}
			if got := snapshot(t, r); got != before {
				t.Errorf("a refused edit changed the review:\ngot  %s\nwant %s", got, before)
			}
		})
	}
}

// TestEditCanceled checks that an edit with no hunk lines left changes
// nothing.
func TestEditCanceled(t *testing.T) {
	tests := []struct {
		name string
		text func(string) string
	}{
		{"empty", func(string) string { return "" }},
		{"a newline", func(string) string { return "\n" }},
		{"blank lines", func(string) string { return "\n\n\n" }},
		{"white space", func(string) string { return "  \n\t\n" }},
		{"comments only", func(string) string { return "# nothing\n# to see\n" }},
		{"hunk lines deleted, comments kept", func(s string) string {
			var keep []string
			for _, l := range strings.SplitAfter(s, "\n") {
				if strings.HasPrefix(l, "#") {
					keep = append(keep, l)
				}
			}
			return strings.Join(keep, "")
		}},
		{"hunk lines deleted, header, comments and a blank line kept", func(s string) string {
			var keep []string
			for _, l := range strings.SplitAfter(s, "\n") {
				if strings.HasPrefix(l, "#") || strings.HasPrefix(l, "@@") {
					keep = append(keep, l)
				}
			}
			return strings.Join(keep, "") + "\n"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := fixture(t)
			text, err := r.EditText()
			if err != nil {
				t.Fatalf("EditText(): got error %v, want none", err)
			}
			before := snapshot(t, r)
			if err := r.Edit(tt.text(text)); !errors.Is(err, review.ErrEditCanceled) {
				t.Errorf("Edit: got error %v, want ErrEditCanceled", err)
			}
			if got := snapshot(t, r); got != before {
				t.Errorf("a canceled edit changed the review:\ngot  %s\nwant %s", got, before)
			}
		})
	}
}

func TestEditDeletionRefused(t *testing.T) {
	r := review.New(mustPlace(t, gonePatch), nil)
	if got, want := state(r), "[1=.] 2=."; got != want {
		t.Fatalf("got state %q, want %q", got, want)
	}
	if r.CanEdit() {
		t.Errorf("CanEdit() on a deletion: got true, want false")
	}
	before := snapshot(t, r)
	if _, err := r.EditText(); !errors.Is(err, review.ErrCannotEdit) {
		t.Errorf("EditText(): got error %v, want ErrCannotEdit", err)
	}
	if err := r.Edit(" first\n-second\n"); !errors.Is(err, review.ErrCannotEdit) {
		t.Errorf("Edit(): got error %v, want ErrCannotEdit", err)
	}
	if got := snapshot(t, r); got != before {
		t.Errorf("a refused edit changed the review:\ngot  %s\nwant %s", got, before)
	}
}

// TestEditedStaysEdited checks that keys on an edited item keep the edit:
// y approves it as Edited, n rejects it, and it cannot be split.
func TestEditedStaysEdited(t *testing.T) {
	r := fixture(t)
	mustDo(t, r, "g2")
	orig := r.Current().Hunk
	text, _ := r.EditText()
	if err := r.Edit(with(t, text, change{`fmt.Errorf("div %d: %w", a, ErrDivide)`, `fmt.Errorf("calc: div %d: %w", a, ErrDivide)`})); err != nil {
		t.Fatalf("Edit: got error %v, want none", err)
	}
	edited := r.Items[1].Hunk
	wantCalc := with(t, calcOld, change2a, change{"\t\treturn 0, ErrDivide\n", "\t\treturn 0, fmt.Errorf(\"calc: div %d: %w\", a, ErrDivide)\n"})

	steps := []struct {
		key  string
		want string
		err  error
	}{
		{"K", "1=. [2=e] 3=. 4=. 5=. 6=.", nil},
		{"s", "1=. [2=e] 3=. 4=. 5=. 6=.", review.ErrCannotSplit},
		{"y", "1=. 2=e [3=.] 4=. 5=. 6=.", nil},
		{"K", "1=. [2=e] 3=. 4=. 5=. 6=.", nil},
		{"n:not like this", "1=. 2=n [3=.] 4=. 5=. 6=.", nil},
		{"K", "1=. [2=n] 3=. 4=. 5=. 6=.", nil},
		{"a", "1=. 2=e 3=y [4=.] 5=. 6=.", nil},
		{"q", "1=n 2=e 3=y [4=n] 5=n 6=n", nil},
	}
	for i, s := range steps {
		err := do(r, s.key)
		if !errors.Is(err, s.err) || (err != nil) != (s.err != nil) {
			t.Fatalf("step %d, key %q: got error %v, want %v", i+1, s.key, err, s.err)
		}
		if got := state(r); got != s.want {
			t.Fatalf("step %d, key %q: got state %q, want %q", i+1, s.key, got, s.want)
		}
	}
	if r.CanSplit() {
		t.Errorf("CanSplit() on an edited hunk: got true, want false")
	}
	it := item(t, r, "2")
	if it.Original == nil || !reflect.DeepEqual(*it.Original, orig) || !reflect.DeepEqual(it.Hunk, edited) {
		t.Errorf("after the keys: got hunk %+v, original %+v, want the edit and the placed hunk", it.Hunk, it.Original)
	}
	for _, d := range []audit.Decision{audit.Rejected, audit.Approved, audit.Edited} {
		if err := r.Decide("2", d, ""); err != nil {
			t.Errorf("Decide(2, %v): got error %v, want none", d, err)
		}
	}
	if got := item(t, r, "2").Decision; got != audit.Edited {
		t.Errorf("Decide(2, approved) on an edited hunk: got %v, want edited", got)
	}
	if got, want := results(t, r), map[string]string{"calc.go": with(t, wantCalc, change3)}; !reflect.DeepEqual(got, want) {
		t.Errorf("results:\ngot  %q\nwant %q", got, want)
	}
}

// TestEditAgain edits an edited hunk: the text shows the edit, and the
// hunk as placed stays the Original.
func TestEditAgain(t *testing.T) {
	r := fixture(t)
	orig := r.Current().Hunk
	text, _ := r.EditText()
	if err := r.Edit(with(t, text, change{"calc: divide by zero", "calc: division by zero"})); err != nil {
		t.Fatalf("first Edit: got error %v, want none", err)
	}
	mustDo(t, r, "K")
	text, err := r.EditText()
	if err != nil || !strings.Contains(text, "\n+var ErrDivide = errors.New(\"calc: division by zero\")\n") {
		t.Fatalf("EditText() of the edited hunk: got %q, %v, want the edit", text, err)
	}
	if err := r.Edit(with(t, text, change{"calc: division by zero", "calc: zero divisor"})); err != nil {
		t.Fatalf("second Edit: got error %v, want none", err)
	}
	it := item(t, r, "1")
	if it.Original == nil || !reflect.DeepEqual(*it.Original, orig) {
		t.Errorf("got Original %+v, want the hunk as placed %+v", it.Original, orig)
	}
	want := with(t, calcOld, change{`errors.New("divide by zero")`, `errors.New("calc: zero divisor")`})
	if got := results(t, r)["calc.go"]; got != want {
		t.Errorf("calc.go:\ngot\n%s\nwant\n%s", got, want)
	}
}

// TestEditFinalNewline checks that an edit keeps what the hunk does to
// the file's final newline only while its last line is still a change.
func TestEditFinalNewline(t *testing.T) {
	tests := []struct {
		name string
		edit []change
		want string
	}{
		{"unchanged", nil, "alpha\nbeta2\ngamma"},
		{"an added line changed", []change{{"+beta2\n", "+beta3\n"}}, "alpha\nbeta3\ngamma"},
		{"the last line kept, an added line last", []change{{"-gamma\n", " gamma\n"}, {"+gamma\n", ""}}, "alpha\ngamma\nbeta2"},
		{"the last line kept as it was", []change{{"-beta\n-gamma\n+beta2\n+gamma\n", "-beta\n+beta2\n gamma\n"}}, "alpha\nbeta2\ngamma\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := review.New(mustPlace(t, tailPatch), nil)
			text, err := r.EditText()
			if err != nil {
				t.Fatalf("EditText(): got error %v, want none", err)
			}
			if err := r.Edit(with(t, text, tt.edit...)); err != nil {
				t.Fatalf("Edit: got error %v, want none", err)
			}
			if got := results(t, r)["tail.txt"]; got != tt.want {
				t.Errorf("tail.txt: got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestEditCreatedFile edits the hunk of a new file: the plan writes the
// file as edited.
func TestEditCreatedFile(t *testing.T) {
	r := review.New(mustPlace(t, createPatch), nil)
	text, err := r.EditText()
	if err != nil {
		t.Fatalf("EditText(): got error %v, want none", err)
	}
	if !strings.HasPrefix(text, "# Editing a hunk of hello.txt.\n@@ -0,0 +1,3 @@\n+line one\n") {
		t.Errorf("EditText(): got\n%s\nwant the new file's hunk", text)
	}
	if err := r.Edit(with(t, text, change{"+line two\n", ""})); err != nil {
		t.Fatalf("Edit: got error %v, want none", err)
	}
	plans, err := r.Plans()
	if err != nil || len(plans) != 1 {
		t.Fatalf("Plans(): got %d plans, error %v, want one", len(plans), err)
	}
	p := plans[0]
	if p.OldPath != "" || p.NewPath != "hello.txt" {
		t.Errorf("got paths %q -> %q, want a created hello.txt", p.OldPath, p.NewPath)
	}
	if got, err := p.Result(nil); err != nil || got != "line one\nline three\n" {
		t.Errorf("Result: got %q, %v, want %q", got, err, "line one\nline three\n")
	}
}
