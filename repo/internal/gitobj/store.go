package gitobj

import (
	"fmt"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// ReadObject returns the content of the object h of type typ; a missing
// object (or one of another type) is plumbing.ErrObjectNotFound.
func ReadObject(s storer.EncodedObjectStorer, typ plumbing.ObjectType, h plumbing.Hash) ([]byte, error) {
	obj, err := s.EncodedObject(typ, h)
	if err != nil {
		return nil, err
	}
	rd, err := obj.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return io.ReadAll(rd)
}

// WriteObject stores content as an object of type typ and returns its
// hash.
func WriteObject(s storer.EncodedObjectStorer, typ plumbing.ObjectType, content []byte) (plumbing.Hash, error) {
	obj := s.NewEncodedObject()
	obj.SetType(typ)
	obj.SetSize(int64(len(content)))
	w, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := w.Write(content); err != nil {
		w.Close()
		return plumbing.ZeroHash, err
	}
	if err := w.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	return s.SetEncodedObject(obj)
}

// ReadBlob returns a blob's content.
func ReadBlob(s storer.EncodedObjectStorer, h plumbing.Hash) ([]byte, error) {
	return ReadObject(s, plumbing.BlobObject, h)
}

// ReadCommit reads the commit h.
func ReadCommit(s storer.EncodedObjectStorer, h plumbing.Hash) (*Commit, error) {
	b, err := ReadObject(s, plumbing.CommitObject, h)
	if err != nil {
		return nil, err
	}
	c, err := DecodeCommit(b)
	if err != nil {
		return nil, fmt.Errorf("commit %s: %w", h, err)
	}
	c.Hash = h
	return c, nil
}

// WriteCommit stores a commit and returns its hash.
func WriteCommit(s storer.EncodedObjectStorer, c *Commit) (plumbing.Hash, error) {
	return WriteObject(s, plumbing.CommitObject, c.Encode())
}

// ReadTree reads the tree h.
func ReadTree(s storer.EncodedObjectStorer, h plumbing.Hash) (*Tree, error) {
	b, err := ReadObject(s, plumbing.TreeObject, h)
	if err != nil {
		return nil, err
	}
	t, err := DecodeTree(b)
	if err != nil {
		return nil, fmt.Errorf("tree %s: %w", h, err)
	}
	t.Hash = h
	return t, nil
}

// WriteTree stores a tree of entries (in any order) and returns its hash.
func WriteTree(s storer.EncodedObjectStorer, entries []TreeEntry) (plumbing.Hash, error) {
	b, err := EncodeTree(entries)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return WriteObject(s, plumbing.TreeObject, b)
}
