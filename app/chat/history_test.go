package chat

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestLineHistoryKeepsLastLines(t *testing.T) {
	dir := t.TempDir()
	h := newLineHistory(dir)
	if got := h.load(); got != nil {
		t.Fatalf("a new history holds %q", got)
	}
	h.add("first")
	h.add("  ")
	h.add("with\x1b[31m escape")
	h.add("second")
	if got, want := h.load(), []string{"first", "second"}; !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	long := strings.Repeat("x", 1000)
	for i := range 600 {
		h.add(fmt.Sprintf("%d %s", i, long))
	}
	fi, err := os.Stat(filepath.Join(dir, "pair", "history"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > historyMaxBytes+2000 {
		t.Errorf("the history file grew to %d bytes, want about %d at most", fi.Size(), historyMaxBytes)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("history file mode %v, want 0600", fi.Mode().Perm())
	}
	got := h.load()
	if len(got) == 0 || len(got) > historyKeep || got[len(got)-1] != "599 "+long {
		t.Errorf("after 600 long lines: %d lines, the last %.10q", len(got), got[len(got)-1])
	}
}

func TestLineHistoryNeverThroughALink(t *testing.T) {
	dir := t.TempDir()
	elsewhere := filepath.Join(t.TempDir(), "target")
	if err := os.WriteFile(elsewhere, []byte("secret line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "pair"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(dir, "pair", "history")); err != nil {
		t.Fatal(err)
	}
	h := newLineHistory(dir)
	if got := h.load(); got != nil {
		t.Errorf("read through a link: %q", got)
	}
	h.add("typed")
	if b, _ := os.ReadFile(elsewhere); string(b) != "secret line\n" {
		t.Errorf("wrote through a link: %q", b)
	}

	// A link as the directory.
	dir2 := t.TempDir()
	if err := os.Symlink(t.TempDir(), filepath.Join(dir2, "pair")); err != nil {
		t.Fatal(err)
	}
	h2 := newLineHistory(dir2)
	h2.add("typed")
	if got := h2.load(); got != nil {
		t.Errorf("used a linked directory: %q", got)
	}
}
