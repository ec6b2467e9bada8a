// journal.go: the crash journal: a write set recorded before it starts, rolled back or forward by Recover.

package repo

import (
	"bytes"
	"cmp"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pair-cli/pair/internal/proc"
)

// The journal makes a write set survive a crash (kill -9, power loss) of
// the process writing it. Write records every change in it before
// touching the tree: the target, whether it existed, its mode and a copy
// of its old content, the file of the journal directory that receives the
// new content, and hashes of both contents. The new content is renamed
// from there onto the target: no temporary file is ever in the working
// tree, unless the journal directory is on another file system than the
// tree (the rename fails with EXDEV). Then the new content is copied to a
// temporary file beside the target first, named in the journal before it
// can exist, and removed on every way out. The journal's state says how
// far the write got:
//
//	prepared         new copies may exist; no target is touched yet
//	committing       every new copy is complete; renames may have begun
//	rolling back     recovery chose to put the old contents back
//	rolling forward  recovery chose to finish the renames
//
// Each state is written atomically (temporary file, fsync, rename, fsync
// of the directory). Recovery (Tree.Recover, run by Open) rolls a
// prepared write set back, and a committing one forward when every new
// content is still at hand, back otherwise. It first records its choice,
// and every step it takes is safe to repeat, so a crash during recovery
// is recovered from the same way.
//
// The journal lives in <git dir>/pair/journal, or in <root>/.pair/journal
// outside a repository, which is removed again after each write set.

const (
	statePrepared       = "prepared"
	stateCommitting     = "committing"
	stateRollingBack    = "rolling back"
	stateRollingForward = "rolling forward"
	// stateWritten: every file is written, and ApplyPlans is committing
	// them; the journal is removed once the commit is made or refused.
	// Recovery finds it only when pair was killed in between, and reports
	// the files that are written but not committed.
	stateWritten = "written"
)

// ActionUncommitted is the RecoveryReport.Action for a write set that was
// written in full, and whose commit a crash stopped: its files are left
// written, and reported.
const ActionUncommitted = "written but not committed"

const (
	journalFile = "journal.json"
	lockFile    = "lock"
	// lockWait is how long Write and Recover wait for another pair
	// process to finish its write set.
	lockWait = 10 * time.Second
)

// ErrBusy is returned when another pair process keeps writing the same
// tree for longer than pair waits.
var ErrBusy = errors.New("another pair process is writing this tree")

// crashJournal is the tree's write journal: where it lives (journalHome),
// its lock, a write set's record saved as the write goes (saveJournal),
// and the recovery that rolls an interrupted set back or forward
// (recoverLocked, abandon). Tree.Write and Tree.Recover drive it.
type crashJournal struct {
	root *os.Root
	disk *disk
	// git says whether the tree is a repository's; top is its root and
	// gitDir its git directory.
	git         bool
	top, gitDir string
	// crashPoint is the crash tests' hook (see crash).
	crashPoint func(step string)
	// differ returns the files of a written set that differ from HEAD
	// (Tree.differFromHead).
	differ func(j *journal) []string
}

// crash calls the tree's crash hook, if any, at a step of Write or
// Recover that a crash could interrupt. Only the crash tests set one, to
// kill the process there.
func (cj *crashJournal) crash(step string) {
	if cj.crashPoint != nil {
		cj.crashPoint(step)
	}
}

// journal is the record of one write set.
type journal struct {
	State   string         `json:"state"`
	Changes []journalEntry `json:"changes"`
	// Dirs are the directories the write set creates, parents first.
	Dirs []string `json:"dirs,omitempty"`
}

// journalEntry is one change of a write set.
type journalEntry struct {
	Path    string      `json:"path"`
	Delete  bool        `json:"delete,omitempty"`
	Existed bool        `json:"existed"`
	OldMode fs.FileMode `json:"old_mode,omitempty"`
	OldHash string      `json:"old_hash,omitempty"`
	// OldCopy names the copy of the old content in the journal directory;
	// a roll-back renames it back onto the target.
	OldCopy string      `json:"old_copy,omitempty"`
	NewMode fs.FileMode `json:"new_mode,omitempty"`
	NewHash string      `json:"new_hash,omitempty"`
	// NewCopy names the file of the journal directory that receives the
	// new content, renamed onto the target.
	NewCopy string `json:"new_copy,omitempty"`
	// Temp and Restore are files of the tree beside the target, used only
	// where the journal directory is on another file system: the new
	// content (Temp) or the old one (Restore) is copied there, then
	// renamed onto the target. They are named before they can exist, so
	// that recovery removes them. (In a journal of a pair that kept no
	// NewCopy, Temp holds the new content.)
	Temp    string `json:"temp,omitempty"`
	Restore string `json:"restore,omitempty"`
	// OldLink and NewLink say that the old or the new content is a
	// symbolic link's target: the copies are links, the hashes are of
	// the targets.
	OldLink bool `json:"old_link,omitempty"`
	NewLink bool `json:"new_link,omitempty"`
}

// RecoveryReport says what Recover did with a write set that a crash
// interrupted.
type RecoveryReport struct {
	// Action is "rolled back" or "rolled forward", or empty when there
	// was nothing to recover.
	Action string
	// Paths are the files of the write set; for ActionUncommitted, those
	// that differ from HEAD.
	Paths []string
	// Conflicts are files of the set that held neither their old nor
	// their new content (changed by someone else since the crash); they
	// are left as they are.
	Conflicts []string
}

// journalHome returns the directory that holds the journal directory, and
// the journal directory's name in it.
func (cj *crashJournal) journalHome() (string, string) {
	if cj.git {
		return filepath.Join(cj.gitDir, "pair"), "journal"
	}
	return filepath.Join(cj.top, ".pair"), "journal"
}

// hasJournal reports whether there may be a journal to recover: the
// journal directory is removed after each write set, so if it exists it
// holds a journal, or files that a write killed early or late left. In a
// repository its parent (<git dir>/pair) also holds pair's sessions, so
// anything else in it counts (an empty parent too). Outside one, it is
// .pair in the working tree, which a killed write may leave empty: its
// presence is enough, so that recovery removes it.
func (cj *crashJournal) hasJournal() bool {
	if !cj.git {
		_, err := cj.root.Lstat(".pair")
		return err == nil
	}
	home, _ := cj.journalHome()
	entries, err := os.ReadDir(home)
	if err != nil {
		return false
	}
	// Anything but the sessions, the writer lock, the record of pair's
	// commits, the trust store of .pair.yml (internal/config's
	// trusted-config) and the scratch tree of verify is a write's, an
	// empty directory too.
	for _, e := range entries {
		if n := e.Name(); n != "sessions" && n != applyLockFile && n != recordFile && n != "trusted-config" && n != verifyDir {
			return true
		}
	}
	return len(entries) == 0
}

// StateDir returns the directory where pair keeps its own state for this
// tree (sessions): <git dir>/pair, or <root>/.pair outside a repository.
// Nothing in it is ever in the working tree of a repository.
func (t *Tree) StateDir() string {
	home, _ := t.journal.journalHome()
	return home
}

// openJournalDir creates the journal directory if needed and opens it.
func (cj *crashJournal) openJournalDir() (*os.Root, error) {
	home, name := cj.journalHome()
	if !cj.git {
		// Through the tree's root, so that a link named .pair cannot
		// lead the journal outside.
		if err := cj.root.MkdirAll(path.Join(".pair", name), 0o755); err != nil {
			return nil, fmt.Errorf("journal directory: %w", wrapEscape(".pair", err))
		}
		return cj.root.OpenRoot(path.Join(".pair", name))
	}
	if fi, err := os.Stat(cj.gitDir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("git directory %s: not found", cj.gitDir)
	}
	if err := os.MkdirAll(filepath.Join(home, name), 0o755); err != nil {
		return nil, fmt.Errorf("journal directory: %w", err)
	}
	return os.OpenRoot(filepath.Join(home, name))
}

// removeJournalDir removes the journal directory and its parent when
// they are empty.
func (cj *crashJournal) removeJournalDir() {
	home, name := cj.journalHome()
	if !cj.git {
		if cj.root.Remove(path.Join(".pair", name)) == nil {
			_ = cj.root.Remove(".pair")
		}
		return
	}
	// Not its parent, which holds the writer lock: removing it as
	// another process makes the journal directory in it would fail that
	// process's mkdir.
	_ = os.Remove(filepath.Join(home, name))
}

// treeLock is an exclusive lock on writing a tree, held by one process:
// the journal directory's lock file, created exclusively, holds the pid
// of the process that holds it. A lock whose process is gone is stale and
// taken over.
type treeLock struct {
	j     *crashJournal
	dir   *os.Root
	token string
}

// lock takes the tree's write lock, waiting up to lockWait for another
// process to release it.
func (cj *crashJournal) lock() (*treeLock, error) {
	token := fmt.Sprintf("%d %s\n", os.Getpid(), randomHex())
	deadline := time.Now().Add(lockWait)
	for {
		dir, err := cj.openJournalDir()
		if err != nil {
			return nil, err
		}
		ok, err := tryLock(dir, token)
		if ok {
			return &treeLock{j: cj, dir: dir, token: token}, nil
		}
		dir.Close()
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		// fs.ErrNotExist: the holder removed the directory as we opened it.
		if time.Now().After(deadline) {
			return nil, ErrBusy
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// tryLock creates the lock file, taking it over when it is stale.
func tryLock(dir *os.Root, token string) (bool, error) {
	f, err := dir.OpenFile(lockFile, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err == nil {
		_, werr := f.WriteString(token)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			_ = dir.Remove(lockFile)
			return false, werr
		}
		return true, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return false, err
	}
	held, err := dir.ReadFile(lockFile)
	if err != nil {
		return false, nil // released meanwhile: try again
	}
	pid, _, _ := strings.Cut(string(held), " ")
	if n, err := strconv.Atoi(pid); err == nil {
		if proc.Alive(n) {
			return false, nil
		}
	} else if fi, err := dir.Stat(lockFile); err != nil || time.Since(fi.ModTime()) < 2*time.Second {
		// Being written by the process that just created it; or
		// empty because that process died then, once old enough.
		return false, nil
	}
	// Stale. Move it aside before removing it, and make sure that what
	// was moved is what was judged stale: another process may have taken
	// the stale lock over in between.
	aside := lockFile + ".stale-" + randomHex()
	if dir.Rename(lockFile, aside) != nil {
		return false, nil
	}
	moved, err := dir.ReadFile(aside)
	if err == nil && !bytes.Equal(moved, held) {
		// A live lock: put it back.
		_ = dir.Link(aside, lockFile)
	}
	_ = dir.Remove(aside)
	return false, nil
}

// unlock releases the lock if this process still holds it, and removes
// the journal directory if it is empty.
func (l *treeLock) unlock() {
	if held, err := l.dir.ReadFile(lockFile); err == nil && string(held) == l.token {
		_ = l.dir.Remove(lockFile)
	}
	l.dir.Close()
	l.j.removeJournalDir()
}

// readJournal reads the journal, or returns nil when there is none.
func readJournal(dir *os.Root) (*journal, error) {
	b, err := dir.ReadFile(journalFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var j journal
	if err := json.Unmarshal(b, &j); err != nil {
		return nil, fmt.Errorf("journal %s: %w", journalFile, err)
	}
	return &j, nil
}

// saveJournal writes the journal atomically.
func (cj *crashJournal) saveJournal(dir *os.Root, j *journal) error {
	b, err := json.MarshalIndent(j, "", "\t")
	if err != nil {
		return err
	}
	tmp := journalFile + ".tmp"
	if err := cj.disk.writeIn(dir, tmp, b, 0o600); err != nil {
		_ = dir.Remove(tmp)
		return fmt.Errorf("write journal: %w", err)
	}
	if err := dir.Rename(tmp, journalFile); err != nil {
		return fmt.Errorf("write journal: %w", err)
	}
	return syncDir(dir, ".")
}

// clearJournal removes the journal, then every other file of the journal
// directory but the lock. Once the journal file is gone there is nothing
// to recover, so a crash in between leaves only files the next write
// removes.
func clearJournal(dir *os.Root) error {
	if err := dir.Remove(journalFile); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := syncDir(dir, "."); err != nil {
		return err
	}
	f, err := dir.Open(".")
	if err != nil {
		return err
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return err
	}
	for _, n := range names {
		if n != lockFile {
			_ = dir.Remove(n)
		}
	}
	return nil
}

// syncDir flushes a directory's entries (renames, removals) to disk.
// Windows cannot sync a directory, and needs not.
func syncDir(r *os.Root, dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	f, err := r.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func hashOf(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func randomHex() string {
	var b [6]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}

// tempName returns a new name for a temporary file beside target (used
// only across file systems, see moveIn).
func tempName(target string) string {
	return path.Join(path.Dir(target), ".pair-"+randomHex()+".tmp")
}

// Recover finishes or undoes a write set that a crash interrupted, if its
// journal is there: afterwards every file of the set holds entirely its
// old content or entirely its new one, all of them the same. Open calls
// it; it waits for another pair process that is writing the tree.
func (t *Tree) Recover() (RecoveryReport, error) {
	release, err := t.lockWrites()
	if err != nil {
		return RecoveryReport{}, err
	}
	defer release()
	l, err := t.journal.lock()
	if err != nil {
		return RecoveryReport{}, err
	}
	defer l.unlock()
	return t.journal.recoverLocked(l.dir)
}

// recoverLocked is Recover, with the lock held.
func (cj *crashJournal) recoverLocked(dir *os.Root) (RecoveryReport, error) {
	j, err := readJournal(dir)
	if err != nil {
		return RecoveryReport{}, err
	}
	if j == nil {
		// Killed before the journal was written, or as it was being
		// removed: only its own files may be left.
		return RecoveryReport{}, clearJournal(dir)
	}
	switch j.State {
	case statePrepared:
		j.State = stateRollingBack
	case stateCommitting:
		j.State = stateRollingBack
		if cj.canRollForward(dir, j) {
			j.State = stateRollingForward
		}
		if err := cj.saveJournal(dir, j); err != nil {
			return RecoveryReport{}, err
		}
		cj.crash("recover: decided")
	case stateRollingBack, stateRollingForward:
	case stateWritten:
		rep := RecoveryReport{Action: ActionUncommitted, Paths: cj.differ(j)}
		if len(rep.Paths) == 0 {
			rep = RecoveryReport{} // committed after all
		}
		return rep, clearJournal(dir)
	default:
		return RecoveryReport{}, fmt.Errorf("journal %s: unknown state %q", journalFile, j.State)
	}
	rep := RecoveryReport{Action: "rolled back"}
	for _, e := range j.Changes {
		rep.Paths = append(rep.Paths, e.Path)
	}
	if j.State == stateRollingForward {
		rep.Action = "rolled forward"
		rep.Conflicts, err = cj.rollForward(dir, j)
	} else {
		rep.Conflicts, err = cj.rollBack(dir, j)
	}
	if err != nil {
		return rep, fmt.Errorf("recover interrupted write (%s): %w", j.State, err)
	}
	cj.crash("recover: done")
	return rep, clearJournal(dir)
}

// abandon rolls back a write set that failed with cause, and returns
// cause with what is left of the set: nothing, once the roll-back is
// complete. The roll-back is recorded when it can be; a full disk may not
// let it, and it needs not be: the new copies go first, so that recovery
// after a crash finds the set prepared, or a new content missing, and
// rolls it back too.
func (cj *crashJournal) abandon(dir *os.Root, j *journal, cause error) error {
	j.State = stateRollingBack
	_ = cj.saveJournal(dir, j)
	conflicts, err := cj.rollBack(dir, j)
	var left []string // pair's temporary files in the tree
	for _, e := range j.Changes {
		for _, p := range []string{e.Temp, e.Restore} {
			if _, lerr := cj.root.Lstat(p); lerr == nil && p != "" {
				left = append(left, p)
			}
		}
	}
	var what []string
	if err != nil {
		var changed []string
		for _, e := range j.Changes {
			if s, serr := cj.disk.stateOf(e.Path); serr != nil || !s.isOld(e) {
				changed = append(changed, e.Path)
			}
		}
		what = append(what, fmt.Sprintf("rolling the write back failed too (%v), and %s %s not as %s: pair rolls the write back the next time it runs in this tree, from its journal in %s",
			err, strings.Join(changed, ", "), isOrAre(len(changed)), itOrThey(len(changed)), cj.journalShown()))
	}
	if len(conflicts) > 0 {
		what = append(what, "changed meanwhile, and left as they are: "+strings.Join(conflicts, ", "))
	}
	if len(left) > 0 {
		what = append(what, "pair's temporary files left in the working tree (remove them): "+strings.Join(left, ", "))
	}
	if err == nil && len(conflicts) == 0 {
		if cerr := clearJournal(dir); cerr != nil {
			what = append(what, fmt.Sprintf("its journal in %s could not be removed (%v)", cj.journalShown(), cerr))
		}
	}
	if len(what) == 0 {
		return fmt.Errorf("%w; nothing was changed", cause)
	}
	return fmt.Errorf("%w; %s", cause, strings.Join(what, "; "))
}

func isOrAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func itOrThey(n int) string {
	if n == 1 {
		return "it was"
	}
	return "they were"
}

// journalShown is the journal directory's name for a person: relative to
// the tree's root when it is inside.
func (cj *crashJournal) journalShown() string {
	home, name := cj.journalHome()
	p := filepath.Join(home, name)
	if rel, err := filepath.Rel(cj.top, p); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return p
}

// fileState is what a target holds now.
type fileState struct {
	exists  bool
	regular bool
	link    bool // a symbolic link; hash is of its target
	dir     bool
	mode    fs.FileMode
	hash    string
}

// stateIn is what the file p of r holds now.
func stateIn(r *os.Root, p string) (fileState, error) {
	fi, err := r.Lstat(p)
	if notExist(err) {
		return fileState{}, nil
	}
	if err != nil {
		return fileState{}, wrapEscape(p, err)
	}
	s := fileState{exists: true, dir: fi.IsDir(), mode: fi.Mode().Perm()}
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := r.Readlink(p)
		if err != nil {
			return fileState{}, wrapEscape(p, err)
		}
		s.link, s.hash = true, hashOf([]byte(target))
		return s, nil
	}
	if !fi.Mode().IsRegular() {
		return s, nil
	}
	b, err := r.ReadFile(p)
	if err != nil {
		return fileState{}, wrapEscape(p, err)
	}
	s.regular, s.hash = true, hashOf(b)
	return s, nil
}

func (s fileState) isOld(e journalEntry) bool {
	if !e.Existed {
		// Nothing, or a directory the set turns into the file.
		return !s.exists || s.dir
	}
	if e.OldLink {
		return s.link && s.hash == e.OldHash
	}
	return s.regular && s.hash == e.OldHash && s.mode == e.OldMode
}

func (s fileState) isNew(e journalEntry) bool {
	if e.Delete {
		// Gone, or a directory the set made in the file's place.
		return !s.exists || s.dir
	}
	return s.holdsNew(e)
}

// holdsNew reports whether the state is the entry's new content.
func (s fileState) holdsNew(e journalEntry) bool {
	if e.NewLink {
		return s.link && s.hash == e.NewHash
	}
	return s.regular && s.hash == e.NewHash && s.mode == e.NewMode
}

// newReady reports whether an entry's new copy in the journal directory
// dir (or, in an older journal, its temporary file in the tree) holds its
// new content.
func (cj *crashJournal) newReady(dir *os.Root, e journalEntry) bool {
	r, name := dir, e.NewCopy
	if name == "" {
		r, name = cj.root, e.Temp
	}
	if name == "" {
		return false
	}
	s, err := stateIn(r, name)
	return err == nil && s.holdsNew(e)
}

// placeNew renames an entry's new content onto its target.
func (cj *crashJournal) placeNew(dir *os.Root, e journalEntry) error {
	if e.NewCopy == "" {
		return wrapEscape(e.Path, cj.root.Rename(e.Temp, e.Path))
	}
	return cj.disk.moveIn(dir, e.NewCopy, e.Path, e.Temp)
}

// canRollForward reports whether every new content of the set is at
// hand: in place, or in its new copy. A file that someone changed since
// the crash (neither old nor new) is left alone either way.
func (cj *crashJournal) canRollForward(dir *os.Root, j *journal) bool {
	for _, e := range j.Changes {
		if e.Delete || cj.newReady(dir, e) {
			continue
		}
		s, err := cj.disk.stateOf(e.Path)
		if err != nil || s.isOld(e) && !s.isNew(e) {
			return false
		}
	}
	return true
}

// rollForward finishes the renames and deletions of a write set.
func (cj *crashJournal) rollForward(dir *os.Root, j *journal) (conflicts []string, err error) {
	// In the order write took: deletions, the directories, the new files.
	for _, deletes := range []bool{true, false} {
		if !deletes {
			if err := cj.disk.makeRoom(j); err != nil {
				return conflicts, err
			}
		}
		for i, e := range j.Changes {
			if e.Delete != deletes {
				continue
			}
			s, err := cj.disk.stateOf(e.Path)
			if err != nil {
				return conflicts, err
			}
			switch {
			case s.isNew(e):
			case e.Delete && s.isOld(e):
				if err := cj.root.Remove(e.Path); err != nil {
					return conflicts, wrapEscape(e.Path, err)
				}
			case !e.Delete && s.isOld(e) && cj.newReady(dir, e):
				// Not over a file someone changed since the crash.
				if err := cj.placeNew(dir, e); err != nil {
					return conflicts, err
				}
			default:
				conflicts = append(conflicts, e.Path)
			}
			cj.crash("recover: forward " + strconv.Itoa(i))
		}
	}
	for _, e := range j.Changes {
		cj.disk.removeTemp(e.Temp)
		cj.disk.removeTemp(e.Restore)
		if e.Delete {
			cj.disk.removeEmptyDirs(path.Dir(e.Path))
		}
	}
	cj.disk.syncDirs(j)
	return conflicts, nil
}

// rollBack puts every file of a write set back as it was, and removes the
// temporary files and directories the set made. The new copies go first:
// that frees the space the old contents may need on another file system,
// and a crash from then on finds a new content missing, and rolls back.
func (cj *crashJournal) rollBack(dir *os.Root, j *journal) (conflicts []string, err error) {
	for _, e := range j.Changes {
		if e.NewCopy != "" {
			_ = dir.Remove(e.NewCopy)
		}
		cj.disk.removeTemp(e.Temp)
	}
	// The new files go first, then the directories made for them, then
	// the old files come back: a directory that was a file is a file
	// again, and the reverse.
	back := func(existed bool) error {
		for i := len(j.Changes) - 1; i >= 0; i-- {
			e := j.Changes[i]
			if e.Existed != existed {
				continue
			}
			s, err := cj.disk.stateOf(e.Path)
			if err != nil {
				return err
			}
			switch {
			case s.isOld(e):
			case !s.isNew(e) && !(s.exists && !s.regular && slices.Contains(j.Dirs, e.Path)):
				conflicts = append(conflicts, e.Path)
			case !e.Existed:
				if s.regular || s.link {
					if err := cj.root.Remove(e.Path); err != nil {
						return wrapEscape(e.Path, err)
					}
				}
			default:
				if err := cj.restore(dir, e); err != nil {
					return err
				}
			}
			cj.disk.removeTemp(e.Restore)
			cj.crash("recover: back " + strconv.Itoa(i))
		}
		return nil
	}
	if err := back(false); err != nil {
		return conflicts, err
	}
	for i := len(j.Dirs) - 1; i >= 0; i-- {
		// Only a directory: where the set deletes a file to make one, the
		// file may still be there.
		if fi, err := cj.root.Lstat(j.Dirs[i]); err == nil && fi.IsDir() {
			_ = cj.root.Remove(j.Dirs[i]) // fails unless empty
		}
	}
	if err := back(true); err != nil {
		return conflicts, err
	}
	cj.disk.syncDirs(j)
	return conflicts, nil
}

// restore puts an entry's old content back: the journal's copy is
// renamed onto the target, which needs no space. Once it is, the target
// holds its old content, so that a repeated roll-back leaves it.
func (cj *crashJournal) restore(dir *os.Root, e journalEntry) error {
	old, link, err := cj.disk.readCopy(dir, e.OldCopy)
	if err != nil || link != e.OldLink {
		return fmt.Errorf("%s: old content: %w", e.Path, cmp.Or(err, errors.New("the journal's copy is of another kind")))
	}
	if hashOf(old) != e.OldHash {
		return fmt.Errorf("%s: the journal's copy of the old content is damaged", e.Path)
	}
	// A deletion may have removed the directory as it became empty.
	if _, err := cj.disk.mkdirs(path.Dir(e.Path)); err != nil {
		return err
	}
	// The old mode, made durable as the content is (a link has no mode
	// of its own).
	if !e.OldLink {
		err = restoreMode(dir, e)
	}
	if err != nil {
		return pathErr("restore", e.Path, err)
	}
	if err := cj.disk.moveIn(dir, e.OldCopy, e.Path, e.Restore); err != nil {
		return fmt.Errorf("put back the old %s: %w", e.Path, err)
	}
	return nil
}

// restoreMode gives an entry's old copy its old mode, made durable as
// the content is.
func restoreMode(dir *os.Root, e journalEntry) error {
	f, err := dir.Open(e.OldCopy)
	if err != nil {
		return err
	}
	defer f.Close()
	err = f.Chmod(e.OldMode)
	if serr := f.Sync(); err == nil {
		err = serr
	}
	return err
}
