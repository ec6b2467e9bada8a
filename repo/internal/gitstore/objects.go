// objects.go: the object store: loose objects read and written, packed ones read, by hash.

package gitstore

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/format/objfile"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Store is one repository's objects and refs. Its methods are safe for
// concurrent use.
type Store struct {
	gitDir    string // the worktree's git directory: HEAD and its own refs
	commonDir string // objects, refs and packed-refs
	keep      bool   // keep pack files open between reads

	mu      sync.Mutex
	cache   cache.Object
	dirs    []string // objects directories: the repository's, then its alternates
	packs   []*pack
	scanned bool // packs lists the pack directories as last read
}

// Open returns the store of the repository whose git directory is gitDir
// and common directory commonDir (the same but for a linked worktree).
// With keepOpen, pack files stay open between reads until Close, which
// makes reading many objects faster; otherwise each read opens the pack
// it needs and closes it again.
func Open(gitDir, commonDir string, keepOpen bool) *Store {
	return &Store{gitDir: gitDir, commonDir: commonDir, keep: keepOpen}
}

// Close closes the pack files kept open.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for _, p := range s.packs {
		errs = append(errs, p.close())
	}
	return errors.Join(errs...)
}

// objectDirs returns the objects directories, read once: the
// repository's, then those objects/info/alternates names, recursively
// (as git does, to a depth of five).
func (s *Store) objectDirs() []string {
	if s.dirs == nil {
		s.dirs = addAlternates(nil, filepath.Join(s.commonDir, "objects"), 0)
	}
	return s.dirs
}

func addAlternates(dirs []string, dir string, depth int) []string {
	for _, d := range dirs {
		if d == dir {
			return dirs
		}
	}
	dirs = append(dirs, dir)
	if depth >= 5 {
		return dirs
	}
	b, err := os.ReadFile(filepath.Join(dir, "info", "alternates"))
	if err != nil {
		return dirs
	}
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSuffix(l, "\r")
		if l == "" || l[0] == '#' {
			continue
		}
		if !filepath.IsAbs(l) {
			l = filepath.Join(dir, l)
		}
		dirs = addAlternates(dirs, filepath.Clean(l), depth+1)
	}
	return dirs
}

func (s *Store) cached() cache.Object {
	if s.cache == nil {
		s.cache = cache.NewObjectLRUDefault()
	}
	return s.cache
}

// NewEncodedObject returns an empty object to fill and store with
// SetEncodedObject.
func (s *Store) NewEncodedObject() plumbing.EncodedObject { return &plumbing.MemoryObject{} }

// EncodedObject returns the object h of type typ (plumbing.AnyObject for
// any): packed or loose, in the repository or an alternate. A missing
// object, or one of another type, is plumbing.ErrObjectNotFound.
func (s *Store) EncodedObject(typ plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	obj, err := s.object(h)
	if err != nil {
		return nil, err
	}
	if typ != plumbing.AnyObject && obj.Type() != typ {
		return nil, plumbing.ErrObjectNotFound
	}
	return obj, nil
}

// object finds h as git does: in the packs, loose, then in the packs
// again after reading the pack directories anew, for a git gc or repack
// that ran since they were read may have packed and pruned it.
func (s *Store) object(h plumbing.Hash) (plumbing.EncodedObject, error) {
	if obj, ok := s.cached().Get(h); ok {
		return obj, nil
	}
	obj, err := s.packed(h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		obj, err = s.loose(h)
	}
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		if err = s.rescan(); err == nil {
			obj, err = s.packed(h)
		}
	}
	if err != nil {
		return nil, err
	}
	s.cached().Put(obj)
	return obj, nil
}

// loosePath is where the object h is stored loose in the objects
// directory dir.
func loosePath(dir string, h plumbing.Hash) string {
	hex := h.String()
	return filepath.Join(dir, hex[:2], hex[2:])
}

// loose reads the loose object h.
func (s *Store) loose(h plumbing.Hash) (plumbing.EncodedObject, error) {
	for _, dir := range s.objectDirs() {
		f, err := os.Open(loosePath(dir, h))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		obj, err := readLoose(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("read object %s: %w", h, err)
		}
		return obj, nil
	}
	return nil, plumbing.ErrObjectNotFound
}

func readLoose(f io.Reader) (plumbing.EncodedObject, error) {
	r, err := objfile.NewReader(f)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	typ, size, err := r.Header()
	if err != nil {
		return nil, err
	}
	content, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if int64(len(content)) != size {
		return nil, fmt.Errorf("object is %d bytes, its header says %d", len(content), size)
	}
	obj := &plumbing.MemoryObject{}
	obj.SetType(typ)
	_, err = obj.Write(content)
	return obj, err
}

// HasEncodedObject is nil when the object h is stored, else
// plumbing.ErrObjectNotFound.
func (s *Store) HasEncodedObject(h plumbing.Hash) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.has(h) {
		return nil
	}
	return plumbing.ErrObjectNotFound
}

func (s *Store) has(h plumbing.Hash) bool {
	if _, ok := s.cached().Get(h); ok {
		return true
	}
	if s.inPack(h) != nil {
		return true
	}
	for _, dir := range s.objectDirs() {
		if _, err := os.Lstat(loosePath(dir, h)); err == nil {
			return true
		}
	}
	return s.rescan() == nil && s.inPack(h) != nil
}

// EncodedObjectSize returns the size of the object h's content.
func (s *Store) EncodedObjectSize(h plumbing.Hash) (int64, error) {
	obj, err := s.EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		return 0, err
	}
	return obj.Size(), nil
}

// SetEncodedObject stores obj as a loose object, as git writes one: its
// zlib stream written to a temporary file beside it, made read-only, then
// renamed into place. An object stored already is not written again.
func (s *Store) SetEncodedObject(obj plumbing.EncodedObject) (plumbing.Hash, error) {
	rd, err := obj.Reader()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	content, err := io.ReadAll(rd)
	rd.Close()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	h := plumbing.ComputeHash(obj.Type(), content)
	s.mu.Lock()
	defer s.mu.Unlock()
	dir := filepath.Join(s.commonDir, "objects")
	p := loosePath(dir, h)
	if _, err := os.Lstat(p); err == nil {
		now := time.Now()
		_ = os.Chtimes(p, now, now) // git freshens it, for git gc's grace period
		return h, nil
	}
	if s.inPack(h) != nil {
		return h, nil
	}
	if err := writeLoose(p, obj.Type(), content); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("write object %s: %w", h, err)
	}
	return h, nil
}

func writeLoose(p string, typ plumbing.ObjectType, content []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), "tmp_obj_")
	if err != nil {
		return err
	}
	tmp := f.Name()
	w := objfile.NewWriter(f)
	err = w.WriteHeader(typ, int64(len(content)))
	if err == nil {
		_, err = io.Copy(w, bytes.NewReader(content))
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o444)
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// HashesWithPrefix returns the stored objects whose hash starts with the
// bytes prefix, loose or packed (an object may come twice).
func (s *Store) HashesWithPrefix(prefix []byte) ([]plumbing.Hash, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.rescan(); err != nil {
		return nil, err
	}
	var found []plumbing.Hash
	if len(prefix) > 0 {
		hexPrefix := hex.EncodeToString(prefix)
		for _, dir := range s.objectDirs() {
			names, err := os.ReadDir(filepath.Join(dir, hexPrefix[:2]))
			if err != nil {
				continue
			}
			for _, n := range names {
				if len(n.Name()) == 38 && strings.HasPrefix(n.Name(), hexPrefix[2:]) {
					if _, err := hex.DecodeString(n.Name()); err == nil {
						found = append(found, plumbing.NewHash(hexPrefix[:2]+n.Name()))
					}
				}
			}
		}
	}
	for _, p := range s.packs {
		hs, err := p.withPrefix(prefix)
		if err != nil {
			return nil, err
		}
		found = append(found, hs...)
	}
	return found, nil
}

// IterEncodedObjects is not supported: pair never lists every object.
func (s *Store) IterEncodedObjects(plumbing.ObjectType) (storer.EncodedObjectIter, error) {
	return nil, errors.ErrUnsupported
}

// AddAlternate is not supported: pair never adds an alternate.
func (s *Store) AddAlternate(string) error { return errors.ErrUnsupported }

var _ storer.EncodedObjectStorer = (*Store)(nil)
