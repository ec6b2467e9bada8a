package repo_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

// gitInit makes dir the top of a new git repository, with the real git.
func gitInit(t testing.TB, dir string) {
	t.Helper()
	repotest.Git(t, dir, "init", "-q", "-b", "main", ".")
}

// file is a file to create: its content and permission bits (0644 when 0).
type file struct {
	content string
	mode    fs.FileMode
}

// writeFiles creates files under dir, with their parent directories.
func writeFiles(t testing.TB, dir string, files map[string]file) {
	t.Helper()
	for name, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := f.mode
		if mode == 0 {
			mode = 0o644
		}
		if err := os.WriteFile(p, []byte(f.content), mode); err != nil {
			t.Fatal(err)
		}
		// WriteFile's mode is filtered by the umask.
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
}

// texts is a shorthand for files of mode 0644.
func texts(m map[string]string) map[string]file {
	out := map[string]file{}
	for k, v := range m {
		out[k] = file{content: v}
	}
	return out
}

func openTree(t *testing.T, dir string) *repo.Tree {
	t.Helper()
	tr, err := repo.Open(dir)
	if err != nil {
		t.Fatalf("Open(%q): %v", dir, err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr
}

// entry is what a snapshot records of one directory entry.
type entry struct {
	kind    string // "file", "dir" or "link"
	mode    fs.FileMode
	content string // file content or link target
}

// snapshot records every entry under dir (but not dir itself), skipping
// .git directories.
func snapshot(t *testing.T, dir string) map[string]entry {
	t.Helper()
	out := map[string]entry{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			out[rel] = entry{kind: "link", content: target}
		case fi.IsDir():
			out[rel] = entry{kind: "dir", mode: fi.Mode().Perm()}
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = entry{kind: "file", mode: fi.Mode().Perm(), content: string(b)}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameSnapshot reports every difference between two snapshots.
func sameSnapshot(t *testing.T, what string, got, want map[string]entry) {
	t.Helper()
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		g, gok := got[k]
		w, wok := want[k]
		switch {
		case !gok:
			t.Errorf("%s: %s is missing, want %s %q mode %v", what, k, w.kind, w.content, w.mode)
		case !wok:
			t.Errorf("%s: %s exists (%s %q mode %v), want it absent", what, k, g.kind, g.content, g.mode)
		case g != w:
			t.Errorf("%s: %s is %s %q mode %v, want %s %q mode %v", what, k, g.kind, g.content, g.mode, w.kind, w.content, w.mode)
		}
	}
}

// tempFiles returns the paths of pair's temporary files under dir.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for p := range snapshot(t, dir) {
		base := p[strings.LastIndex(p, "/")+1:]
		if strings.HasPrefix(base, ".pair-") || strings.HasSuffix(base, ".tmp") {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

func noTempFiles(t *testing.T, dir string) {
	t.Helper()
	if tmps := tempFiles(t, dir); len(tmps) > 0 {
		t.Errorf("temporary files left in %s: %q", dir, tmps)
	}
}
