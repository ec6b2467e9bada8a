package repo_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/repo"
)

// histRepo is a real git repository in a temporary directory, driven by
// the real git binary with a temporary HOME, no system configuration and
// the identity in the repository's own configuration.
type histRepo struct {
	t    *testing.T
	dir  string
	home string
	n    int // commits made, for distinct dates
}

func newHistRepo(t *testing.T) *histRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("these tests need git on PATH: %v", err)
	}
	h := &histRepo{t: t, dir: t.TempDir(), home: t.TempDir()}
	h.git("init", "-q", "-b", "main")
	h.git("config", "user.name", "Pat Pair")
	h.git("config", "user.email", "pat@example.com")
	return h
}

// env is the environment of every git run: none of the caller's GIT_
// variables, a HOME of its own, no system configuration.
func (h *histRepo) env(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			env = append(env, kv)
		}
	}
	return append(env, append([]string{
		"HOME=" + h.home, "XDG_CONFIG_HOME=" + filepath.Join(h.home, ".config"),
		"GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C",
	}, extra...)...)
}

// gitIn runs git in dir and returns its standard output; a failure fails
// the test.
func (h *histRepo) gitIn(dir string, args ...string) string {
	h.t.Helper()
	out, err := h.tryGitIn(dir, nil, args...)
	if err != nil {
		h.t.Fatal(err)
	}
	return out
}

func (h *histRepo) tryGitIn(dir string, extraEnv []string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = h.env(extraEnv...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out), nil
}

func (h *histRepo) git(args ...string) string {
	h.t.Helper()
	return h.gitIn(h.dir, args...)
}

// write creates or replaces files of the working tree (mode 0644).
func (h *histRepo) write(files map[string]string) {
	h.t.Helper()
	writeFiles(h.t, h.dir, texts(files))
}

func (h *histRepo) read(name string) string {
	h.t.Helper()
	b, err := os.ReadFile(filepath.Join(h.dir, name))
	if err != nil {
		h.t.Fatal(err)
	}
	return string(b)
}

// commit commits what is staged with the message, dated an hour after the
// previous commit, and returns its hash. args go to git commit.
func (h *histRepo) commit(msg string, args ...string) string {
	h.t.Helper()
	h.n++
	mf := filepath.Join(h.home, fmt.Sprintf("msg-%d.txt", h.n))
	if err := os.WriteFile(mf, []byte(msg), 0o644); err != nil {
		h.t.Fatal(err)
	}
	date := histDate(h.n).Format(time.RFC3339)
	all := append([]string{"commit", "-q", "--allow-empty", "-F", mf}, args...)
	if _, err := h.tryGitIn(h.dir, []string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date}, all...); err != nil {
		h.t.Fatal(err)
	}
	return h.rev("HEAD")
}

// histDate is the date of the nth commit.
func histDate(n int) time.Time {
	return time.Date(2025, 1, 2, 3, 0, 0, 0, time.UTC).Add(time.Duration(n) * time.Hour)
}

// plain stages everything and makes an ordinary commit.
func (h *histRepo) plain(subject string) string {
	h.t.Helper()
	h.git("add", "-A")
	return h.commit(subject + "\n")
}

// pair stages the named paths (all changes when none) and commits them as
// a pair commit of the record, recorded as one this pair made.
func (h *histRepo) pair(rec audit.Record, paths ...string) string {
	h.t.Helper()
	id := h.forged(rec, paths...)
	if err := repo.RecordCommit(h.tree(), id); err != nil {
		h.t.Fatal(err)
	}
	return id
}

// forged is pair, without the record: a commit whose trailers say pair,
// made by someone else.
func (h *histRepo) forged(rec audit.Record, paths ...string) string {
	h.t.Helper()
	if len(paths) == 0 {
		h.git("add", "-A")
	} else {
		h.git(append([]string{"add", "-A", "--"}, paths...)...)
	}
	return h.commit(rec.Message())
}

func (h *histRepo) rev(name string) string {
	h.t.Helper()
	return strings.TrimSpace(h.git("rev-parse", name))
}

func (h *histRepo) tree() *repo.Tree {
	h.t.Helper()
	return openTree(h.t, h.dir)
}

// hunks makes hunk records of a file with the decisions, in order.
func hunks(path string, ds ...audit.Decision) []audit.HunkRecord {
	var out []audit.HunkRecord
	for i, d := range ds {
		out = append(out, audit.HunkRecord{Path: path, Start: 10 * (i + 1), Hash: fmt.Sprintf("%012x", i+1), Decision: d})
	}
	return out
}

func record(subject, model string, hs ...audit.HunkRecord) audit.Record {
	return audit.Record{
		Subject: subject, Body: "Why: " + subject,
		Session: "s-" + model, Model: model, ReviewedBy: "Pat Pair <pat@example.com>",
		Hunks: hs,
	}
}

const (
	ap = audit.Approved
	ed = audit.Edited
	rj = audit.Rejected
)

func TestLogListsPairCommitsNewestFirst(t *testing.T) {
	h := newHistRepo(t)
	h.write(map[string]string{"a.txt": "a\n"})
	h.plain("initial")
	h.write(map[string]string{"a.txt": "a1\n"})
	first := h.pair(record("first pair", "gpt-x", hunks("a.txt", ap, ap, rj)...))
	h.write(map[string]string{"b.txt": "b\n"})
	h.plain("by hand")
	h.write(map[string]string{"b.txt": "b1\n"})
	second := h.pair(record("second pair", "llama", hunks("b.txt", ap, ed)...))

	// A pair commit on a side branch merged in is not on the first-parent
	// path, and the merge itself is not a pair commit.
	h.git("checkout", "-q", "-b", "side")
	h.write(map[string]string{"side.txt": "s\n"})
	h.pair(record("side pair", "gpt-x", hunks("side.txt", ap)...))
	h.git("checkout", "-q", "main")
	h.write(map[string]string{"c.txt": "c\n"})
	h.plain("main moves on")
	h.git("merge", "-q", "--no-ff", "-m", "merge side", "side")

	// A malformed Pair-Hunk trailer is reported, not fatal.
	h.write(map[string]string{"a.txt": "a2\n"})
	msg := record("third pair", "gpt-x", hunks("a.txt", ed)...).Message() + "Pair-Hunk: a.txt:oops 123 approved\n"
	h.git("add", "-A")
	third := h.commit(msg)

	got, err := h.tree().Log(0)
	if err != nil {
		t.Fatal(err)
	}
	type brief struct {
		Hash, Subject, Model, Session string
		A, E, R                       int
		Warn, Made                    bool
	}
	var gotBrief []brief
	for _, e := range got {
		gotBrief = append(gotBrief, brief{e.Hash, e.Subject, e.Model, e.Session, e.Approved, e.Edited, e.Rejected, e.Warning != "", e.MadeHere()})
	}
	want := []brief{
		{third, "third pair", "gpt-x", "s-gpt-x", 0, 1, 0, true, false},
		{second, "second pair", "llama", "s-llama", 1, 1, 0, false, true},
		{first, "first pair", "gpt-x", "s-gpt-x", 2, 0, 1, false, true},
	}
	if !reflect.DeepEqual(gotBrief, want) {
		t.Fatalf("Log(0):\ngot  %+v\nwant %+v", gotBrief, want)
	}
	if !strings.Contains(got[0].Warning, "malformed Pair-Hunk") {
		t.Errorf("warning = %q, want it to name the malformed trailer", got[0].Warning)
	}
	e := got[2]
	if e.ReviewedBy != "Pat Pair <pat@example.com>" || e.Author != "Pat Pair <pat@example.com>" {
		t.Errorf("reviewed by %q, author %q", e.ReviewedBy, e.Author)
	}
	if !e.When.Equal(histDate(2)) {
		t.Errorf("When = %v, want %v", e.When, histDate(2))
	}
	if want := hunks("a.txt", ap, ap, rj); !reflect.DeepEqual(e.Hunks, want) {
		t.Errorf("Hunks = %+v, want %+v", e.Hunks, want)
	}
	// The records are what git itself reads as trailers.
	trailers := h.git("log", "-1", "--format=%(trailers:key=Pair-Hunk,valueonly)", first)
	fromGit := strings.Split(strings.TrimSpace(trailers), "\n")
	var ours []string
	for _, r := range e.Hunks {
		ours = append(ours, r.String())
	}
	if !reflect.DeepEqual(fromGit, ours) {
		t.Errorf("git reads the Pair-Hunk trailers as %q, Log as %q", fromGit, ours)
	}

	limited, err := h.tree().Log(2)
	if err != nil {
		t.Fatal(err)
	}
	if len(limited) != 2 || limited[0].Hash != third || limited[1].Hash != second {
		t.Errorf("Log(2) = %d entries, want the two newest", len(limited))
	}
}

func TestLogEmptyAndNotGit(t *testing.T) {
	h := newHistRepo(t)
	got, err := h.tree().Log(0)
	if err != nil || len(got) != 0 {
		t.Errorf("Log of a repository without commits = %v, %v; want nothing, no error", got, err)
	}
	h.write(map[string]string{"a.txt": "a\n"})
	h.plain("initial")
	got, err = h.tree().Log(0)
	if err != nil || len(got) != 0 {
		t.Errorf("Log without pair commits = %v, %v; want nothing, no error", got, err)
	}

	plain := t.TempDir()
	if _, err := openTree(t, plain).Log(0); !errors.Is(err, repo.ErrNotGit) {
		t.Errorf("Log outside a repository: err = %v, want ErrNotGit", err)
	}
}

func TestStats(t *testing.T) {
	h := newHistRepo(t)
	h.write(map[string]string{"a.txt": "a\n"})
	h.plain("initial")
	for i, c := range []struct {
		model string
		ds    []audit.Decision
	}{
		{"gpt-x", []audit.Decision{ap, ap, rj}},
		{"llama", []audit.Decision{rj, rj}},
		{"gpt-x", []audit.Decision{ed}},
		{"llama", []audit.Decision{ap, rj}},
		{"none", nil},
	} {
		h.write(map[string]string{"a.txt": fmt.Sprintf("a%d\n", i)})
		h.pair(record(fmt.Sprintf("change %d", i), c.model, hunks("a.txt", c.ds...)...))
	}
	entries, err := h.tree().Log(0)
	if err != nil {
		t.Fatal(err)
	}
	got := repo.Stats(entries)
	want := []repo.ModelStats{
		{Model: "gpt-x", Commits: 2, Hunks: 4, Approved: 2, Edited: 1, Rejected: 1},
		{Model: "llama", Commits: 2, Hunks: 4, Approved: 1, Edited: 0, Rejected: 3},
		{Model: "none", Commits: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Stats:\ngot  %+v\nwant %+v", got, want)
	}
	for i, rate := range []float64{0.75, 0.25, 0} {
		if got[i].Rate() != rate {
			t.Errorf("%s: Rate() = %v, want %v", got[i].Model, got[i].Rate(), rate)
		}
	}
	if s := repo.Stats(nil); len(s) != 0 {
		t.Errorf("Stats(nil) = %v, want none", s)
	}
}
