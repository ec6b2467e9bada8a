package repo_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoGoGitRoot: repo reads git through go-git's storage and object
// packages only. The root package would link its transports (ssh, http)
// into pair, whose package init every command pays for.
func TestNoGoGitRoot(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "github.com/go-git/go-git/v5" || strings.HasPrefix(p, "github.com/go-git/go-git/v5/plumbing/transport") {
			t.Errorf("repo links %s", p)
		}
	}
}
