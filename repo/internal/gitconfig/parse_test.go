package gitconfig

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// configSeeds are files that exercise git's parser: headers in their
// three forms, quoting, escapes, continuations, comments, blanks, CRLF,
// a BOM, and files git refuses.
var configSeeds = []string{
	"[user]\n\tname = A U Thor\n\temail = a@example.com\n",
	"[User]\n\tNAME = Mixed Case\n",
	"[remote \"Origin\"]\n\turl = x\n\tfetch = +refs/heads/*:refs/remotes/Origin/*\n",
	"[branch.Main]\n\tremote = origin\n",
	"[a \"sub \\\"q\\\" \\\\ \\x\"]\nk = v\n",
	"[core]\n\tautocrlf\n\tfilemode = false ; comment\n",
	"[a]\nk = \"  quoted  \"  # c\n",
	"[a]\nk =   spaced   value   \n",
	"[a]\nk = one\\\n two\n",
	"[a]\nk = tab\\there\\nnl\\bb\\\\\\\"\n",
	"[a]\nk = \"unterminated\n",
	"[a]\nk = bad\\escape\n",
	"[a]\r\nk = crlf\r\n",
	"\xef\xbb\xbf[a]\nk = bom\n",
	"k = before\n[a]\n",
	"[a]\n1k = digit\n",
	"[]\nk = v\n",
	"[a \"b\" ]\nk = v\n",
	"[a\n",
	"[a]\nk\n= v\n",
	"[a]k=v\n",
	"[a] ; c\n\tk=v;c\n\t# c\n",
	"[a]\nk = x\\",
	"[a]\nk= \"a;b#c\"\n",
	"[a-b.C-d]\nk-e = v\n",
	"[a]\nk = v\r",
	"[a]\nk = \"\"\n",
	"[a]\n\tk =\n",
}

func FuzzParse(f *testing.F) {
	for _, s := range configSeeds {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		if bytes.IndexByte(b, 0) >= 0 {
			return // git reads a file as a C string in places
		}
		got, err := Parse(b)
		want, wantErr := gitList(t, dir, b)
		if (err != nil) != wantErr {
			t.Fatalf("Parse(%q): error %v, git fails: %v", b, err, wantErr)
		}
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q): error %v is not a *SyntaxError", b, err)
			}
			return
		}
		if g := list(got); g != want {
			t.Fatalf("Parse(%q):\n got %q\nwant %q", b, g, want)
		}
	})
}

// list renders entries as git config --list -z does.
func list(entries []Entry) string {
	var sb strings.Builder
	for _, e := range entries {
		sb.WriteString(e.Name())
		if !e.NoValue {
			sb.WriteString("\n" + e.Value)
		}
		sb.WriteByte(0)
	}
	return sb.String()
}

// gitList is what git config --list -z makes of the file b.
func gitList(t *testing.T, dir string, b []byte) (string, bool) {
	t.Helper()
	p := filepath.Join(dir, "config")
	if err := os.WriteFile(p, b, 0o666); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "config", "--no-includes", "-z", "--list", "-f", p)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatal(err)
		}
		if !strings.Contains(stderr.String(), "bad config line") {
			t.Fatalf("git config: %v: %s", err, stderr.String())
		}
		return "", true
	}
	return string(out), false
}

func TestParseMatchesGit(t *testing.T) {
	dir := t.TempDir()
	for _, s := range configSeeds {
		got, err := Parse([]byte(s))
		want, wantErr := gitList(t, dir, []byte(s))
		if (err != nil) != wantErr {
			t.Errorf("Parse(%q): error %v, git fails: %v", s, err, wantErr)
			continue
		}
		if err == nil && list(got) != want {
			t.Errorf("Parse(%q):\n got %q\nwant %q", s, list(got), want)
		}
	}
}

func TestEntryIs(t *testing.T) {
	es, err := Parse([]byte("[Remote \"Origin\"]\n\tURL = x\n[branch.Main]\n\tremote = o\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		e                 Entry
		section, sub, key string
		want              bool
	}{
		{es[0], "remote", "Origin", "url", true},
		{es[0], "REMOTE", "Origin", "Url", true},
		{es[0], "remote", "origin", "url", false}, // subsections keep their case
		{es[1], "branch", "main", "remote", true}, // but not in the old [a.b] form
		{es[1], "branch", "Main", "remote", false},
	} {
		if got := tt.e.Is(tt.section, tt.sub, tt.key); got != tt.want {
			t.Errorf("%+v.Is(%q, %q, %q) = %v, want %v", tt.e, tt.section, tt.sub, tt.key, got, tt.want)
		}
	}
}

func TestBool(t *testing.T) {
	for _, tt := range []struct {
		v       string
		noValue bool
		want    bool
		err     bool
	}{
		{"", true, true, false},
		{"", false, false, false},
		{"TRUE", false, true, false},
		{"Yes", false, true, false},
		{"on", false, true, false},
		{"off", false, false, false},
		{"No", false, false, false},
		{"0", false, false, false},
		{"2", false, true, false},
		{"1k", false, true, false},
		{"-1", false, true, false},
		{"maybe", false, false, true},
	} {
		got, err := Bool(tt.v, tt.noValue)
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("Bool(%q, %v) = %v, %v; want %v, error %v", tt.v, tt.noValue, got, err, tt.want, tt.err)
		}
	}
}
