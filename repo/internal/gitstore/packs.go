// packs.go: pack files found through their .idx, read anew when an object is missing.

package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
)

// pack is one pack file and its index.
type pack struct {
	path string // the .pack
	idx  *idxfile.MemoryIndex
	f    *os.File           // the open pack, kept between reads
	pf   *packfile.Packfile // its reader, while f is open
}

// packFile is an open pack for go-git's reader, which wants a file that
// can lock; the store reads under its own mutex.
type packFile struct{ *os.File }

func (packFile) Lock() error   { return nil }
func (packFile) Unlock() error { return nil }

func (p *pack) close() error {
	if p.f == nil {
		return nil
	}
	err := p.f.Close()
	p.f, p.pf = nil, nil
	return err
}

// open returns the pack's reader, opening the file if needed.
func (s *Store) open(p *pack) (*packfile.Packfile, error) {
	if p.pf != nil {
		return p.pf, nil
	}
	f, err := os.Open(p.path)
	if err != nil {
		return nil, err
	}
	p.f = f
	p.pf = packfile.NewPackfileWithCache(p.idx, nil, packFile{f}, s.cached(), 0)
	return p.pf, nil
}

// packed reads h from the first pack that has it.
func (s *Store) packed(h plumbing.Hash) (plumbing.EncodedObject, error) {
	if !s.scanned {
		if err := s.rescan(); err != nil {
			return nil, err
		}
	}
	p := s.inPack(h)
	if p == nil {
		return nil, plumbing.ErrObjectNotFound
	}
	pf, err := s.open(p)
	if err != nil {
		return nil, fmt.Errorf("read object %s: %w", h, err)
	}
	obj, err := pf.Get(h)
	if !s.keep {
		p.close()
	}
	if err != nil {
		return nil, fmt.Errorf("read object %s from %s: %w", h, filepath.Base(p.path), err)
	}
	return obj, nil
}

// inPack returns the pack that has h, nil for none.
func (s *Store) inPack(h plumbing.Hash) *pack {
	if !s.scanned && s.rescan() != nil {
		return nil
	}
	for _, p := range s.packs {
		if ok, _ := p.idx.Contains(h); ok {
			return p
		}
	}
	return nil
}

// rescan reads the pack directories again: a pack seen before is kept
// (open, with its index), a new one's index is read, and one that is
// gone is dropped.
func (s *Store) rescan() error {
	old := map[string]*pack{}
	for _, p := range s.packs {
		old[p.path] = p
	}
	var packs []*pack
	for _, dir := range s.objectDirs() {
		names, err := os.ReadDir(filepath.Join(dir, "pack"))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		for _, n := range names {
			base, ok := strings.CutSuffix(n.Name(), ".idx")
			if !ok {
				continue
			}
			path := filepath.Join(dir, "pack", base+".pack")
			if p := old[path]; p != nil {
				packs = append(packs, p)
				delete(old, path)
				continue
			}
			if _, err := os.Stat(path); err != nil {
				continue // an index whose pack is not written yet, or gone
			}
			idx, err := readIndex(filepath.Join(dir, "pack", n.Name()))
			if err != nil {
				continue // being written, or broken: git skips it too
			}
			packs = append(packs, &pack{path: path, idx: idx})
		}
	}
	for _, p := range old {
		p.close()
	}
	s.packs, s.scanned = packs, true
	return nil
}

func readIndex(name string) (*idxfile.MemoryIndex, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	idx := idxfile.NewMemoryIndex()
	if err := idxfile.NewDecoder(bytes.NewReader(b)).Decode(idx); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return idx, nil
}

// withPrefix returns the pack's objects whose hash starts with prefix.
func (p *pack) withPrefix(prefix []byte) ([]plumbing.Hash, error) {
	var found []plumbing.Hash
	for first := 0; first < 256; first++ {
		if len(prefix) > 0 && first != int(prefix[0]) {
			continue
		}
		m := p.idx.FanoutMapping[first]
		if m < 0 || m >= len(p.idx.Names) {
			continue
		}
		names := p.idx.Names[m]
		for i := 0; i+hashLen <= len(names); i += hashLen {
			if bytes.HasPrefix(names[i:i+hashLen], prefix) {
				var h plumbing.Hash
				copy(h[:], names[i:i+hashLen])
				found = append(found, h)
			}
		}
	}
	return found, nil
}

// hashLen is the length of an object's hash in an index.
const hashLen = len(plumbing.Hash{})
