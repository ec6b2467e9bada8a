package repo

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo/repotest"
)

// attrFiles are attributes files that exercise git's rules: macros (and
// where they count), quoted patterns, invalid names, negative patterns,
// anchoring, "**", directories only, a line too long, and the order of
// priority between the files.
var attrFiles = map[string]string{
	".gitattributes": "\xef\xbb\xbf* text=auto\n" +
		"*.bin binary\n" +
		"*.txt eol=crlf -diff\n" +
		"\"quoted name.txt\" quoted\n" +
		"\"oct\\303\\251.txt\" octal\n" +
		"\"bad\\q.txt\" badquote\n" +
		"[attr]mymacro foo -bar baz=qux\n" +
		"*.m mymacro\n" +
		"*.nm -mymacro foo=own\n" +
		"*.mm !mymacro mymacro\n" +
		"sub/** inner\n" +
		"/anchored.txt anchored\n" +
		"!neg.txt neg\n" +
		"*.bad bad/name ok\n" +
		"*.ign 1ok -also !spec x=a=b\n" +
		"dir/ dironly\n" +
		"*.long " + strings.Repeat("l", 2100) + "\n" +
		"**/deep/*.c deepc\n" +
		"\t  leading.txt\ttabbed  \r\n" +
		"a\\ b.txt escaped\n" +
		"*.TXT upper\n" +
		"# *.txt comment\n" +
		"*.f\ffeed ff\n" +
		"last.txt one two -one\n",
	"sub/.gitattributes": "*.txt -text sublocal\n" +
		"[attr]mymacro ignored\n" +
		"x.m !foo\n" +
		"*.bin -binary\n" +
		"/anchored.txt subanchored\n" +
		"deep/*.c subdeep\n",
}

var attrPaths = []string{
	"a.bin", "a.txt", "sub/a.txt", "sub/x.m", "x.m", "y.nm", "z.mm", "sub/a.bin", "sub/deeper/deep/z.c", "deep/z.c",
	"sub/deep/z.c", "anchored.txt", "sub/anchored.txt", "neg.txt", "quoted name.txt", "octé.txt", `bad\q.txt`, `"bad\q.txt"`,
	"q.bad", "q.ign", "dir", "dir/file", "leading.txt", "a b.txt", `a\ b.txt`, "A.TXT", "x.long", "x.f\ffeed", "x.f", "last.txt",
	"plain", "y.im",
}

// TestAttrsMatchGit compares every attribute of each path with git
// check-attr -a, the global file, the tree's and info/attributes in
// play.
func TestAttrsMatchGit(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", "")
	dir := repotest.Init(t, nil)
	repotest.WriteFiles(t, dir, attrFiles)
	global := filepath.Join(home, "attributes")
	if err := os.WriteFile(global, []byte("* globalattr\n*.txt text eol=lf\n[attr]mymacro fromglobal\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	repotest.Git(t, dir, "config", "core.attributesFile", global)
	if err := os.WriteFile(filepath.Join(dir, ".git", "info", "attributes"), []byte("*.m bar\nx.m -foo\n[attr]infomacro info1 -info2\n*.im infomacro\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	paths := attrPaths

	tr, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	cfg, err := tr.repo.loadConfig()
	if err != nil {
		t.Fatal(err)
	}
	src := tr.attrSource(cfg)

	cmd := repotest.Cmd(t, dir, "check-attr", "-a", "-z", "--stdin")
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\x00") + "\x00")
	out := strings.Split(repotest.Output(t, cmd), "\x00")
	want := map[string]map[string]string{}
	for i := 0; i+2 < len(out); i += 3 {
		if want[out[i]] == nil {
			want[out[i]] = map[string]string{}
		}
		want[out[i]][out[i+1]] = out[i+2]
	}
	for _, p := range paths {
		rules, err := src.rules(p)
		if err != nil {
			t.Fatal(err)
		}
		got := rules.states(p)
		maps.DeleteFunc(got, func(_, v string) bool { return v == "" }) // unspecified: git does not list it
		if w := want[p]; !maps.Equal(got, w) && !(len(got) == 0 && len(w) == 0) {
			t.Errorf("%q:\n got %v\nwant %v", p, got, w)
		}
	}
}
