package gitobj

import (
	"bytes"
	"slices"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// FuzzDecodeCommit: decoding never panics, and a commit that decodes
// encodes to bytes that decode to the same commit and encode the same.
func FuzzDecodeCommit(f *testing.F) {
	for _, raw := range rawCommits {
		f.Add([]byte(raw))
	}
	f.Add([]byte("tree x"))
	f.Add([]byte("gpgsig\n a\n \n b\n\nmsg"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := DecodeCommit(b)
		if err != nil {
			return
		}
		_, _, _, _, _ = c.Tree(), c.Parents(), c.Author().String(), c.Committer().String(), c.Encoding()
		enc := c.Encode()
		c2, err := DecodeCommit(enc)
		if err != nil {
			t.Fatalf("encoding %q of %q does not decode: %v", enc, b, err)
		}
		if !slices.Equal(c.Headers, c2.Headers) || c.Message != c2.Message {
			t.Fatalf("%q decodes as %+v, its encoding %q as %+v", b, c, enc, c2)
		}
		if enc2 := c2.Encode(); !bytes.Equal(enc, enc2) {
			t.Fatalf("encodings differ: %q and %q", enc, enc2)
		}
		if p := c.Payload(); len(p) > len(enc) {
			t.Fatalf("payload %q longer than the commit %q", p, enc)
		}
	})
}

// FuzzDecodeTree: decoding never panics, and a tree that decodes and
// encodes decodes to its entries in git's order and encodes the same.
func FuzzDecodeTree(f *testing.F) {
	var h plumbing.Hash
	f.Add([]byte("100644 a\x00" + string(h[:]) + "40000 a\x00" + string(h[:])))
	f.Add([]byte("40000 a\x00" + string(h[:]) + "100644 a.b\x00" + string(h[:]) + "120000 a-\x00" + string(h[:]) + "160000 a0\x00" + string(h[:])))
	f.Add([]byte("100664 x\x00" + string(h[:])))
	f.Fuzz(func(t *testing.T, b []byte) {
		tr, err := DecodeTree(b)
		if err != nil {
			return
		}
		enc, err := EncodeTree(tr.Entries)
		if err != nil {
			return // a name no tree may hold, or a name twice
		}
		tr2, err := DecodeTree(enc)
		if err != nil {
			t.Fatalf("encoding %q of %q does not decode: %v", enc, b, err)
		}
		want := slices.Clone(tr.Entries)
		slices.SortStableFunc(want, compareEntries)
		if !slices.Equal(want, tr2.Entries) {
			t.Fatalf("%q decodes as %v, its encoding as %v", b, want, tr2.Entries)
		}
		if !slices.IsSortedFunc(tr2.Entries, compareEntries) {
			t.Fatalf("entries out of git's order: %v", tr2.Entries)
		}
		for _, e := range tr2.Entries {
			switch e.Mode {
			case filemode.Dir, filemode.Regular, filemode.Executable, filemode.Symlink, filemode.Submodule:
			default:
				t.Fatalf("mode %v is not one git writes", e.Mode)
			}
		}
		if enc2, err := EncodeTree(tr2.Entries); err != nil || !bytes.Equal(enc, enc2) {
			t.Fatalf("encodings differ: %q and %q (%v)", enc, enc2, err)
		}
	})
}
