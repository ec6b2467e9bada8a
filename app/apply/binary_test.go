package apply

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/repo/repotest"
)

// noise is n bytes that deflate does not shrink, the same for a seed.
func noise(seed uint64, n int) string {
	r := rand.New(rand.NewPCG(seed, 27))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return string(b)
}

func TestApplyBinarySameAsGit(t *testing.T) {
	big := noise(1, 6000)
	for _, c := range []gitCase{
		{name: "delta in the middle", setup: func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"img/logo.png": big})
		}, change: func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"img/logo.png": big[:2000] + "a new part\x00" + big[2100:] + noise(2, 300)})
		}},
		{name: "literal, create and delete", setup: func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"old.bin": noise(3, 500), "small.bin": "x\x00y", "keep.txt": "text\n"})
		}, change: func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, "old.bin"))
			writeFiles(t, dir, map[string]string{"new.bin": noise(4, 900), "small.bin": "x\x00z", "empty.bin": "\x00"})
		}},
		{name: "binary and text in one patch, an executable", setup: func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"data.bin": noise(5, 3000), "notes.txt": "one\ntwo\n"})
		}, change: func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"data.bin": noise(5, 3000)[:2500] + "\x00\x01", "notes.txt": "one\n2\n"})
			if err := os.Chmod(filepath.Join(dir, "data.bin"), 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "renamed with a change", setup: func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"a.bin": big})
		}, change: func(t *testing.T, dir string) {
			remove(t, dir, "a.bin")
			writeFiles(t, dir, map[string]string{"b/b.bin": big + "x"})
		}},
		{name: "text made binary", setup: func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"a.txt": "plain\n"})
		}, change: func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"a.txt": "plain\x00\n"})
		}},
	} {
		t.Run(c.name, func(t *testing.T) { sameAsGit(t, c) })
	}
}

// binaryScratch commits logo.bin and returns the repository and a patch
// of a change to it.
func binaryScratch(t *testing.T) (dir, patch string) {
	t.Helper()
	dir = gitRepo(t)
	writeFiles(t, dir, map[string]string{"logo.bin": noise(6, 2000)})
	repotest.Git(t, dir, "add", "-A")
	repotest.Git(t, dir, "commit", "-q", "-m", "initial")
	writeFiles(t, dir, map[string]string{"logo.bin": noise(6, 2000)[:1500] + "changed\x00"})
	patch = repotest.Git(t, dir, "diff", "--binary")
	repotest.Git(t, dir, "checkout", "logo.bin")
	return dir, patch
}

func TestApplyBinaryRefusals(t *testing.T) {
	dir, patch := binaryScratch(t)
	head := repotest.Git(t, dir, "rev-parse", "HEAD")
	for _, tt := range []struct {
		name, patch, before string
		want                error // the refusal, of logo.bin
	}{
		{"no data", "diff --git a/logo.bin b/logo.bin\nindex 1234567..89abcde 100644\nBinary files a/logo.bin and b/logo.bin differ\n", "",
			edit.ErrBinaryNoData},
		{"other content", patch, "something else\x00", edit.ErrBinaryMismatch},
		{"wrong result id", wrongNewID(patch), "", edit.ErrBinaryMismatch},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.before != "" {
				writeFiles(t, dir, map[string]string{"logo.bin": tt.before})
				defer repotest.Git(t, dir, "checkout", "logo.bin")
			}
			out, err := applyPatch(t, dir, tt.patch, yes)
			if !errors.Is(err, tt.want) || !strings.HasPrefix(err.Error(), "apply: logo.bin: ") {
				t.Fatalf("Run: got %v (%s), want %v for logo.bin", err, out, tt.want)
			}
			if got := repotest.Git(t, dir, "rev-parse", "HEAD"); got != head {
				t.Errorf("HEAD moved to %s", got)
			}
			if tt.before == "" {
				if st := repotest.Git(t, dir, "status", "--porcelain"); st != "" {
					t.Errorf("the tree changed: %s", st)
				}
			}
		})
	}
}

func TestApplyBinaryReview(t *testing.T) {
	dir, patch := binaryScratch(t)
	out, err := applyPatch(t, dir, patch, func(o *Options) { o.Decisions = "y" })
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	if !strings.Contains(out, "binary file logo.bin: 2.0 KiB → 1.5 KiB\nlogo.bin\tapproved\n") {
		t.Errorf("got output\n%s\nwant the binary file described and approved", out)
	}
	msg := repotest.Git(t, dir, "log", "-1", "--format=%B")
	if !strings.Contains(msg, "Pair-Hunk: logo.bin:0 ") || !strings.Contains(msg, " approved") {
		t.Errorf("got commit message\n%s\nwant a Pair-Hunk trailer for logo.bin", msg)
	}

	// Rejected, nothing is written.
	dir, patch = binaryScratch(t)
	out, err = applyPatch(t, dir, patch, func(o *Options) { o.Decisions = "n" })
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	if st := repotest.Git(t, dir, "status", "--porcelain"); st != "" || !strings.Contains(out, "logo.bin\trejected") {
		t.Errorf("rejected: got status %q, output\n%s", st, out)
	}
}

// wrongNewID changes the second id of the patch's index line.
func wrongNewID(patch string) string {
	i := strings.Index(patch, "..") + 2
	return patch[:i] + "0123456789" + patch[i+10:]
}

// TestApplyBinaryRandom applies random edits of random binary files (so
// that git writes deltas of every kind of copy and insert, and literals)
// with pair and with git, from a fixed seed.
func TestApplyBinaryRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 4))
	const cases = 12
	for i := range cases {
		old := noise(r.Uint64(), r.IntN(9000))
		nw := old
		for range 1 + r.IntN(4) {
			at := r.IntN(len(nw) + 1)
			end := min(len(nw), at+r.IntN(300))
			switch r.IntN(3) {
			case 0: // insert
				nw = nw[:at] + noise(r.Uint64(), r.IntN(200)) + nw[at:]
			case 1: // delete
				nw = nw[:at] + nw[end:]
			default: // move a piece to the front
				nw = nw[at:end] + nw[:at] + nw[end:]
			}
		}
		sameAsGit(t, gitCase{name: fmt.Sprintf("random %d", i), setup: func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"f.bin": "\x00" + old})
		}, change: func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"f.bin": "\x00" + nw})
		}})
	}
}
