//go:build unix

package repo

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRemoveEmptyDirsKeepsLinks: the folders a deletion leaves empty are
// removed, but never a symbolic link among them, which the deletion did
// not name (a link to an empty folder would otherwise go).
func TestRemoveEmptyDirsKeepsLinks(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"real", "other"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../real", filepath.Join(dir, "other/dir")); err != nil {
		t.Fatal(err)
	}
	tr, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	tr.disk.removeEmptyDirs("other/dir")
	if fi, err := os.Lstat(filepath.Join(dir, "other/dir")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("other/dir after removeEmptyDirs: %v, %v, want the link kept", fi, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "real")); err != nil {
		t.Errorf("real after removeEmptyDirs: %v", err)
	}
}
