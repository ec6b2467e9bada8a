//go:build unix

package repo

// The crash tests run this test binary again as a child process that
// writes a set of files and is killed with SIGKILL on the way: at each
// step of Write in turn (the crash hook), at each step of the recovery that
// follows, and at random times. After each kill, Open in the parent
// recovers, and the tree must hold exactly the old set or exactly the new
// one: every file entirely old or entirely new, all of them alike, modes
// right, and no temporary file, journal or lock left.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/repo/repotest"
)

const (
	envChild = "PAIR_CRASH_CHILD" // write, recover or loop
	envDir   = "PAIR_CRASH_DIR"
	envAt    = "PAIR_CRASH_AT"    // kill at this call of the crash hook (from 1)
	envStep  = "PAIR_CRASH_STEP"  // or at the crash hook's step of this name
	envPatch = "PAIR_CRASH_PATCH" // the patch the "apply" child applies
)

// crashFile is a file of a crash test's set.
type crashFile struct {
	content []byte
	mode    fs.FileMode
}

// content64K is 64 KiB of text that names its file and version on every
// line, so that a mix of two versions shows.
func content64K(name, version string) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < 64<<10; i++ {
		fmt.Fprintf(&b, "%s %s line %05d\n", name, version, i)
	}
	return b.Bytes()[:64<<10]
}

// oldSet and newSet are the two states of the tree; nil is no file. From
// old to new: two files change content and keep their mode, one changes
// mode too, one is deleted (leaving its directory empty), two are created
// (one in new directories), a file becomes a directory (flip) and a
// directory a file (flop).
func oldSet() map[string]*crashFile {
	return map[string]*crashFile{
		"keep.txt":          {content64K("keep.txt", "old"), 0o644},
		"run.sh":            {content64K("run.sh", "old"), 0o755},
		"private.txt":       {content64K("private.txt", "old"), 0o600},
		"gone/deleted.txt":  {content64K("gone/deleted.txt", "old"), 0o644},
		"made/deep/new.txt": nil,
		"top-new.txt":       nil,
		"flip":              {content64K("flip", "old"), 0o644},
		"flip/in.txt":       nil,
		"flop":              nil,
		"flop/in.txt":       {content64K("flop/in.txt", "old"), 0o644},
	}
}

func newSet() map[string]*crashFile {
	return map[string]*crashFile{
		"keep.txt":          {content64K("keep.txt", "new"), 0o644},
		"run.sh":            {content64K("run.sh", "new"), 0o755},
		"private.txt":       {content64K("private.txt", "new"), 0o640},
		"gone/deleted.txt":  nil,
		"made/deep/new.txt": {content64K("made/deep/new.txt", "new"), 0o644},
		"top-new.txt":       {content64K("top-new.txt", "new"), 0o755},
		"flip":              nil,
		"flip/in.txt":       {content64K("flip/in.txt", "new"), 0o644},
		"flop":              {content64K("flop", "new"), 0o644},
		"flop/in.txt":       nil,
	}
}

// crashPaths is the order of the changes in a write set.
var crashPaths = []string{"keep.txt", "run.sh", "private.txt", "gone/deleted.txt", "made/deep/new.txt", "top-new.txt", "flip", "flip/in.txt", "flop", "flop/in.txt"}

// changesTo returns the write set that turns from into to. Modes that do
// not change are left for Write to keep.
func changesTo(from, to map[string]*crashFile) []Change {
	var cs []Change
	for _, p := range crashPaths {
		f, t := from[p], to[p]
		switch {
		case t == nil:
			cs = append(cs, Change{Path: p, Delete: true})
		case f != nil && f.mode == t.mode:
			cs = append(cs, Change{Path: p, Content: t.content})
		default:
			cs = append(cs, Change{Path: p, Content: t.content, Mode: t.mode})
		}
	}
	return cs
}

// TestCrashChild is the child process; it does nothing in a normal run.
func TestCrashChild(t *testing.T) {
	what := os.Getenv(envChild)
	if what == "" {
		t.Skip("the crash tests' child process")
	}
	dir := os.Getenv(envDir)
	at, _ := strconv.Atoi(os.Getenv(envAt))
	calls := 0
	hook := func(step string) {
		calls++
		if calls == at || step == os.Getenv(envStep) {
			fmt.Fprintf(os.Stderr, "killed at %q\n", step)
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			time.Sleep(time.Hour)
		}
	}
	tr, err := openTree(dir, hook) // recovers, when a journal is there
	if err != nil {
		t.Fatal(err)
	}
	switch what {
	case "write":
		if err := tr.Write(changesTo(oldSet(), newSet())); err != nil {
			t.Fatal(err)
		}
	case "apply":
		b, err := os.ReadFile(os.Getenv(envPatch))
		if err != nil {
			t.Fatal(err)
		}
		p, err := edit.Parse(string(b))
		if err != nil {
			t.Fatal(err)
		}
		plans, err := tr.Place(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tr.ApplyPlans(plans, ApplyOptions{Commit: true}); err != nil {
			t.Fatal(err)
		}
	case "loop":
		fmt.Println("ready")
		for {
			if err := tr.Write(changesTo(oldSet(), newSet())); err != nil {
				t.Fatal(err)
			}
			if err := tr.Write(changesTo(newSet(), oldSet())); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// child starts the child process.
func child(t *testing.T, what, dir string, at int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), envChild+"="+what, envDir+"="+dir, envAt+"="+strconv.Itoa(at))
	return cmd
}

// runChild runs the child to its end and reports the step it was killed
// at, or "" when it ran to completion.
func runChild(t *testing.T, what, dir string, at int) string {
	t.Helper()
	cmd := child(t, what, dir, at)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &ee) && ee.Sys().(syscall.WaitStatus).Signal() == syscall.SIGKILL:
		_, step, _ := strings.Cut(strings.TrimSpace(stderr.String()), "killed at ")
		step, _ = strconv.Unquote(step)
		return step
	default:
		t.Fatalf("child %s at %d: %v\n%s", what, at, err, stderr.String())
		return ""
	}
}

// crashTree makes a tree holding the old set, a git repository or not.
func crashTree(t *testing.T, git bool) string {
	t.Helper()
	dir := t.TempDir()
	if git {
		repotest.Git(t, dir, "init", "-q")
	}
	for p, f := range oldSet() {
		if f == nil {
			continue
		}
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, f.content, f.mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(full, f.mode); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// treeState describes every entry under dir but .git, for comparing.
func treeState(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(dir, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case fi.IsDir():
			out[filepath.ToSlash(rel)] = fmt.Sprintf("dir %v", fi.Mode().Perm())
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[filepath.ToSlash(rel)] = fmt.Sprintf("file %v %s", fi.Mode().Perm(), hashOf(b))
		default:
			out[filepath.ToSlash(rel)] = fmt.Sprintf("other %v", fi.Mode())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// wantState is what treeState returns for a set.
func wantState(set map[string]*crashFile) map[string]string {
	out := map[string]string{}
	for p, f := range set {
		if f == nil {
			continue
		}
		out[p] = fmt.Sprintf("file %v %s", f.mode, hashOf(f.content))
		for d := filepath.Dir(p); d != "."; d = filepath.Dir(d) {
			out[d] = fmt.Sprintf("dir %v", fs.FileMode(0o755))
		}
	}
	return out
}

func sameState(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// checkRecovered opens the tree, which recovers it, and checks that it
// holds exactly the old or the new set, with nothing of pair's left. It
// returns "old" or "new", and the report of the recovery.
func checkRecovered(t *testing.T, dir, what string) (string, RecoveryReport) {
	t.Helper()
	tr, err := Open(dir)
	if err != nil {
		t.Fatalf("%s: Open after the crash: %v", what, err)
	}
	rep := tr.Recovery
	gitDir := tr.GitDir()
	tr.Close()
	got := treeState(t, dir)
	set := ""
	switch {
	case sameState(got, wantState(oldSet())):
		set = "old"
	case sameState(got, wantState(newSet())):
		set = "new"
	default:
		var lines []string
		for p, s := range got {
			name := p
			for _, v := range []string{"old", "new"} {
				if f := map[string]map[string]*crashFile{"old": oldSet(), "new": newSet()}[v][p]; f != nil && s == fmt.Sprintf("file %v %s", f.mode, hashOf(f.content)) {
					name += " (" + v + ")"
				}
			}
			lines = append(lines, name+": "+s)
		}
		t.Fatalf("%s: after recovery the tree is neither the old set nor the new one:\n%s", what, strings.Join(lines, "\n"))
	}
	if gitDir != "" {
		// Only the writer lock stays, which is never removed.
		if entries, err := os.ReadDir(filepath.Join(gitDir, "pair")); err == nil && (len(entries) != 1 || entries[0].Name() != applyLockFile) {
			left, _ := os.ReadDir(filepath.Join(gitDir, "pair", "journal"))
			t.Errorf("%s: %s left in the git directory (it holds %v, the journal %v)", what, filepath.Join(gitDir, "pair"), entries, left)
		}
	}
	return set, rep
}

// wantAfter is the set a crash at step of Write must end in, and the
// recovery that gets there: before the journal says committing, the
// targets are untouched and the set rolls back; from then on every new
// content is complete and it rolls forward.
func wantAfter(step string) (string, string) {
	if strings.HasPrefix(step, "write: prepared") || strings.HasPrefix(step, "write: temp") {
		return "old", "rolled back"
	}
	return "new", "rolled forward"
}

func TestCrashWrite(t *testing.T) {
	t.Parallel()
	for _, git := range []bool{false, true} {
		t.Run(fmt.Sprintf("git=%v", git), func(t *testing.T) {
			t.Parallel()
			for at := 1; ; at++ {
				dir := crashTree(t, git)
				step := runChild(t, "write", dir, at)
				what := fmt.Sprintf("killed at step %d (%q)", at, step)
				set, rep := checkRecovered(t, dir, what)
				if step == "" {
					if set != "new" || rep.Action != "" {
						t.Errorf("Write ran to its end: got the %s set, recovery %q; want the new set, no recovery", set, rep.Action)
					}
					t.Logf("%d kill points", at-1)
					if at < 10 {
						t.Errorf("only %d kill points", at-1)
					}
					return
				}
				wantSet, wantAction := wantAfter(step)
				if set != wantSet || rep.Action != wantAction {
					t.Errorf("%s: got the %s set, %q; want the %s set, %q", what, set, rep.Action, wantSet, wantAction)
				}
				if len(rep.Paths) != len(crashPaths) || len(rep.Conflicts) != 0 {
					t.Errorf("%s: report %+v, want the %d paths and no conflicts", what, rep, len(crashPaths))
				}
				if at > 100 {
					t.Fatal("Write never ran to its end")
				}
			}
		})
	}
}

// TestCrashRecover kills the process writing at some steps, then the
// process recovering at each step of the recovery; the next recovery
// must end as an uninterrupted one would. One case loses a new copy after
// the renames began (as if someone removed it), so that the recovery must
// roll a half-renamed set back from the journal's copies.
func TestCrashRecover(t *testing.T) {
	t.Parallel()
	tests := []struct {
		step    string
		lose    bool // remove the new copy of made/deep/new.txt
		wantSet string
	}{
		{step: "write: prepared", wantSet: "old"},
		{step: "write: temp 2", wantSet: "old"},
		{step: "write: committing", wantSet: "new"},
		{step: "write: rename 2", wantSet: "new"},
		{step: "write: rename 2", lose: true, wantSet: "old"},
		{step: "write: done", wantSet: "new"},
	}
	points := writePoints(t)
	for _, tt := range tests {
		writeAt, ok := points[tt.step]
		if !ok {
			t.Fatalf("Write has no step %q; it has %v", tt.step, points)
		}
		crashed := crashTree(t, true)
		runChild(t, "write", crashed, writeAt)
		for recoverAt := 1; ; recoverAt++ {
			dir := copyTree(t, crashed)
			if tt.lose {
				jdir := filepath.Join(dir, ".git", "pair", "journal")
				r, err := os.OpenRoot(jdir)
				if err != nil {
					t.Fatal(err)
				}
				j, err := readJournal(r)
				r.Close()
				if err != nil || j == nil {
					t.Fatalf("journal after a crash at %q: %v, %v", tt.step, j, err)
				}
				if err := os.Remove(filepath.Join(jdir, j.Changes[4].NewCopy)); err != nil {
					t.Fatal(err)
				}
			}
			rstep := runChild(t, "recover", dir, recoverAt)
			what := fmt.Sprintf("write killed at %q (lose=%v), recovery at %q", tt.step, tt.lose, rstep)
			set, _ := checkRecovered(t, dir, what)
			if set != tt.wantSet {
				t.Errorf("%s: got the %s set, want the %s set", what, set, tt.wantSet)
			}
			if rstep == "" {
				break
			}
			if recoverAt > 100 {
				t.Fatal("recovery never ran to its end")
			}
		}
	}
}

// writePoints returns where each step of Write is, counted from 1.
func writePoints(t *testing.T) map[string]int {
	t.Helper()
	points := map[string]int{}
	for at := 1; ; at++ {
		step := runChild(t, "write", crashTree(t, true), at)
		if step == "" || at > 100 {
			return points
		}
		points[step] = at
	}
}

// copyTree copies the tree at src, .git included, to a new directory.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		fi, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			if err := os.MkdirAll(to, 0o700); err != nil {
				return err
			}
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if err := os.WriteFile(to, b, 0o600); err != nil {
				return err
			}
		default:
			return fmt.Errorf("%s: cannot copy %v", p, fi.Mode())
		}
		return os.Chmod(to, fi.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestCrashRandom kills a process that writes the set and back again, in
// a loop, at random times. Only the invariants are checked: where the
// kill lands is up to the scheduler.
func TestCrashRandom(t *testing.T) {
	t.Parallel()
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rnd := rand.New(rand.NewPCG(seed, 0))
	for i := range 16 {
		git := i%2 == 1
		dir := crashTree(t, git)
		cmd := child(t, "loop", dir, 0)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, _ := bufio.NewReader(out).ReadString('\n')
		if line != "ready\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("child: got %q, want ready\n%s", line, stderr.String())
		}
		time.Sleep(time.Duration(rnd.Int64N(int64(30 * time.Millisecond))))
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		checkRecovered(t, dir, fmt.Sprintf("run %d (git=%v): killed at a random time", i, git))
	}
}
