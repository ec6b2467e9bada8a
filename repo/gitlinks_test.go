package repo

import (
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/pair-cli/pair/repo/repotest"
)

// TestIndexGitlinks builds indexes of versions 2, 3 (an entry with
// extended flags) and 4 (names compressed against the previous one) with
// the real git, holding files and gitlinks, and checks that
// indexGitlinks finds the same gitlinks as decoding the whole index.
func TestIndexGitlinks(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"2", "3", "4"} {
		t.Run("v"+version, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			run := func(args ...string) {
				t.Helper()
				repotest.Git(t, dir, args...)
			}
			run("init", "-q")
			for _, name := range []string{"a.txt", "lib/x.go", "lib/xy.go", "lib/z/long-name-of-a-file.txt", "zz"} {
				full := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(full, []byte(name+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			run("add", "a.txt", "lib", "zz")
			const sha = "1111111111111111111111111111111111111111"
			for _, sub := range []string{"lib/sub", "m", "vendor/mod-with-a-long-name"} {
				run("update-index", "--add", "--cacheinfo", "160000,"+sha+","+sub)
			}
			if version == "3" {
				run("update-index", "--skip-worktree", "lib/x.go")
			}
			run("update-index", "--index-version", version)
			b, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
			if err != nil {
				t.Fatal(err)
			}
			if got := b[7]; string(rune('0'+got)) != version {
				t.Fatalf("the index is of version %d, want %s", got, version)
			}
			got, ok := indexGitlinks(b)
			if !ok {
				t.Fatal("indexGitlinks could not read the index")
			}
			idx, _, err := readIndex(filepath.Join(dir, ".git", "index"))
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]bool{}
			for _, e := range idx.Entries {
				if e.Mode == filemode.Submodule {
					want[e.Name] = true
				}
			}
			if len(want) != 3 || !maps.Equal(got, want) {
				t.Errorf("gitlinks %v, want %v (3 of them)", got, want)
			}
			// A damaged index is not misread: it is left to the full decoder.
			for _, cut := range []int{13, 12 + 62 + 1} {
				if _, ok := indexGitlinks(b[:cut]); ok {
					t.Errorf("an index cut at %d bytes was read", cut)
				}
			}
		})
	}
}
