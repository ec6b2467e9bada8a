package apply

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/output"
)

func TestParseWSRules(t *testing.T) {
	tests := []struct {
		in   string
		want wsRules
		err  string
	}{
		{"", defaultWS, ""},
		{"-trailing,-space,-indent,tab", wsRules{tabInIndent: true, tabWidth: 8}, ""},
		{"indent-with-non-tab,tabwidth=4", wsRules{blankAtEOL: true, blankAtEOF: true, spaceBeforeTab: true, indentWithNonTab: true, tabWidth: 4}, ""},
		{"-blank-at-eof,cr-at-eol", wsRules{blankAtEOL: true, spaceBeforeTab: true, crAtEOL: true, tabWidth: 8}, ""},
		{"no-such-rule", defaultWS, ""},
		{"tab-in-indent,indent-with-non-tab", wsRules{}, "cannot both be set"},
		{"tabwidth=0", wsRules{}, "tab width"},
	}
	for _, tt := range tests {
		got, err := parseWSRules(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("parseWSRules(%q) error %v, want one saying %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("parseWSRules(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
}

func TestWhitespaceCheckAndFix(t *testing.T) {
	all := wsRules{blankAtEOL: true, spaceBeforeTab: true, indentWithNonTab: true, tabWidth: 4}
	expand := wsRules{tabInIndent: true, tabWidth: 4}
	tests := []struct {
		r          wsRules
		line, want string
		what       string // the first error, "" for none
	}{
		{defaultWS, "x := 1  ", "x := 1", "trailing whitespace"},
		{defaultWS, "x\t", "x", "trailing whitespace"},
		{defaultWS, " \tx", "\tx", "space before a tab in the indent"},
		{defaultWS, "        x", "        x", ""},
		{all, "        x", "\t\tx", "indent with spaces"},
		{all, "      x", "\t  x", "indent with spaces"},
		{all, "\t  x", "\t  x", ""},
		{expand, "\t x", "     x", "tab in the indent"},
		{expand, "  \tx", "    x", "tab in the indent"},
		{wsRules{blankAtEOL: true, crAtEOL: true, tabWidth: 8}, "x\r", "x\r", ""},
		{wsRules{blankAtEOL: true, tabWidth: 8}, "x \r", "x", "trailing whitespace"},
	}
	for _, tt := range tests {
		what := tt.r.check(tt.line)
		first := ""
		if len(what) > 0 {
			first = what[0]
		}
		if first != tt.what {
			t.Errorf("%+v check(%q) = %q, want %q", tt.r, tt.line, what, tt.what)
		}
		if got := tt.r.fix(tt.line); got != tt.want {
			t.Errorf("%+v fix(%q) = %q, want %q", tt.r, tt.line, got, tt.want)
		}
	}
}

func TestRejectText(t *testing.T) {
	p, err := edit.Parse("diff --git a/c.c b/c.c\n--- a/c.c\n+++ b/c.c\n@@ -3 +3,2 @@ int f()\n-13\n\\ No newline at end of file\n+13\n+14\n\\ No newline at end of file\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "diff a/c.c b/c.c\t(rejected hunks)\n@@ -3 +3,2 @@ int f()\n-13\n\\ No newline at end of file\n+13\n+14\n\\ No newline at end of file\n"
	if got := rejectText("c.c", p.Files[0].Hunks, nil); got != want {
		t.Errorf("rejectText = %q, want %q", got, want)
	}
}

func TestStatTotals(t *testing.T) {
	for _, tt := range []struct {
		files, adds, dels int
		want              string
	}{
		{0, 0, 0, " 0 files changed"},
		{1, 1, 0, " 1 file changed, 1 insertion(+)"},
		{2, 0, 3, " 2 files changed, 3 deletions(-)"},
		{1, 0, 0, " 1 file changed, 0 insertions(+), 0 deletions(-)"},
		{3, 2, 1, " 3 files changed, 2 insertions(+), 1 deletion(-)"},
	} {
		if got := statTotals(tt.files, tt.adds, tt.dels); got != tt.want {
			t.Errorf("statTotals(%d, %d, %d) = %q, want %q", tt.files, tt.adds, tt.dels, got, tt.want)
		}
	}
}

// TestRejectWritesAndFails checks what --reject leaves: the hunk that
// places written, the other in f.rej, an error that names it, and
// nothing committed of the .rej file.
func TestRejectWritesAndFails(t *testing.T) {
	t.Parallel()
	_, _, dir, _ := caseRepos(t, func(dir string) {
		sh(t, dir, "printf '%s\\n' 1 2 3 4 5 6 7 8 9 10 11 12 thirteen 14 15 > f")
	})
	patch := filepath.Join(t.TempDir(), "p.diff")
	text := "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+X\n 4\n 5\n 6\n@@ -10,6 +10,6 @@\n 10\n 11\n 12\n-13\n+Y\n 14\n 15\n"
	if err := os.WriteFile(patch, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	o, _, _ := options(dir, "")
	o.Patch, o.Yes, o.Reject = patch, true, true
	err := Run(context.Background(), o)
	var ee *output.ExitError
	if !errors.Is(err, ErrRejected) || !errors.As(err, &ee) || ee.Code != output.Failure || !strings.Contains(err.Error(), "f.rej") {
		t.Fatalf("Run = %v, want ErrRejected naming f.rej, exit 1", err)
	}
	if got := sh(t, dir, "sed -n 3p f; git show --stat --format=%s HEAD | grep -c rej || true"); got != "X\n0\n" {
		t.Errorf("line 3 and committed .rej files: %q, want X and none", got)
	}
	rej, err := os.ReadFile(filepath.Join(dir, "f.rej"))
	if want := "diff a/f b/f\t(rejected hunks)\n@@ -10,6 +10,6 @@\n 10\n 11\n 12\n-13\n+Y\n 14\n 15\n"; err != nil || string(rej) != want {
		t.Errorf("f.rej = %q, %v; want %q", rej, err, want)
	}
}

// TestPastLines checks which blank old lines at the end of a hunk
// --whitespace=fix lets stand for lines the file lacks at its end.
func TestPastLines(t *testing.T) {
	for _, tt := range []struct {
		name      string
		pre, file []string
		want      int
	}{
		{"one blank line past the end", []string{"a", ""}, []string{"a"}, 1},
		{"two past the end", []string{"x", "a", "", ""}, []string{"w", "x", "a"}, 2},
		{"the fewest past the end", []string{"a", "", ""}, []string{"a", ""}, 1},
		{"fits within the file", []string{"a", ""}, []string{"a", "", "b"}, 0},
		{"past the end only blank lines", []string{"", ""}, []string{"a", ""}, 0},
		{"a line past the end not blank", []string{"a", "b"}, []string{"a"}, 0},
		{"the lines within are not the file's last", []string{"a", ""}, []string{"a", "b"}, 0},
		{"nothing within the file", []string{""}, []string{"a"}, 0},
	} {
		if got := pastLines(tt.pre, tt.file); got != tt.want {
			t.Errorf("%s: pastLines(%q, %q) = %d, want %d", tt.name, tt.pre, tt.file, got, tt.want)
		}
	}
}
