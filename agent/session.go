package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// Sessions keeps sessions as JSON files in one directory: <git dir>/pair/
// sessions, so that nothing appears in the working tree and nothing can be
// committed by accident.
type Sessions struct {
	Dir string
}

// Errors of the session store.
var (
	// ErrNoSession means there is no session by that name.
	ErrNoSession = errors.New("no such session")
	// ErrSessionVersion means the session was written by another version
	// of pair that this one cannot read.
	ErrSessionVersion = errors.New("session written by an incompatible version of pair")
	// ErrSessionBusy means another pair process is using the session.
	ErrSessionBusy = errors.New("the session is in use by another pair process")
	// ErrBadSessionName means a name that cannot be a session's.
	ErrBadSessionName = errors.New("a session name is letters, digits, '.', '_' and '-'")
)

var sessionName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`) })

// ValidName reports whether name can name a session.
func ValidName(name string) error {
	if !sessionName().MatchString(name) || strings.Contains(name, "..") {
		return fmt.Errorf("%w: %q", ErrBadSessionName, name)
	}
	return nil
}

func (s Sessions) path(name string) string { return filepath.Join(s.Dir, name+".json") }

// Save writes the state atomically: a temporary file, synced, renamed over
// the old one, and the directory synced. A killed process leaves the old
// session or the new one, never half of one.
func (s Sessions) Save(st *State) error {
	if err := ValidName(st.Session); err != nil {
		return err
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return fmt.Errorf("session directory: %w", err)
	}
	st.Version = StateVersion
	st.Updated = time.Now().UTC()
	b, err := json.MarshalIndent(st, "", " ")
	if err != nil {
		return fmt.Errorf("encode session: %w", err)
	}
	f, err := os.CreateTemp(s.Dir, "."+st.Session+".*.tmp")
	if err != nil {
		return fmt.Errorf("save session: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // a no-op once renamed
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("save session: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("save session: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("save session: %w", err)
	}
	if err := os.Rename(tmp, s.path(st.Session)); err != nil {
		return fmt.Errorf("save session: %w", err)
	}
	if d, err := os.Open(s.Dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// Load reads a session. A session of an older format version is read and
// brought up to date; a newer one is refused with ErrSessionVersion.
func (s Sessions) Load(name string) (*State, error) {
	if err := ValidName(name); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(s.path(name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrNoSession, name)
	}
	if err != nil {
		return nil, err
	}
	var head struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, fmt.Errorf("session %s: not a session file: %w", name, err)
	}
	switch {
	case head.Version > StateVersion:
		return nil, fmt.Errorf("session %s: %w: it has format version %d, this pair reads up to %d; use a newer pair", name, ErrSessionVersion, head.Version, StateVersion)
	case head.Version < 1:
		return nil, fmt.Errorf("session %s: %w: format version %d is unknown", name, ErrSessionVersion, head.Version)
	}
	st := &State{}
	if err := json.Unmarshal(b, st); err != nil {
		return nil, fmt.Errorf("session %s: %w", name, err)
	}
	if st.Session != name {
		return nil, fmt.Errorf("session %s: the file holds session %q", name, st.Session)
	}
	if st.Sent == nil {
		st.Sent = map[string]string{}
	}
	return st, nil
}

// SessionInfo describes a saved session for a listing.
type SessionInfo struct {
	Name    string    `json:"name"`
	Updated time.Time `json:"updated"`
	Pending bool      `json:"pending"`
	Model   string    `json:"model"`
	Mode    Mode      `json:"mode"`
	Request string    `json:"request"`
	Err     string    `json:"error,omitempty"` // why the file could not be read
}

// List returns the saved sessions, the latest activity first.
func (s Sessions) List() ([]SessionInfo, error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []SessionInfo
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || e.IsDir() || ValidName(name) != nil {
			continue
		}
		st, err := s.Load(name)
		if err != nil {
			info := SessionInfo{Name: name, Err: err.Error()}
			if fi, err := e.Info(); err == nil {
				info.Updated = fi.ModTime().UTC()
			}
			out = append(out, info)
			continue
		}
		out = append(out, SessionInfo{Name: name, Updated: st.Updated, Pending: st.Turn.Pending != nil, Model: st.Model, Mode: st.Mode, Request: st.Turn.Request})
	}
	slices.SortFunc(out, func(a, b SessionInfo) int { return b.Updated.Compare(a.Updated) })
	return out, nil
}

// Latest returns the name of the session with the latest activity, or, if
// pending is set, of the latest one waiting for a review.
func (s Sessions) Latest(pending bool) (string, error) {
	list, err := s.List()
	if err != nil {
		return "", err
	}
	for _, in := range list {
		if in.Err == "" && (!pending || in.Pending) {
			return in.Name, nil
		}
	}
	if pending {
		return "", fmt.Errorf("%w: no session is waiting for a review", ErrNoSession)
	}
	return "", fmt.Errorf("%w: there are no sessions yet", ErrNoSession)
}

// Lock takes the session for this process until unlock is called (or the
// process ends): two processes never work on one session at once, so a
// pending action cannot be decided and applied twice in parallel. It
// fails with ErrSessionBusy when another process holds it.
func (s Sessions) Lock(name string) (unlock func(), err error) {
	if err := ValidName(name); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("session directory: %w", err)
	}
	p := filepath.Join(s.Dir, name+".lock")
	f, err := lockFile(p)
	if errors.Is(err, errBusy) {
		return nil, fmt.Errorf("%w: %s", ErrSessionBusy, name)
	}
	if err != nil {
		return nil, fmt.Errorf("lock session %s: %w", name, err)
	}
	s.removeStaleLocks(name)
	// The file goes while it is still locked: a process that opened it
	// meanwhile finds, once it has the lock, that it is not the file at
	// the path any more, and starts again (see lockFile).
	return func() {
		_ = os.Remove(p)
		f.Close()
	}, nil
}

var errBusy = errors.New("busy")

// lockFile opens the lock file p, creating it, and locks it; errBusy when
// another process holds it. The file it locks is the one at p: a file
// removed by its last holder between the open and the lock is not.
func lockFile(p string) (*os.File, error) {
	for {
		f, err := os.OpenFile(p, os.O_CREATE|os.O_RDWR, 0o600)
		if err != nil {
			return nil, err
		}
		busy, err := tryLock(f)
		if err != nil || busy {
			f.Close()
			if busy {
				return nil, errBusy
			}
			return nil, err
		}
		held, err1 := f.Stat()
		atPath, err2 := os.Stat(p)
		if err1 == nil && err2 == nil && os.SameFile(held, atPath) {
			return f, nil
		}
		f.Close()
		if err1 != nil {
			return nil, err1
		}
		if err2 != nil && !errors.Is(err2, fs.ErrNotExist) {
			return nil, err2
		}
	}
}

// removeStaleLocks removes the lock files of other sessions that no
// process holds: those of processes that ended without removing them
// (killed, or of an older pair).
func (s Sessions) removeStaleLocks(except string) {
	entries, err := os.ReadDir(s.Dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".lock")
		if !ok || name == except || !e.Type().IsRegular() {
			continue
		}
		p := filepath.Join(s.Dir, e.Name())
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		if err != nil {
			continue
		}
		if busy, err := tryLock(f); err == nil && !busy {
			if held, err := f.Stat(); err == nil {
				if atPath, err := os.Stat(p); err == nil && os.SameFile(held, atPath) {
					_ = os.Remove(p)
				}
			}
		}
		f.Close()
	}
}

// Remove deletes a session.
func (s Sessions) Remove(name string) error {
	if err := ValidName(name); err != nil {
		return err
	}
	unlock, err := s.Lock(name)
	if err != nil {
		return err
	}
	defer unlock() // removes the lock file
	err = os.Remove(s.path(name))
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %s", ErrNoSession, name)
	}
	return err
}
