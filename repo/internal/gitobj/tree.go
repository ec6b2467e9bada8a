package gitobj

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// TreeEntry is one entry of a tree: a file, a symbolic link, a
// submodule's commit or a subtree.
type TreeEntry struct {
	Name string
	Mode filemode.FileMode
	Hash plumbing.Hash
}

// Tree is a tree object: its entries in git's order.
type Tree struct {
	Hash    plumbing.Hash // the object's hash when read from storage
	Entries []TreeEntry
}

// DecodeTree reads an encoded tree. Modes are made canonical as git does
// when it reads a tree into its index (100664 is a regular file, any
// other type a submodule), so a tree written back is one git would write.
func DecodeTree(b []byte) (*Tree, error) {
	t := &Tree{}
	for len(b) > 0 {
		sp := bytes.IndexByte(b, ' ')
		if sp < 0 {
			return nil, fmt.Errorf("%w: tree entry without a mode", ErrMalformed)
		}
		m, err := strconv.ParseUint(string(b[:sp]), 8, 32)
		if err != nil || sp == 0 {
			return nil, fmt.Errorf("%w: tree entry mode %q", ErrMalformed, b[:sp])
		}
		b = b[sp+1:]
		nul := bytes.IndexByte(b, 0)
		if nul < 0 {
			return nil, fmt.Errorf("%w: tree entry name without its end", ErrMalformed)
		}
		if nul == 0 {
			return nil, fmt.Errorf("%w: tree entry without a name", ErrMalformed)
		}
		e := TreeEntry{Name: string(b[:nul]), Mode: canonicalMode(filemode.FileMode(m))}
		b = b[nul+1:]
		if len(b) < len(e.Hash) {
			return nil, fmt.Errorf("%w: tree entry %q has a truncated hash", ErrMalformed, e.Name)
		}
		copy(e.Hash[:], b)
		b = b[len(e.Hash):]
		t.Entries = append(t.Entries, e)
	}
	return t, nil
}

// canonicalMode is the mode git keeps for a mode read from a tree.
func canonicalMode(m filemode.FileMode) filemode.FileMode {
	switch m & 0o170000 {
	case 0o040000:
		return filemode.Dir
	case 0o100000:
		if m&0o111 != 0 {
			return filemode.Executable
		}
		return filemode.Regular
	case 0o120000:
		return filemode.Symlink
	}
	return filemode.Submodule
}

// sortName is the name git sorts an entry by: a directory's as if it
// ended in "/".
func sortName(e TreeEntry) string {
	if e.Mode == filemode.Dir {
		return e.Name + "/"
	}
	return e.Name
}

// compareEntries orders entries as git does in a tree.
func compareEntries(a, b TreeEntry) int {
	return strings.Compare(sortName(a), sortName(b))
}

// EncodeTree returns the encoding of a tree holding entries (in any
// order: they are written in git's). It refuses what git fsck would: an
// empty name, one with "/" or NUL, and two entries of the same name.
func EncodeTree(entries []TreeEntry) ([]byte, error) {
	sorted := slices.Clone(entries)
	slices.SortStableFunc(sorted, compareEntries)
	seen := make(map[string]bool, len(sorted))
	var b bytes.Buffer
	for _, e := range sorted {
		if e.Name == "" || strings.ContainsAny(e.Name, "/\x00") {
			return nil, fmt.Errorf("%w: tree entry name %q", ErrMalformed, e.Name)
		}
		if seen[e.Name] {
			return nil, fmt.Errorf("%w: two tree entries named %q", ErrMalformed, e.Name)
		}
		seen[e.Name] = true
		b.WriteString(strconv.FormatUint(uint64(e.Mode), 8))
		b.WriteByte(' ')
		b.WriteString(e.Name)
		b.WriteByte(0)
		b.Write(e.Hash[:])
	}
	return b.Bytes(), nil
}

// Entry returns the entry called name, if the tree has one.
func (t *Tree) Entry(name string) (TreeEntry, bool) {
	for _, e := range t.Entries {
		if e.Name == name {
			return e, true
		}
	}
	return TreeEntry{}, false
}
