package edit_test

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// tree is a directory's regular files by slash path, with their content.
type tree map[string]string

func writeTree(t *testing.T, dir string, files tree) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readTree(t *testing.T, dir string) tree {
	t.Helper()
	out := tree{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// runIn runs a command in dir and returns its standard output; failing
// commands fail the test, but for diff, whose status 1 means "differ".
func runIn(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "LC_ALL=C", "TZ=UTC")
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(name == "diff" && errors.As(err, &exit) && exit.ExitCode() == 1) {
		stderr := ""
		if exit != nil {
			stderr = string(exit.Stderr)
		}
		t.Fatalf("%s %s in %s: %v\n%s%s", name, strings.Join(args, " "), dir, err, out, stderr)
	}
	return string(out)
}

// applyOurs applies a patch to the files of dir as pair's caller does with
// the parser's result: the source is the first candidate name that
// exists, a created file is written at its name, a deleted file removed.
func applyOurs(t *testing.T, dir, patch string) {
	t.Helper()
	p, err := edit.Parse(patch)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	exists := func(name string) bool {
		fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name)))
		return err == nil && fi.Mode().IsRegular()
	}
	for _, fd := range p.Files {
		oldPath, old := "", ""
		if src := fd.Source(); src != "" {
			for _, c := range fd.Candidates(src) {
				if exists(c) {
					oldPath = c
					break
				}
			}
			if oldPath == "" {
				t.Fatalf("%s: no candidate of %q exists", src, fd.Candidates(src))
			}
			b, err := os.ReadFile(filepath.Join(dir, oldPath))
			if err != nil {
				t.Fatal(err)
			}
			old = string(b)
		}
		newPath := fd.NewPath
		if !fd.Deleted && !fd.New {
			newPath = oldPath
		}
		plan := edit.PlanFile(oldPath, newPath, old, fd)
		if len(plan.Errors) > 0 {
			t.Fatalf("%s: %v", plan.Path(), plan.Errors[0])
		}
		out, err := plan.Result(nil)
		if err != nil {
			t.Fatal(err)
		}
		if newPath == "" {
			if err := os.Remove(filepath.Join(dir, oldPath)); err != nil {
				t.Fatal(err)
			}
			continue
		}
		writeTree(t, dir, tree{newPath: out})
	}
}

// TestTraditionalNamesLikeGit makes patches with GNU diff, applies them
// with git apply, patch -p1 and pair's parser on copies of one tree, and
// wants the same files with the same content from all three.
func TestTraditionalNamesLikeGit(t *testing.T) {
	for _, tool := range []string{"git", "patch", "diff"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed to compare with: %v", tool, err)
		}
	}
	tests := []struct {
		name string
		// made is the directory diff runs in, diff its arguments; tree is
		// what the patch is applied to.
		made tree
		diff []string
		tree tree
		// noPatch: GNU patch -p1 reads these names otherwise (it keeps
		// x.go.orig's name with -p1 on a name without directories).
		noPatch bool
	}{
		{
			name: "diff -ruN: modify, create, delete, nested",
			made: tree{
				"old/keep.txt": "a\nb\nc\n", "old/gone.txt": "bye\n", "old/sub/deep.txt": "1\n2\n3\n",
				"new/keep.txt": "a\nB\nc\n", "new/added.txt": "hello\n", "new/sub/deep.txt": "1\n2\n3\n4\n", "new/sub/fresh.txt": "x\n",
			},
			diff: []string{"-ruN", "old", "new"},
			tree: tree{"keep.txt": "a\nb\nc\n", "gone.txt": "bye\n", "sub/deep.txt": "1\n2\n3\n"},
		},
		{
			name:    "diff -u x.go.orig x.go",
			made:    tree{"x.go.orig": "package x\n\nvar A = 1\n", "x.go": "package x\n\nvar A = 2\n"},
			diff:    []string{"-u", "x.go.orig", "x.go"},
			tree:    tree{"x.go": "package x\n\nvar A = 1\n"},
			noPatch: true,
		},
		{
			name: "diff -u dir/x.orig dir/x, applied at the top",
			made: tree{"dir/x.orig": "one\ntwo\n", "dir/x": "one\n2\n"},
			diff: []string{"-u", "dir/x.orig", "dir/x"},
			tree: tree{"x": "one\ntwo\n"},
		},
		{
			name: "names with spaces and timestamps",
			made: tree{"old/my file.txt": "a\n", "new/my file.txt": "b\n", "new/new file.txt": "c\n"},
			diff: []string{"-ruN", "old", "new"},
			tree: tree{"my file.txt": "a\n"},
		},
		{
			name: "diff -ruN of a deletion only",
			made: tree{"a1/x.txt": "x\n", "a1/y.txt": "y\n", "b1/y.txt": "y\n"},
			diff: []string{"-ruN", "a1", "b1"},
			tree: tree{"x.txt": "x\n", "y.txt": "y\n"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			made := t.TempDir()
			writeTree(t, made, tt.made)
			patch := runIn(t, made, "diff", tt.diff...)
			if patch == "" {
				t.Fatal("diff made no patch")
			}
			pfile := filepath.Join(t.TempDir(), "p.diff")
			if err := os.WriteFile(pfile, []byte(patch), 0o644); err != nil {
				t.Fatal(err)
			}

			byGit := t.TempDir()
			writeTree(t, byGit, tt.tree)
			runIn(t, byGit, "git", "init", "-q")
			runIn(t, byGit, "git", "apply", pfile)
			want := readTree(t, byGit)
			if maps.Equal(want, tt.tree) {
				t.Fatal("git apply changed nothing")
			}

			if !tt.noPatch {
				byPatch := t.TempDir()
				writeTree(t, byPatch, tt.tree)
				runIn(t, byPatch, "patch", "-s", "-p1", "-i", pfile)
				if got := readTree(t, byPatch); !maps.Equal(got, want) {
					t.Fatalf("patch -p1 and git apply differ:\npatch: %q\ngit:   %q", got, want)
				}
			}

			ours := t.TempDir()
			writeTree(t, ours, tt.tree)
			applyOurs(t, ours, patch)
			if got := readTree(t, ours); !maps.Equal(got, want) {
				t.Errorf("patch:\n%s\ngot  %q (%q)\nwant %q (%q)", patch, got, slices.Sorted(maps.Keys(got)), want, slices.Sorted(maps.Keys(want)))
			}
		})
	}
}
