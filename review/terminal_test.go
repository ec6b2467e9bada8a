package review_test

import (
	"context"
	"errors"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/review"
)

// term runs a terminal review of r with the given key presses and returns
// the screen and Run's error. editor, when not nil, edits the hunk file.
func term(t *testing.T, r *review.Review, keys string, editor func(text string) string) (string, error) {
	t.Helper()
	var screen strings.Builder
	tm := &review.Terminal{In: strings.NewReader(keys), Out: &screen, Verb: "write and commit"}
	if editor != nil {
		tm.Editor = func(_ context.Context, path string) error {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(path, []byte(editor(string(b))), 0o600)
		}
	}
	err := tm.Run(context.Background(), r)
	return screen.String(), err
}

func TestTerminalDecides(t *testing.T) {
	for _, tc := range []struct {
		name, keys string
		want       string // state after the review
		err        error
	}{
		{"approve all", "yyyyyyy", "1=y 2=y 3=y 4=y 5=y [6=y]", nil},
		{"reject all", "nnnnnnn", "1=n 2=n 3=n 4=n 5=n [6=n]", nil},
		{"quit half-way", "ynqy", "1=y 2=n [3=n] 4=n 5=n 6=n", nil},
		{"approve a file", "ayyyy", "1=y 2=y 3=y 4=y 5=y [6=y]", nil},
		{"reject a file", "dnyyy", "1=n 2=n 3=n 4=n 5=y [6=y]", nil},
		{"split", "ysynyyyyy", "1=y 2.1=y 2.2=n 3=y 4=y 5=y [6=y]", nil},
		{"back and change", "yKnyyyyyy", "1=n 2=y 3=y 4=y 5=y [6=y]", nil},
		{"jump and come back", "jjyyyyknny", "1=n [2=n] 3=y 4=y 5=y 6=y", nil},
		{"go to", "g4\ryyyyyyy", "1=y 2=y [3=y] 4=y 5=y 6=y", nil},
		{"search", "/Join\ryqy", "1=n 2=n 3=n 4=n 5=y [6=n]", nil},
		{"arrow keys are not keys", "\x1b[B\x1b[Ayyyyyyy", "1=y 2=y 3=y 4=y 5=y [6=y]", nil},
		{"unknown and stray keys", "x\r ?pyyyyyyy", "1=y 2=y 3=y 4=y 5=y [6=y]", nil},
		{"abandon at the summary", "yyyyyyn", "1=y 2=y 3=y 4=y 5=y [6=y]", review.ErrAbandoned},
		{"back from the summary", "nnnnnnKyy", "1=n 2=n 3=n 4=n 5=n [6=y]", nil},
		{"Ctrl-C", "yy\x03yyyy", "1=y 2=y [3=.] 4=. 5=. 6=.", review.ErrInterrupted},
		{"input ends", "yy", "1=y 2=y [3=.] 4=. 5=. 6=.", review.ErrInputEnded},
		{"Ctrl-D", "y\x04", "1=y [2=.] 3=. 4=. 5=. 6=.", review.ErrInputEnded},
		{"nothing approved, finish", "qy", "[1=n] 2=n 3=n 4=n 5=n 6=n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := fixture(t)
			screen, err := term(t, r, tc.keys, nil)
			if !errors.Is(err, tc.err) {
				t.Fatalf("Run: got error %v, want %v\nscreen:\n%s", err, tc.err, screen)
			}
			if got := state(r); got != tc.want {
				t.Errorf("got state %s, want %s\nscreen:\n%s", got, tc.want, screen)
			}
		})
	}
}

func TestTerminalScreen(t *testing.T) {
	r := fixture(t)
	screen, err := term(t, r, "yyyyyyy", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"[1/6] calc.go lines 6-12\n",
		"placed: exact\n",
		"@@ -6,7 +6,7 @@\n",
		"-var ErrDivide = errors.New(\"divide by zero\")\n",
		"+var ErrDivide = errors.New(\"calc: divide by zero\")\n",
		"[1/6] Approve this hunk (calc.go lines 6-12) [y,n,r,a,d,A,q,s,e,j,J,g,/,p,?]? y\n",
		"[6/6] Approve this hunk (README.md lines 4-10) [y,n,r,A,q,e,K,g,/,p,?]? y\n",
		"Review summary:\n",
		"calc.go                                  3 approved\n",
		"Write and commit 6 hunks in 3 files [y,n,K,g,?]? y\n",
	} {
		// A hunk that cannot be split has no s; without an editor there is no e.
		want = strings.Replace(want, ",s,e,", ",", 1)
		want = strings.Replace(want, ",q,e,", ",q,", 1)
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "\x1b[") || strings.Contains(screen, "\r") {
		t.Errorf("screen has colour or carriage returns without Color and CRLF:\n%q", screen)
	}
}

func TestTerminalColorAndCRLF(t *testing.T) {
	r := fixture(t)
	var screen strings.Builder
	tm := &review.Terminal{In: strings.NewReader("yyyyyyy"), Out: &screen, Color: true, CRLF: true}
	if err := tm.Run(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	s := screen.String()
	for _, want := range []string{
		"\x1b[31m-var ErrDivide", "\x1b[32m+var ErrDivide", "\x1b[36m@@ -6,7 +6,7 @@", "\x1b[1;34m[1/6] Approve",
		"Write 6 hunks in 3 files", // Verb defaults to write
	} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q", want)
		}
	}
	if n, crlf := strings.Count(s, "\n"), strings.Count(s, "\r\n"); n != crlf {
		t.Errorf("got %d of %d newlines as \\r\\n, want all", crlf, n)
	}
}

func TestTerminalNote(t *testing.T) {
	r := fixture(t)
	// r, a note typed with a typo fixed by backspace and a cleared line;
	// then r and Esc cancels without deciding.
	keys := "rjunk\x15too lodd\x7f\x7f\x7foud\ryr\x1bnyyyy"
	screen, err := term(t, r, keys, nil)
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, screen)
	}
	if got, want := notes(r), "1:too loud"; got != want {
		t.Errorf("got notes %q, want %q", got, want)
	}
	if got, want := state(r), "1=n 2=y 3=n 4=y 5=y [6=y]"; got != want {
		t.Errorf("got state %s, want %s", got, want)
	}
	if !strings.Contains(screen, "no note; the hunk is still undecided") {
		t.Errorf("Esc at the note prompt does not say the hunk is still undecided:\n%s", screen)
	}
	// The prompt speaks to the person, who may be applying a colleague's
	// patch with no model involved.
	if !strings.Contains(screen, "Note (why you reject this hunk): ") || strings.Contains(screen, "for the model") {
		t.Errorf("the note prompt is not the person's:\n%s", screen)
	}
}

func TestTerminalRefusals(t *testing.T) {
	r := fixture(t)
	// s on a hunk with one run, g to a hunk that is not there, a search
	// with a bad pattern, then one that matches nothing, then e without
	// an editor: each explained, nothing decided.
	screen, err := term(t, r, "sg9\r/(\r/nowhere\reyyyyyyy", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"this hunk cannot be split",
		"there are 6 hunks; 9 is not one of them",
		"bad search pattern",
		"no hunk matches /nowhere/",
		"no editor is available",
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	if got, want := state(r), "1=y 2=y 3=y 4=y 5=y [6=y]"; got != want {
		t.Errorf("got state %s, want %s", got, want)
	}
}

func TestTerminalEdit(t *testing.T) {
	r := fixture(t)
	calls := 0
	editor := func(text string) string {
		calls++
		if calls == 1 { // change a line of the file: refused
			return strings.Replace(text, "-var ErrDivide", "-var ErrDivision", 1)
		}
		return strings.Replace(text, `calc: divide by zero`, `calc: division by zero`, 1)
	}
	screen, err := term(t, r, "eeyyyyyy", editor)
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, screen)
	}
	if calls != 2 {
		t.Fatalf("editor ran %d times, want 2", calls)
	}
	if !strings.Contains(screen, "edit refused, the hunk is unchanged: line 6 of the edit: the file has \"var ErrDivide") {
		t.Errorf("the refused edit is not explained:\n%s", screen)
	}
	if got, want := state(r), "1=e 2=y 3=y 4=y 5=y [6=y]"; got != want {
		t.Errorf("got state %s, want %s", got, want)
	}
	got := results(t, r)["calc.go"]
	if !strings.Contains(got, `errors.New("calc: division by zero")`) {
		t.Errorf("calc.go does not have the edit:\n%s", got)
	}
	if !strings.Contains(screen, "Write and commit 6 hunks in 3 files") || !strings.Contains(screen, "2 approved, 1 edited") {
		t.Errorf("summary does not show the edit:\n%s", screen)
	}
}

func TestTerminalEditorFails(t *testing.T) {
	r := fixture(t)
	var screen strings.Builder
	tm := &review.Terminal{In: strings.NewReader("eyyyyyyy"), Out: &screen,
		Editor: func(context.Context, string) error { return errors.New("exit status 1") }}
	if err := tm.Run(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(screen.String(), "the editor failed (exit status 1); the hunk is unchanged") {
		t.Errorf("the editor's failure is not explained:\n%s", screen.String())
	}
	if got, want := state(r), "1=y 2=y 3=y 4=y 5=y [6=y]"; got != want {
		t.Errorf("got state %s, want %s", got, want)
	}
}

func TestTerminalCanceled(t *testing.T) {
	r := fixture(t)
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	tm := &review.Terminal{In: pr, Out: io.Discard}
	done := make(chan error)
	go func() { done <- tm.Run(ctx, r) }()
	if _, err := pw.Write([]byte("y")); err != nil {
		t.Fatal(err)
	}
	cancel() // as a SIGINT would, while Run waits for the next key
	if err := <-done; !errors.Is(err, review.ErrInterrupted) {
		t.Fatalf("got %v, want ErrInterrupted", err)
	}
}

func TestTerminalGrantedAtStart(t *testing.T) {
	// Every hunk approved by a grant: the summary comes at once.
	p := mustPlace(t, readmePatch)
	r := review.New(p, []string{"README.md"})
	screen, err := term(t, r, "y", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(strings.TrimSpace(screen), "Review summary:") {
		t.Errorf("got screen %q, want the summary first", screen)
	}
}

// hostilePatch creates a file whose name holds an escape sequence and
// whose second line, printed raw, would move the cursor up, erase the
// first line and print a harmless-looking one in its place.
const hostilePatch = "diff --git \"a/run\\033[2K.sh\" \"b/run\\033[2K.sh\"\n" +
	"new file mode 100644\n" +
	"--- /dev/null\n" +
	"+++ \"b/run\\033[2K.sh\"\n" +
	"@@ -0,0 +1,3 @@\n" +
	"+rm -rf ~ # evil\n" +
	"+# ok\x1b[1A\x1b[2K\x1b[32m+harmless change\n" +
	"+flip \u202eexe.txt\xff\n"

func TestTerminalEscapesHostileText(t *testing.T) {
	for _, color := range []bool{false, true} {
		r := review.New(mustPlace(t, hostilePatch), nil)
		var screen strings.Builder
		tm := &review.Terminal{In: strings.NewReader("g1\ryy"), Out: &screen, Color: color}
		if err := tm.Run(context.Background(), r); err != nil {
			t.Fatal(err)
		}
		s := screen.String()
		plain := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(s, "") // pair's own colours
		for _, want := range []string{
			"run^[[2K.sh (⚠ control characters) (new, 3 lines)",
			"new file run^[[2K.sh (⚠ control characters)",
			"+rm -rf ~ # evil",
			"+# ok^[[1A^[[2K^[[32m+harmless change ⚠ control characters",
			`+flip \u202eexe.txt\xff ⚠ control characters`,
			"run^[[2K.sh (⚠ control characters)       1 approved",
		} {
			if !strings.Contains(plain, want) {
				t.Errorf("color %v: screen lacks %q:\n%s", color, want, s)
			}
		}
		for _, bad := range []string{"\x1b[1A", "\x1b[2K", "\u202e", "\xff"} {
			if strings.Contains(s, bad) {
				t.Errorf("color %v: screen holds %q raw:\n%q", color, bad, s)
			}
		}
		if !color && strings.Contains(s, "\x1b") {
			t.Errorf("screen without colour holds an escape:\n%q", s)
		}
	}
}

// invisiblePatch adds lines whose invisible letters and lookalike
// letters would pass for blanks and Latin letters: a Hangul filler as a
// JavaScript name (the "invisible backdoor"), a Braille blank, a
// variation selector, and a Cyrillic а in a Latin word.
const invisiblePatch = "--- /dev/null\n+++ b/auth.js\n@@ -0,0 +1,4 @@\n" +
	"+const { timeout,\u3164} = req.query;\n" +
	"+exec(cmd,\u2800x)\n" +
	"+if (role === 'admin\ufe0f') {}\n" +
	"+if (pаssword === 'пароль') {}\n"

func TestTerminalMarksInvisibleAndLookalike(t *testing.T) {
	r := review.New(mustPlace(t, invisiblePatch), nil)
	screen, err := term(t, r, "yy", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`+const { timeout,\u3164} = req.query; ⚠ invisible characters`,
		`+exec(cmd,\u2800x) ⚠ invisible characters`,
		`+if (role === 'admin\ufe0f') {} ⚠ invisible characters`,
		`+if (p\u0430ssword === 'пароль') {} ⚠ lookalike letters`,
	} {
		if !strings.Contains(screen, want+"\n") {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	for _, bad := range []string{"\u3164", "\u2800", "\ufe0f", "pаss"} {
		if strings.Contains(screen, bad) {
			t.Errorf("screen holds %q raw:\n%s", bad, screen)
		}
	}
}

// TestTerminalUncertain: an uncertain hunk is offered with its label, the
// reason in its notes and, on ?, what approving it means; the trailer
// records it.
func TestTerminalUncertain(t *testing.T) {
	old := "def test_run(runner):\n    result = runner.invoke(cli)\n    assert not result.exception\n    assert result.output == \"ran\"\n"
	p, err := edit.Parse("--- a/test_cli.py\n+++ b/test_cli.py\n@@ ... @@\n     result = runner.invoke(cli)\n     assert not result.exception\n+\n+\n+def test_new(runner):\n+    assert runner\n")
	if err != nil {
		t.Fatal(err)
	}
	plans := []*edit.FilePlan{edit.PlanFile("test_cli.py", "test_cli.py", old, p.Files[0])}
	if !edit.Interpret(plans) {
		t.Fatalf("Interpret took nothing; errors %v", plans[0].Errors)
	}
	r := review.New(review.FromPlans(plans), nil)
	screen, err := term(t, r, "?yy", nil)
	if err != nil {
		t.Fatalf("Run: %v\nscreen:\n%s", err, screen)
	}
	for _, want := range []string{
		"placed: uncertain\n",
		"  uncertain: the hunk ends with added lines that leave the indented block which the file continues at line 4",
		edit.UncertainHelp,
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	if rec := r.HunkRecord(&r.Items[0]); !rec.Uncertain || rec.Interpreted || !strings.HasSuffix(rec.String(), " approved uncertain") {
		t.Errorf("got record %+v (%s), want it marked uncertain", rec, rec)
	}
}

// TestTerminalHelpListsOfferedKeys checks that ? lists the keys the prompt
// offers for the hunk, and no others, as git add -p does.
func TestTerminalHelpListsOfferedKeys(t *testing.T) {
	r := fixture(t)
	screen, _ := term(t, r, "?", nil)
	prompt := regexp.MustCompile(`\[([^\]]*)\]\? `).FindStringSubmatch(screen)
	if prompt == nil {
		t.Fatalf("no prompt on the screen:\n%s", screen)
	}
	offered := strings.Split(prompt[1], ",")
	var listed []string
	for _, m := range regexp.MustCompile(`(?m)^(\S) - `).FindAllStringSubmatch(screen, -1) {
		listed = append(listed, m[1])
	}
	if got, want := strings.Join(listed, ","), strings.Join(offered, ","); got != want {
		t.Errorf("? lists keys %s, want the prompt's %s\nscreen:\n%s", got, want, screen)
	}
}

// TestTerminalHelpShowsRules: ? also lists the rules that placed the
// hunk, each with what it says, as pair apply --check --explain does.
func TestTerminalHelpShowsRules(t *testing.T) {
	r := fixture(t)
	it := r.Current()
	if len(it.Hunk.Rules) == 0 {
		t.Fatal("the fixture's first hunk has no trace")
	}
	screen, _ := term(t, r, "?", nil)
	want, ok := edit.RuleByID(it.Hunk.Rules[0])
	if !ok {
		t.Fatalf("rule %s is not in the table", it.Hunk.Rules[0])
	}
	if !strings.Contains(screen, "placed by:\n  rule "+string(want.ID)+" (") || !strings.Contains(screen, want.Statement) {
		t.Errorf("? does not list rule %s with its statement:\n%s", want.ID, screen)
	}
}
