// refs.go: refs read (loose, then packed-refs) and a ref moved under its lock file, as git does.

package gitstore

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// ErrRefChanged is returned when a ref to move no longer names the
// commit the caller read: another process moved it meanwhile.
var ErrRefChanged = errors.New("reference has changed concurrently")

// ErrRefName is returned for a ref name that git would refuse.
var ErrRefName = errors.New("invalid reference name")

// maxSymrefDepth is how many symbolic refs git follows before it gives
// up.
const maxSymrefDepth = 5

// validRefName reports whether git accepts name as a ref to read or
// write: HEAD-like names in capitals ("HEAD", "ORIG_HEAD"), or a path
// under refs/ whose components do not start with a dot or end in
// ".lock", without "..", control characters, or any of ` ~^:?*[\`.
func validRefName(name string) bool {
	if !strings.HasPrefix(name, "refs/") {
		for _, c := range name {
			if (c < 'A' || c > 'Z') && c != '_' {
				return false
			}
		}
		return name != ""
	}
	if strings.Contains(name, "..") || strings.Contains(name, "@{") || strings.HasSuffix(name, ".") {
		return false
	}
	for _, comp := range strings.Split(name, "/") {
		if comp == "" || comp[0] == '.' || strings.HasSuffix(comp, ".lock") {
			return false
		}
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < ' ' || c == 0x7f || strings.IndexByte(" ~^:?*[\\", c) >= 0 {
			return false
		}
	}
	return true
}

// refPath is the file of a loose ref: a worktree's own refs (HEAD and
// the other names outside refs/, refs/bisect, refs/worktree,
// refs/rewritten) in its git directory, the others in the common one.
func (s *Store) refPath(name string) string {
	dir := s.commonDir
	if !strings.HasPrefix(name, "refs/") || strings.HasPrefix(name, "refs/bisect/") ||
		strings.HasPrefix(name, "refs/worktree/") || strings.HasPrefix(name, "refs/rewritten/") {
		dir = s.gitDir
	}
	return filepath.Join(dir, filepath.FromSlash(name))
}

// Reference returns the ref name as stored, a symbolic ref not followed;
// plumbing.ErrReferenceNotFound when there is none.
func (s *Store) Reference(name plumbing.ReferenceName) (*plumbing.Reference, error) {
	if !validRefName(string(name)) {
		return nil, fmt.Errorf("%w: %q", ErrRefName, name)
	}
	ref, err := s.looseRef(string(name))
	if !errors.Is(err, plumbing.ErrReferenceNotFound) || !strings.HasPrefix(string(name), "refs/") {
		return ref, err
	}
	packed, err := s.packedRefs()
	if err != nil {
		return nil, err
	}
	if h, ok := packed[string(name)]; ok {
		return plumbing.NewHashReference(name, h), nil
	}
	return nil, plumbing.ErrReferenceNotFound
}

// looseRef reads a loose ref's file.
func (s *Store) looseRef(name string) (*plumbing.Reference, error) {
	p := s.refPath(name)
	b, err := os.ReadFile(p)
	if err != nil && (errors.Is(err, fs.ErrNotExist) || notFile(p)) {
		return nil, plumbing.ErrReferenceNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read ref %s: %w", name, err)
	}
	return parseRef(name, b)
}

// notFile reports a path that is a directory (refs/heads asked for as a
// ref) or under a file (refs/heads/a/b when refs/heads/a is a ref).
func notFile(p string) bool {
	fi, err := os.Stat(p)
	return err != nil || fi.IsDir()
}

// parseRef parses a loose ref's content: "ref: <name>" or a hash.
func parseRef(name string, b []byte) (*plumbing.Reference, error) {
	line := strings.TrimRight(string(b), " \t\r\n")
	if target, ok := strings.CutPrefix(line, "ref:"); ok {
		target = strings.TrimLeft(target, " \t")
		if !validRefName(target) {
			return nil, fmt.Errorf("ref %s: %w: %q", name, ErrRefName, target)
		}
		return plumbing.NewSymbolicReference(plumbing.ReferenceName(name), plumbing.ReferenceName(target)), nil
	}
	if h, ok := parseHash(line); ok {
		return plumbing.NewHashReference(plumbing.ReferenceName(name), h), nil
	}
	return nil, fmt.Errorf("ref %s: not a hash or a symbolic ref: %q", name, line)
}

// parseHash parses a full hexadecimal object name; git reads what
// follows it on the line as a comment.
func parseHash(s string) (plumbing.Hash, bool) {
	const n = 2 * hashLen
	if len(s) < n || (len(s) > n && s[n] != ' ' && s[n] != '\t') {
		return plumbing.ZeroHash, false
	}
	for i := 0; i < n; i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return plumbing.ZeroHash, false
		}
	}
	return plumbing.NewHash(s[:n]), true
}

// packedRefs reads packed-refs: each ref's hash by name (peeled lines
// left out).
func (s *Store) packedRefs() (map[string]plumbing.Hash, error) {
	b, err := os.ReadFile(filepath.Join(s.commonDir, "packed-refs"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read packed-refs: %w", err)
	}
	refs := map[string]plumbing.Hash{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := strings.TrimSuffix(sc.Text(), "\r")
		if l == "" || l[0] == '#' || l[0] == '^' {
			continue
		}
		hex, name, ok := strings.Cut(l, " ")
		h, okHash := parseHash(hex)
		if !ok || !okHash || !validRefName(name) {
			return nil, fmt.Errorf("packed-refs: unexpected line %q", l)
		}
		refs[name] = h
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read packed-refs: %w", err)
	}
	return refs, nil
}

// Resolve follows name through its symbolic refs to a hash; the ref
// returned is the last one, which names the hash. A symbolic ref to no
// ref is plumbing.ErrReferenceNotFound.
func (s *Store) Resolve(name plumbing.ReferenceName) (*plumbing.Reference, error) {
	for range maxSymrefDepth + 1 {
		ref, err := s.Reference(name)
		if err != nil {
			return nil, err
		}
		if ref.Type() != plumbing.SymbolicReference {
			return ref, nil
		}
		name = ref.Target()
	}
	return nil, fmt.Errorf("ref %s: symbolic refs nested too deep", name)
}

// Refs returns the refs under prefix (as "refs/remotes/"), loose ones
// hiding packed ones of the same name, sorted by name.
func (s *Store) Refs(prefix string) ([]*plumbing.Reference, error) {
	byName := map[string]*plumbing.Reference{}
	packed, err := s.packedRefs()
	if err != nil {
		return nil, err
	}
	for name, h := range packed {
		if strings.HasPrefix(name, prefix) {
			byName[name] = plumbing.NewHashReference(plumbing.ReferenceName(name), h)
		}
	}
	root := filepath.Join(s.commonDir, "refs")
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(s.commonDir, p)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		if !strings.HasPrefix(name, prefix) || !validRefName(name) {
			return nil
		}
		ref, err := s.looseRef(name)
		if err != nil {
			return nil // a broken ref: git warns and goes on
		}
		byName[name] = ref
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list refs: %w", err)
	}
	refs := make([]*plumbing.Reference, 0, len(byName))
	for _, r := range byName {
		refs = append(refs, r)
	}
	sort.Slice(refs, func(i, j int) bool { return refs[i].Name() < refs[j].Name() })
	return refs, nil
}

// SetRef points the ref name at h when it still names old, as git
// update-ref <name> <h> <old> does: under name.lock, created exclusively,
// the ref is read again and must be old (or absent when old is zero),
// then the lock holding the new hash is renamed over the ref. A lock
// held by another process is an error, as it is for git;
// ErrRefChanged when the ref moved.
func (s *Store) SetRef(name plumbing.ReferenceName, h, old plumbing.Hash) error {
	if !validRefName(string(name)) {
		return fmt.Errorf("%w: %q", ErrRefName, name)
	}
	p := s.refPath(string(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
		return err
	}
	lock := p + ".lock"
	f, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("unable to create %s: another git process seems to be running in this repository: %w", lock, err)
	}
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			f.Close()
			os.Remove(lock)
		}
	}()
	cur, err := s.Reference(name)
	switch {
	case errors.Is(err, plumbing.ErrReferenceNotFound):
		if !old.IsZero() {
			return fmt.Errorf("%w: %s is gone, it was %s", ErrRefChanged, name, old)
		}
	case err != nil:
		return err
	case cur.Type() != plumbing.HashReference:
		return fmt.Errorf("%s is a symbolic ref to %s: %w", name, cur.Target(), ErrRefChanged)
	case old.IsZero():
		return fmt.Errorf("%w: %s was made meanwhile, at %s", ErrRefChanged, name, cur.Hash())
	case cur.Hash() != old:
		return fmt.Errorf("%w: %s is %s, it was %s", ErrRefChanged, name, cur.Hash(), old)
	}
	if _, err := f.WriteString(h.String() + "\n"); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	done = true
	if err := os.Rename(lock, p); err != nil {
		os.Remove(lock)
		return err
	}
	return nil
}
