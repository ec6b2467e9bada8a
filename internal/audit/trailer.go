package audit

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pair-cli/pair/internal/safetext"
)

// The trailer keys of a pair commit, read by git interpret-trailers.
const (
	TrailerSession    = "Pair-Session"
	TrailerModel      = "Pair-Model"
	TrailerReviewedBy = "Pair-Reviewed-By"
	TrailerHunk       = "Pair-Hunk"
	TrailerChange     = "Pair-Change"
	// TrailerResolved names a file whose three-way conflict the person
	// resolved: the commit holds their resolution there, not the hunks
	// as approved (pair am --continue).
	TrailerResolved = "Pair-Resolved"
)

// Decision is what the person decided for one hunk.
type Decision string

// The decisions a hunk can carry. A hunk starts Undecided; Edited is an
// approval of a hunk the person changed. A Pair-Hunk trailer records
// Approved, Edited or Rejected.
const (
	Undecided Decision = ""
	Approved  Decision = "approved"
	Rejected  Decision = "rejected"
	Edited    Decision = "edited"
)

// Applies reports whether a hunk with this decision is written.
func (d Decision) Applies() bool { return d == Approved || d == Edited }

func (d Decision) String() string {
	if d == Undecided {
		return "undecided"
	}
	return string(d)
}

// HunkRecord is one Pair-Hunk trailer: where a hunk of the proposal went,
// a hash of its content, and the decision.
type HunkRecord struct {
	Path     string
	Start    int    // 1-based first old line of the resolved hunk
	Hash     string // 12 hex digits, see edit.Resolved.Hash
	Decision Decision
	// Interpreted marks a hunk placed by interpretation (edit.PassInterpreted),
	// written as a last word "interpreted"; Uncertain one placed where its
	// reading was doubted (edit.PassUncertain), written as "uncertain".
	Interpreted bool
	Uncertain   bool
}

func (h HunkRecord) String() string {
	s := fmt.Sprintf("%s:%d %s %s", h.Path, h.Start, h.Hash, h.Decision)
	switch {
	case h.Interpreted:
		s += " " + interpretedMark
	case h.Uncertain:
		s += " " + uncertainMark
	}
	return s
}

const (
	interpretedMark = "interpreted"
	uncertainMark   = "uncertain"
)

// ErrBadTrailer is returned for a Pair-Hunk value that does not parse.
var ErrBadTrailer = errors.New("malformed Pair-Hunk trailer")

// ParseHunkRecord reads the value of a Pair-Hunk trailer. The path may
// hold spaces and colons: the fields are taken from the right.
func ParseHunkRecord(s string) (HunkRecord, error) {
	s = strings.TrimSpace(s)
	cut, interpreted := strings.CutSuffix(s, " "+interpretedMark)
	if interpreted {
		s = cut
	}
	cut, uncertain := strings.CutSuffix(s, " "+uncertainMark)
	if uncertain && !interpreted {
		s = cut
	} else {
		uncertain = false
	}
	i := strings.LastIndexByte(s, ' ')
	if i < 0 {
		return HunkRecord{}, fmt.Errorf("%w: %q", ErrBadTrailer, s)
	}
	dec := Decision(s[i+1:])
	rest := s[:i]
	j := strings.LastIndexByte(rest, ' ')
	if j < 0 {
		return HunkRecord{}, fmt.Errorf("%w: %q", ErrBadTrailer, s)
	}
	hash, where := rest[j+1:], rest[:j]
	k := strings.LastIndexByte(where, ':')
	if k <= 0 {
		return HunkRecord{}, fmt.Errorf("%w: %q", ErrBadTrailer, s)
	}
	start, err := strconv.Atoi(where[k+1:])
	if err != nil || start < 0 {
		return HunkRecord{}, fmt.Errorf("%w: %q", ErrBadTrailer, s)
	}
	if dec != Approved && dec != Edited && dec != Rejected {
		return HunkRecord{}, fmt.Errorf("%w: unknown decision %q", ErrBadTrailer, dec)
	}
	return HunkRecord{Path: where[:k], Start: start, Hash: hash, Decision: dec, Interpreted: interpreted, Uncertain: uncertain}, nil
}

// ChangeRecord is one Pair-Change trailer: a path the commit changes and
// what it holds there, so that a commit amended afterwards can be told
// from the one pair made.
type ChangeRecord struct {
	Path string
	Mode string // git mode ("100644"), "" when the path is deleted
	Blob string // first 12 hex digits of the blob, "" when deleted
}

func (c ChangeRecord) String() string {
	if c.Blob == "" {
		return c.Path + " deleted"
	}
	return fmt.Sprintf("%s %s %s", c.Path, c.Mode, c.Blob)
}

// parseChangeRecord reads the value of a Pair-Change trailer; the fields
// are taken from the right, as the path may hold spaces.
func parseChangeRecord(s string) (ChangeRecord, error) {
	s = strings.TrimSpace(s)
	if p, ok := strings.CutSuffix(s, " deleted"); ok && p != "" {
		return ChangeRecord{Path: p}, nil
	}
	i := strings.LastIndexByte(s, ' ')
	if i <= 0 {
		return ChangeRecord{}, fmt.Errorf("malformed %s trailer: %q", TrailerChange, s)
	}
	blob, rest := s[i+1:], s[:i]
	j := strings.LastIndexByte(rest, ' ')
	if j <= 0 || len(blob) != 12 {
		return ChangeRecord{}, fmt.Errorf("malformed %s trailer: %q", TrailerChange, s)
	}
	return ChangeRecord{Path: rest[:j], Mode: rest[j+1:], Blob: blob}, nil
}

// Record is what a pair commit message holds.
type Record struct {
	Subject, Body string
	Session       string
	Model         string // "none" for a plain pair apply
	ReviewedBy    string // "Name <email>"
	Hunks         []HunkRecord
	// Resolved are the files whose conflict the person resolved (see
	// TrailerResolved).
	Resolved []string
	// Changes are the paths the commit changes, filled by Commit.
	Changes []ChangeRecord
	// BodyTrailers are the message's own trailers (a mailed patch's
	// Signed-off-by: and the like), written in the trailer paragraph
	// before pair's; a line that names one of pair's trailers is left
	// out. Digest does not cover them.
	BodyTrailers []string
}

// Message writes the commit message: subject, body, then the trailers.
func (r Record) Message() string {
	var b strings.Builder
	b.WriteString(oneLine(r.Subject))
	b.WriteString("\n\n")
	if body := strings.TrimSpace(r.Body); body != "" {
		b.WriteString(body)
		b.WriteString("\n\n")
	}
	for _, t := range r.BodyTrailers {
		if k, _, _ := strings.Cut(t, ":"); !pairTrailer(k) && strings.TrimSpace(t) != "" {
			b.WriteString(strings.TrimRight(t, "\n") + "\n")
		}
	}
	b.WriteString(r.Trailers())
	return b.String()
}

// pairTrailer reports whether key is one of pair's trailers.
func pairTrailer(key string) bool {
	switch key {
	case TrailerSession, TrailerModel, TrailerReviewedBy, TrailerHunk, TrailerChange, TrailerResolved:
		return true
	}
	return false
}

// Trailers writes the trailer paragraph.
func (r Record) Trailers() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", TrailerSession, oneLine(r.Session))
	fmt.Fprintf(&b, "%s: %s\n", TrailerModel, oneLine(r.Model))
	fmt.Fprintf(&b, "%s: %s\n", TrailerReviewedBy, oneLine(r.ReviewedBy))
	for _, h := range r.Hunks {
		fmt.Fprintf(&b, "%s: %s\n", TrailerHunk, oneLine(h.String()))
	}
	for _, p := range r.Resolved {
		fmt.Fprintf(&b, "%s: %s\n", TrailerResolved, oneLine(p))
	}
	for _, c := range r.Changes {
		fmt.Fprintf(&b, "%s: %s\n", TrailerChange, oneLine(c.String()))
	}
	return b.String()
}

// Digest is the SHA-256, in hex, of the trailers as Trailers writes them:
// what the person approved (session, model, reviewer, each hunk's
// decision) and what the commit changes. pair keeps it with the id of
// each commit it makes, so that trailers copied into another commit can
// be told from its own. A record read back by ParseMessage has the
// digest of the record it was written from.
func (r Record) Digest() string {
	h := sha256.Sum256([]byte(r.Trailers()))
	return hex.EncodeToString(h[:])
}

// oneLine makes s fit a trailer's value (or the subject): one line, its
// runs of white space made one space, and any other control or format
// character, or invalid byte, written escaped (safetext.Escape), so that
// nothing in a value can start a line or reach a terminal as a control.
func oneLine(s string) string {
	e, _ := safetext.Escape(strings.Join(strings.Fields(s), " "))
	return e
}

// ParseMessage reads a commit message written by Message. ok is false when
// the message is not a pair commit's (it has no Pair-Session trailer in
// its last paragraph).
func ParseMessage(msg string) (r Record, ok bool, err error) {
	msg = strings.TrimRight(msg, "\n")
	paras := strings.Split(msg, "\n\n")
	last := paras[len(paras)-1]
	if len(paras) < 2 {
		return Record{}, false, nil
	}
	pairs := false // a trailer of pair's came before
	for _, l := range strings.Split(last, "\n") {
		k, v, found := strings.Cut(l, ": ")
		if !pairs && !pairTrailer(k) {
			if found || len(r.BodyTrailers) > 0 && (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")) {
				r.BodyTrailers = append(r.BodyTrailers, l)
			}
			continue
		}
		pairs = true
		if !found {
			continue
		}
		switch k {
		case TrailerSession:
			r.Session, ok = v, true
		case TrailerModel:
			r.Model = v
		case TrailerReviewedBy:
			r.ReviewedBy = v
		case TrailerHunk:
			h, herr := ParseHunkRecord(v)
			if herr != nil {
				err = errors.Join(err, herr)
				continue
			}
			r.Hunks = append(r.Hunks, h)
		case TrailerResolved:
			r.Resolved = append(r.Resolved, v)
		case TrailerChange:
			c, cerr := parseChangeRecord(v)
			if cerr != nil {
				err = errors.Join(err, cerr)
				continue
			}
			r.Changes = append(r.Changes, c)
		}
	}
	if !ok {
		return Record{}, false, nil
	}
	r.Subject = paras[0]
	if len(paras) > 2 {
		r.Body = strings.Join(paras[1:len(paras)-1], "\n\n")
	}
	return r, true, err
}

// Reviewed is the record of a reviewed proposal: each of its hunks with
// the decision taken, under the session and the model that proposed it
// ("none" for a plain pair apply). A hunk left Undecided is recorded as
// Rejected: it was not written. The caller writes Subject and Body.
func Reviewed(session, model string, hunks []HunkRecord) Record {
	r := Record{Session: session, Model: model}
	for _, h := range hunks {
		if h.Decision == Undecided {
			h.Decision = Rejected
		}
		r.Hunks = append(r.Hunks, h)
	}
	return r
}

// Applied counts the hunks of r that were written (approved or edited).
func (r Record) Applied() int {
	n := 0
	for _, h := range r.Hunks {
		if h.Decision.Applies() {
			n++
		}
	}
	return n
}

// NewSessionID returns a fresh session name: the kind, the time and
// random digits ("apply-20261129-212730-1a2b3c").
func NewSessionID(kind string) string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s-%s-%x", kind, time.Now().UTC().Format("20060102-150405"), b)
}
