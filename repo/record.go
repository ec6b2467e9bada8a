// record.go: the record of the commits this pair made, so Log and Undo can tell them from copies.

package repo

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/repo/internal/gitobj"
)

// The record of pair's own commits: <common dir>/pair/commits, shared by
// the linked worktrees, never cloned or fetched. Each line is the id of a
// commit this pair made and the digest of its trailers (audit.Record's
// Digest), written once, right after the commit, by one append. log and
// undo believe a commit's trailers only when its line is there: trailers
// are text anyone can write, in a commit pulled, applied with git am or
// made by hand.

const (
	recordDir  = "pair"
	recordFile = "commits"
	// recordLimit bounds what is read of the record: its last
	// recordLimit bytes, the newest commits (about 80,000 of them).
	recordLimit = 8 << 20
	// recordLine is a line's length: 40 hex digits, a space, 64 hex
	// digits, a newline.
	recordLine = 40 + 1 + 64 + 1
)

// commitRecord is the record as read: digests by commit id, and the ids
// of commits by digest.
type commitRecord struct {
	byID     map[string]string
	byDigest map[string]string
	// amended maps a commit made by git commit --amend to the commit it
	// amended, from HEAD's reflog: the person's own amend of a pair
	// commit keeps it pair's (undo then checks its content, rule amended).
	amended map[string]string
	exists  bool   // the file is there
	shown   string // the file's name for a person (.git/pair/commits)
}

// recordPath returns the record's path, and the name to show a person:
// relative to the tree's root when the common directory is inside it.
func (gr *gitRepo) recordPath() (string, string) {
	p := filepath.Join(gr.commonDir, recordDir, recordFile)
	shown := p
	if rel, err := filepath.Rel(gr.top, p); err == nil && filepath.IsLocal(rel) {
		shown = filepath.ToSlash(rel)
	}
	return p, shown
}

// recordCommit appends the commit to the record: its id, and the digest
// of the trailers of msg, its message as written.
func (gr *gitRepo) recordCommit(id, msg string) error {
	rec, ok, _ := audit.ParseMessage(msg)
	if !ok {
		return fmt.Errorf("commit %s has no pair trailers to record", id)
	}
	p, _ := gr.recordPath()
	if err := os.Mkdir(filepath.Dir(p), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	if err := notLink(filepath.Dir(p)); err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_RDWR|os.O_APPEND|os.O_CREATE|recordNoFollow, 0o644)
	if err != nil {
		return err
	}
	line := []byte(id + " " + rec.Digest() + "\n")
	// A line torn by a crash gets its own line end first, so that this
	// one is whole.
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, fi.Size()-1); err == nil && last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	_, err = f.Write(line) // one write: appended whole
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// notLink refuses a path that is a symbolic link.
func notLink(p string) error {
	fi, err := os.Lstat(p)
	if err != nil {
		return err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s %w; pair does not follow it", p, ErrIsLink)
	}
	return nil
}

// readCommitRecord reads the record: its last recordLimit bytes, never
// through a symbolic link. A line that does not parse (one torn by a
// crash) is skipped.
func (gr *gitRepo) readCommitRecord() (*commitRecord, error) {
	p, shown := gr.recordPath()
	r := &commitRecord{byID: map[string]string{}, byDigest: map[string]string{}, amended: map[string]string{}, shown: shown}
	if err := r.readAmends(filepath.Join(gr.gitDir, "logs", "HEAD")); err != nil {
		return nil, err
	}
	if err := notLink(filepath.Dir(p)); errors.Is(err, fs.ErrNotExist) {
		return r, nil
	} else if err != nil {
		return nil, fmt.Errorf("read pair's record of its commits: %w", err)
	}
	if err := notLink(p); errors.Is(err, fs.ErrNotExist) {
		return r, nil
	} else if err != nil {
		return nil, fmt.Errorf("read pair's record of its commits: %w", err)
	}
	f, err := os.OpenFile(p, readFlags|recordNoFollow, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read pair's record of its commits: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read pair's record of its commits: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("read pair's record of its commits: %s is not a regular file", shown)
	}
	r.exists = true
	b, err := readTail(f, fi.Size())
	if err != nil {
		return nil, fmt.Errorf("read pair's record of its commits: %w", err)
	}
	for line := range bytes.Lines(b) {
		if len(line) != recordLine || line[recordLine-1] != '\n' {
			continue
		}
		id, digest := string(line[:40]), string(line[41:recordLine-1])
		if line[40] != ' ' || !isHex(id) || !isHex(digest) {
			continue
		}
		r.byID[id] = digest
		r.byDigest[digest] = id
	}
	return r, nil
}

// readTail reads the last recordLimit bytes of f, of size size, from the
// start of a line.
func readTail(f *os.File, size int64) ([]byte, error) {
	from := max(size-recordLimit, 0)
	b, err := io.ReadAll(io.NewSectionReader(f, from, recordLimit))
	if err != nil {
		return nil, err
	}
	if from > 0 { // the first line is cut
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	return b, nil
}

// readAmends reads the amends of the reflog at p (git's "<old> <new>
// <who> <when>\tcommit (amend): <subject>" lines), never through a link.
// A missing or unreadable reflog has none.
func (r *commitRecord) readAmends(p string) error {
	if notLink(p) != nil {
		return nil
	}
	f, err := os.OpenFile(p, readFlags|recordNoFollow, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	b, err := readTail(f, fi.Size())
	if err != nil {
		return fmt.Errorf("read the reflog %s: %w", p, err)
	}
	for line := range bytes.Lines(b) {
		head, what, ok := bytes.Cut(line, []byte{'\t'})
		if !ok || !bytes.HasPrefix(what, []byte("commit (amend): ")) || len(head) < 82 || head[40] != ' ' {
			continue
		}
		old, nw := string(head[:40]), string(head[41:81])
		if isHex(old) && isHex(nw) {
			r.amended[nw] = old
		}
	}
	return nil
}

func isHex(s string) bool {
	_, err := hex.DecodeString(s)
	return err == nil
}

// notMadeHere says why a commit that carries pair's trailers (rec, read
// from its message) is not one this pair made, or "" when it is.
func (r *commitRecord) notMadeHere(c *gitobj.Commit, rec audit.Record) string {
	id := c.Hash.String()
	digest, ok := r.byID[id]
	// The person's own amends (of amends) of a pair commit.
	for i := 0; !ok && i < 100 && r.amended[id] != ""; i++ {
		id = r.amended[id]
		digest, ok = r.byID[id]
		if ok && digest != rec.Digest() {
			return fmt.Sprintf("it amends pair's commit %s with other trailers", id[:12])
		}
	}
	switch {
	case ok && digest == rec.Digest():
		return ""
	case ok:
		return fmt.Sprintf("its trailers are not those this pair recorded for it in %s", r.shown)
	}
	if orig, ok := r.byDigest[rec.Digest()]; ok {
		return fmt.Sprintf("it is a copy of pair's commit %s, amended, rebased or cherry-picked since", orig[:12])
	}
	why := fmt.Sprintf("this pair did not make it (it is not in %s)", r.shown)
	if !r.exists {
		why = fmt.Sprintf("this pair did not make it (pair records the commits it makes in %s, and has recorded none in this repository)", r.shown)
	}
	return why
}
