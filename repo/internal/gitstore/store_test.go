package gitstore

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/pair-cli/pair/repo/repotest"
)

// history makes a repository whose files change over many commits, so
// that git gc stores most of their versions as deltas.
func history(t *testing.T) string {
	t.Helper()
	dir := repotest.Init(t, map[string]string{"a.txt": "start\n"})
	var body strings.Builder
	for i := range 20 {
		fmt.Fprintf(&body, "line %d of a file that grows a little each commit\n", i)
		repotest.WriteFiles(t, dir, map[string]string{
			"a.txt":         body.String(),
			"dir/b.txt":     strings.Repeat("b", i+1) + "\n",
			"dir/sub/c.txt": body.String() + "tail\n",
		})
		repotest.Git(t, dir, "add", "-A")
		repotest.Git(t, dir, "commit", "-q", "-m", fmt.Sprintf("commit %d", i))
	}
	return dir
}

func gitDir(dir string) string { return filepath.Join(dir, ".git") }

// allObjects returns every object of the repository as git lists it:
// hash to type.
func allObjects(t *testing.T, dir string) map[string]string {
	t.Helper()
	objs := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(repotest.Git(t, dir, "cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)")), "\n") {
		h, typ, _ := strings.Cut(l, " ")
		objs[h] = typ
	}
	return objs
}

func read(t *testing.T, s *Store, typ plumbing.ObjectType, h string) []byte {
	t.Helper()
	obj, err := s.EncodedObject(typ, plumbing.NewHash(h))
	if err != nil {
		t.Fatalf("read %s %s: %v", typ, h, err)
	}
	rd, err := obj.Reader()
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	b, err := io.ReadAll(rd)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkAll reads every object through s and compares it with git's.
func checkAll(t *testing.T, dir string, s *Store) {
	t.Helper()
	objs := allObjects(t, dir)
	if len(objs) < 30 {
		t.Fatalf("only %d objects", len(objs))
	}
	for h, typ := range objs {
		want := repotest.Git(t, dir, "cat-file", typ, h)
		pt, err := plumbing.ParseObjectType(typ)
		if err != nil {
			t.Fatal(err)
		}
		if got := read(t, s, pt, h); string(got) != want {
			t.Fatalf("%s %s: got %q, want %q", typ, h, got, want)
		}
		if got := read(t, s, plumbing.AnyObject, h); string(got) != want {
			t.Fatalf("%s %s as any object: got %q, want %q", typ, h, got, want)
		}
	}
}

func TestReadLooseAndPacked(t *testing.T) {
	dir := history(t)
	for _, step := range []struct {
		name string
		git  []string
	}{
		{"loose", nil},
		{"gc", []string{"gc", "-q"}},
		{"repack -ad", []string{"repack", "-adq", "--depth=50", "--window=250"}},
		{"loose again", []string{"unpack-objects", "-q"}}, // filled below
	} {
		t.Run(step.name, func(t *testing.T) {
			switch step.name {
			case "loose again":
				// The pack moved aside and its objects unpacked: loose
				// objects again, and no pack.
				packs, _ := filepath.Glob(filepath.Join(gitDir(dir), "objects", "pack", "*.pack"))
				if len(packs) != 1 {
					t.Fatalf("packs %v", packs)
				}
				tmp := filepath.Join(t.TempDir(), "p.pack")
				if err := os.Rename(packs[0], tmp); err != nil {
					t.Fatal(err)
				}
				os.Remove(strings.TrimSuffix(packs[0], ".pack") + ".idx")
				f, err := os.Open(tmp)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				cmd := repotest.Cmd(t, dir, step.git...)
				cmd.Stdin = f
				repotest.Output(t, cmd)
			case "gc", "repack -ad":
				repotest.Git(t, dir, step.git...)
			}
			for _, keep := range []bool{false, true} {
				s := Open(gitDir(dir), gitDir(dir), keep)
				checkAll(t, dir, s)
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	// Deltas were made: the test reads through them.
	repotest.Git(t, dir, "gc", "-q")
	verify := repotest.Git(t, dir, "verify-pack", "-v", mustGlob(t, filepath.Join(gitDir(dir), "objects", "pack", "*.idx")))
	if !strings.Contains(verify, "chain length = ") {
		t.Fatalf("no deltas in the pack:\n%s", verify)
	}
}

func mustGlob(t *testing.T, pat string) string {
	t.Helper()
	m, _ := filepath.Glob(pat)
	if len(m) != 1 {
		t.Fatalf("%s: %v", pat, m)
	}
	return m[0]
}

// A repack by git while the store is open (its packs read, a pack even
// kept open) removes the packs it knew: the store finds the new one.
func TestRepackWhileOpen(t *testing.T) {
	for _, keep := range []bool{false, true} {
		t.Run(fmt.Sprint("keep=", keep), func(t *testing.T) {
			dir := history(t)
			repotest.Git(t, dir, "gc", "-q")
			s := Open(gitDir(dir), gitDir(dir), keep)
			defer s.Close()
			head := strings.TrimSpace(repotest.Git(t, dir, "rev-parse", "HEAD"))
			read(t, s, plumbing.CommitObject, head)
			// New objects, and a repack that replaces every pack.
			repotest.WriteFiles(t, dir, map[string]string{"new.txt": "new\n"})
			repotest.Git(t, dir, "add", "-A")
			repotest.Git(t, dir, "commit", "-q", "-m", "new")
			repotest.Git(t, dir, "repack", "-adq")
			repotest.Git(t, dir, "prune-packed")
			blob := strings.TrimSpace(repotest.Git(t, dir, "rev-parse", "HEAD:new.txt"))
			if got := read(t, s, plumbing.BlobObject, blob); string(got) != "new\n" {
				t.Fatalf("new blob: %q", got)
			}
			checkAll(t, dir, s)
			if err := s.HasEncodedObject(plumbing.NewHash(blob)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestMissingAndWrongType(t *testing.T) {
	dir := history(t)
	s := Open(gitDir(dir), gitDir(dir), false)
	head := strings.TrimSpace(repotest.Git(t, dir, "rev-parse", "HEAD"))
	for _, packed := range []bool{false, true} {
		if packed {
			repotest.Git(t, dir, "gc", "-q")
		}
		if _, err := s.EncodedObject(plumbing.BlobObject, plumbing.NewHash(head)); !errors.Is(err, plumbing.ErrObjectNotFound) {
			t.Errorf("commit read as a blob: %v", err)
		}
		missing := plumbing.NewHash("0123456789abcdef0123456789abcdef01234567")
		if _, err := s.EncodedObject(plumbing.AnyObject, missing); !errors.Is(err, plumbing.ErrObjectNotFound) {
			t.Errorf("missing object: %v", err)
		}
		if err := s.HasEncodedObject(missing); !errors.Is(err, plumbing.ErrObjectNotFound) {
			t.Errorf("HasEncodedObject(missing) = %v", err)
		}
		if n, err := s.EncodedObjectSize(plumbing.NewHash(head)); err != nil || n != int64(len(repotest.Git(t, dir, "cat-file", "commit", head))) {
			t.Errorf("EncodedObjectSize = %d, %v", n, err)
		}
	}
}

// Objects the store writes are git's: git fsck accepts them and reads
// back the same content and type, and writing one again changes nothing.
func TestWriteLoose(t *testing.T) {
	dir := repotest.Init(t, nil)
	s := Open(gitDir(dir), gitDir(dir), false)
	write := func(typ plumbing.ObjectType, content string) plumbing.Hash {
		t.Helper()
		obj := s.NewEncodedObject()
		obj.SetType(typ)
		w, err := obj.Writer()
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, content)
		w.Close()
		h, err := s.SetEncodedObject(obj)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	blob := write(plumbing.BlobObject, "hello\x00binary\n")
	cmd := repotest.Cmd(t, dir, "hash-object", "--stdin")
	cmd.Stdin = strings.NewReader("hello\x00binary\n")
	if want := strings.TrimSpace(repotest.Output(t, cmd)); blob.String() != want {
		t.Fatalf("blob %s, git says %s", blob, want)
	}
	tree := write(plumbing.TreeObject, "100644 f\x00"+string(blob[:]))
	commit := write(plumbing.CommitObject, fmt.Sprintf("tree %s\nauthor A <a@b> 1700000000 +0000\ncommitter A <a@b> 1700000000 +0000\n\nmsg\n", tree))
	again := write(plumbing.CommitObject, fmt.Sprintf("tree %s\nauthor A <a@b> 1700000000 +0000\ncommitter A <a@b> 1700000000 +0000\n\nmsg\n", tree))
	if again != commit {
		t.Fatalf("written twice: %s, %s", commit, again)
	}
	repotest.Git(t, dir, "update-ref", "refs/heads/main", commit.String())
	repotest.Git(t, dir, "fsck", "--strict", "--no-dangling")
	if got := repotest.Git(t, dir, "cat-file", "blob", blob.String()); got != "hello\x00binary\n" {
		t.Fatalf("git reads %q", got)
	}
	fi, err := os.Stat(filepath.Join(gitDir(dir), "objects", blob.String()[:2], blob.String()[2:]))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm()&0o222 != 0 {
		t.Errorf("loose object mode %v, git makes it read-only", fi.Mode())
	}
	tmps, _ := filepath.Glob(filepath.Join(gitDir(dir), "objects", "*", "tmp_obj_*"))
	if len(tmps) != 0 {
		t.Errorf("temporary files left: %v", tmps)
	}
	// A packed object is not written loose again.
	repotest.Git(t, dir, "gc", "-q")
	s = Open(gitDir(dir), gitDir(dir), false)
	write(plumbing.BlobObject, "hello\x00binary\n")
	if _, err := os.Stat(filepath.Join(gitDir(dir), "objects", blob.String()[:2], blob.String()[2:])); err == nil {
		t.Errorf("packed blob written loose again")
	}
}

func TestHashesWithPrefix(t *testing.T) {
	dir := history(t)
	for _, packed := range []bool{false, true} {
		if packed {
			repotest.Git(t, dir, "gc", "-q")
		}
		s := Open(gitDir(dir), gitDir(dir), false)
		objs := allObjects(t, dir)
		n := 0
		for h := range objs {
			if n++; n > 10 {
				break
			}
			for _, size := range []int{1, 2, 20} {
				prefix := plumbing.NewHash(h)
				got, err := s.HashesWithPrefix(prefix[:size])
				if err != nil {
					t.Fatal(err)
				}
				var gotHex, want []string
				for _, g := range got {
					if !slices.Contains(gotHex, g.String()) {
						gotHex = append(gotHex, g.String())
					}
				}
				for o := range objs {
					if strings.HasPrefix(o, h[:2*size]) {
						want = append(want, o)
					}
				}
				slices.Sort(gotHex)
				slices.Sort(want)
				if !slices.Equal(gotHex, want) {
					t.Fatalf("packed=%v prefix %s: got %v, want %v", packed, h[:2*size], gotHex, want)
				}
			}
		}
	}
}

// A clone made with --shared reads the objects of its source through
// objects/info/alternates.
func TestAlternates(t *testing.T) {
	src := history(t)
	repotest.Git(t, src, "gc", "-q")
	clone := filepath.Join(t.TempDir(), "clone")
	repotest.Git(t, src, "clone", "-q", "--shared", src, clone)
	if _, err := os.Stat(filepath.Join(gitDir(clone), "objects", "info", "alternates")); err != nil {
		t.Fatal(err)
	}
	s := Open(gitDir(clone), gitDir(clone), false)
	checkAll(t, src, s)
}
