//go:build unix

package repo

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/pair-cli/pair/repo/repotest"
)

// TestCrashBeforeCommit: pair killed after writing its files and before
// committing them leaves them written; the next Open reports them, once,
// and its notice lists a few names one per line and counts the rest.
func TestCrashBeforeCommit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := repotest.Env(t)
	repotest.Git(t, dir, "init", "-q", "-b", "main", ".")
	var patch strings.Builder
	for i := range 12 {
		name := fmt.Sprintf("f%02d.txt", i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&patch, "--- a/%s\n+++ b/%s\n@@ -1 +1 @@\n-old\n+new\n", name, name)
	}
	repotest.Git(t, dir, "add", "-A")
	repotest.Git(t, dir, "commit", "-q", "-m", "initial")
	patchFile := filepath.Join(t.TempDir(), "p.diff")
	if err := os.WriteFile(patchFile, []byte(patch.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	cmd := child(t, "apply", dir, 0)
	cmd.Env = append(append(cmd.Env, env...), envStep+"=apply: written", envPatch+"="+patchFile)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed before its commit: %v\n%s", err, stderr.String())
	}

	tr, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	rep := tr.Recovery
	tr.Close()
	if rep.Action != ActionUncommitted || len(rep.Paths) != 12 {
		t.Fatalf("Recovery = %+v, want %q for the 12 files", rep, ActionUncommitted)
	}
	if st := repotest.Git(t, dir, "status", "--porcelain"); strings.Count(st, " M f") != 12 {
		t.Errorf("git status --porcelain:\n%s\nwant the 12 files modified", st)
	}
	notice := strings.Join(rep.Notice(), "\n")
	want := "an earlier pair was stopped after writing 12 files and before committing them; they are written but not committed (see git status):\n" +
		"  f00.txt\n  f01.txt\n  f02.txt\n  f03.txt\n  f04.txt\n  f05.txt\n  f06.txt\n  f07.txt\n  f08.txt\n  f09.txt\n  and 2 more"
	if notice != want {
		t.Errorf("notice:\n%s\nwant:\n%s", notice, want)
	}

	// Reported once.
	tr, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if tr.Recovery.Action != "" {
		t.Errorf("the second Open reports %+v again", tr.Recovery)
	}
}
