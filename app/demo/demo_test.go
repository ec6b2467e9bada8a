package demo

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/app/chat"
	"github.com/pair-cli/pair/internal/console"
	"github.com/pair-cli/pair/repo"
	"github.com/pair-cli/pair/repo/repotest"
)

// TestRunBundled: without a model and without a terminal the demo places
// the bundled damaged diff, applies it with --yes, and commits it with the
// audit trailer, in the directory given, which it keeps when asked to.
func TestRunBundled(t *testing.T) {
	base := filepath.Join(t.TempDir(), "demo")
	var out, errw bytes.Buffer
	err := Run(context.Background(), Options{
		Dir: base, Keep: true, OpenTree: repo.Open,
		IO: console.IO{In: strings.NewReader(""), Out: &out, Err: &errw},
	})
	if err != nil {
		t.Fatalf("Run: %v\nstderr:\n%s", err, errw.String())
	}
	repoDir := filepath.Join(base, "repo")
	if got := repotest.Git(t, repoDir, "rev-list", "--count", "HEAD"); strings.TrimSpace(got) != "2" {
		t.Fatalf("commits: %s, want the project's and pair's", got)
	}
	msg := repotest.Git(t, repoDir, "log", "-1", "--format=%B")
	if !strings.Contains(msg, "Pair-Hunk: ") || !strings.Contains(msg, "Pair-Reviewed-By: ") {
		t.Errorf("the pair commit lacks its audit trailer:\n%s", msg)
	}
	if got := repotest.Git(t, repoDir, "status", "--porcelain"); got != "" {
		t.Errorf("the scratch tree is not clean after the demo: %q", got)
	}
	for _, want := range []string{"$ pair apply --check ../reply.md", "$ pair apply --yes ../reply.md", "$ git show HEAD", "Look around:  cd " + repoDir} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestRunRemoves: without Keep the scratch directory is gone afterwards,
// and a directory that is not empty is refused before anything is made.
func TestRunRemoves(t *testing.T) {
	base := filepath.Join(t.TempDir(), "demo")
	var out bytes.Buffer
	o := Options{Dir: base, OpenTree: repo.Open, IO: console.IO{In: strings.NewReader(""), Out: &out, Err: &out}}
	if err := Run(context.Background(), o); err != nil {
		t.Fatalf("Run: %v\n%s", err, out.String())
	}
	if _, err := os.Stat(base); !os.IsNotExist(err) {
		t.Errorf("the scratch directory is still there: %v", err)
	}

	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "keep.txt"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o.Dir = full
	if err := Run(context.Background(), o); !errors.Is(err, ErrNotEmpty) {
		t.Fatalf("got %v, want ErrNotEmpty", err)
	}
	if b, err := os.ReadFile(filepath.Join(full, "keep.txt")); err != nil || string(b) != "mine\n" {
		t.Errorf("the refused directory's file changed: %q, %v", b, err)
	}
}

// TestRunLive: with a model configured the demo runs one session request
// in the scratch repository, with --yes when there is no console.
func TestRunLive(t *testing.T) {
	var got chat.Options
	var out bytes.Buffer
	err := Run(context.Background(), Options{
		Dir: filepath.Join(t.TempDir(), "demo"), Live: true, OpenTree: repo.Open,
		IO: console.IO{In: strings.NewReader(""), Out: &out, Err: &out},
		Session: func(_ context.Context, o chat.Options) error {
			got = o
			if _, err := os.Stat(filepath.Join(o.Dir, ".pair.yml")); err != nil {
				t.Errorf("no .pair.yml in the scratch repository: %v", err)
			}
			return nil
		},
	})
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out.String())
	}
	if got.Request != Request || !got.Yes || !got.OneShot || len(got.Files) != 2 {
		t.Errorf("session options: %+v", got)
	}
	if !strings.Contains(out.String(), "Nothing was approved, so nothing was committed.") {
		t.Errorf("output lacks the end of a session that changed nothing:\n%s", out.String())
	}
}
