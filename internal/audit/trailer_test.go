package audit_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/pair-cli/pair/internal/audit"
)

func TestMessageIsExact(t *testing.T) {
	r := audit.Record{
		Subject:    "Fix  the\tparser\n",
		Body:       "\nBecause it broke.\n\n",
		Session:    "s-1",
		Model:      "gpt-x",
		ReviewedBy: "Ann <ann@example.com>",
		Hunks: []audit.HunkRecord{
			{Path: "a b:c.go", Start: 3, Hash: "0123456789ab", Decision: audit.Approved},
			{Path: "d.go", Start: 0, Hash: "ba9876543210", Decision: audit.Rejected},
		},
	}
	want := "Fix the parser\n\nBecause it broke.\n\n" +
		"Pair-Session: s-1\nPair-Model: gpt-x\nPair-Reviewed-By: Ann <ann@example.com>\n" +
		"Pair-Hunk: a b:c.go:3 0123456789ab approved\nPair-Hunk: d.go:0 ba9876543210 rejected\n"
	if got := r.Message(); got != want {
		t.Errorf("Message() =\n%q\nwant\n%q", got, want)
	}
}

func TestParseMessageRoundTrip(t *testing.T) {
	r := audit.Record{
		Subject: "Add a test", Body: "First.\n\nSecond.",
		Session: "apply-1", Model: "none", ReviewedBy: "Bo <bo@example.com>",
		Hunks: []audit.HunkRecord{
			{Path: "x.go", Start: 12, Hash: "aaaaaaaaaaaa", Decision: audit.Edited},
			{Path: "dir/y z.txt", Start: 1, Hash: "bbbbbbbbbbbb", Decision: audit.Approved},
		},
	}
	got, ok, err := audit.ParseMessage(r.Message())
	if !ok || err != nil {
		t.Fatalf("ParseMessage: ok %v, err %v", ok, err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Errorf("ParseMessage(Message()) = %+v, want %+v", got, r)
	}
}

func TestParseMessageNotPair(t *testing.T) {
	for _, msg := range []string{"", "Subject only\n", "Subject\n\nBody.\n", "Subject\n\nPair-Session: s\n\nSigned-off-by: A <a@b>\n"} {
		if _, ok, err := audit.ParseMessage(msg); ok || err != nil {
			t.Errorf("ParseMessage(%q): ok %v, err %v, want not a pair commit", msg, ok, err)
		}
	}
}

func TestParseMessageKeepsGoodHunks(t *testing.T) {
	msg := "S\n\nPair-Session: s\nPair-Model: m\nPair-Hunk: a.go:1 000000000000 approved\nPair-Hunk: b.go:2 111111111111 maybe\n"
	r, ok, err := audit.ParseMessage(msg)
	if !ok || !errors.Is(err, audit.ErrBadTrailer) {
		t.Fatalf("ParseMessage: ok %v, err %v, want ok and ErrBadTrailer", ok, err)
	}
	if len(r.Hunks) != 1 || r.Hunks[0].Path != "a.go" {
		t.Errorf("hunks = %+v, want the one good a.go record", r.Hunks)
	}
}

func TestParseHunkRecord(t *testing.T) {
	tests := []struct {
		in   string
		want audit.HunkRecord
		bad  bool
	}{
		{in: "a.go:3 0123456789ab approved", want: audit.HunkRecord{Path: "a.go", Start: 3, Hash: "0123456789ab", Decision: audit.Approved}},
		{in: " a b:1:c.go:40 ffffffffffff edited ", want: audit.HunkRecord{Path: "a b:1:c.go", Start: 40, Hash: "ffffffffffff", Decision: audit.Edited}},
		{in: "gone.txt:0 000000000000 rejected", want: audit.HunkRecord{Path: "gone.txt", Start: 0, Hash: "000000000000", Decision: audit.Rejected}},
		{in: "a.go:3 0123456789ab undecided", bad: true},
		{in: "a.go:3 0123456789ab", bad: true},
		{in: "a.go 0123456789ab approved", bad: true},
		{in: ":3 0123456789ab approved", bad: true},
		{in: "a.go:-1 0123456789ab approved", bad: true},
		{in: "approved", bad: true},
	}
	for _, tt := range tests {
		got, err := audit.ParseHunkRecord(tt.in)
		if tt.bad {
			if !errors.Is(err, audit.ErrBadTrailer) {
				t.Errorf("ParseHunkRecord(%q) = %+v, %v, want ErrBadTrailer", tt.in, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseHunkRecord(%q) = %+v, %v, want %+v", tt.in, got, err, tt.want)
		}
		if back, err := audit.ParseHunkRecord(got.String()); err != nil || back != got {
			t.Errorf("ParseHunkRecord(%q.String()) = %+v, %v", tt.in, back, err)
		}
	}
}

func TestDecision(t *testing.T) {
	tests := []struct {
		d       audit.Decision
		applies bool
		s       string
	}{
		{audit.Undecided, false, "undecided"},
		{audit.Approved, true, "approved"},
		{audit.Edited, true, "edited"},
		{audit.Rejected, false, "rejected"},
	}
	for _, tt := range tests {
		if got := tt.d.Applies(); got != tt.applies {
			t.Errorf("%q.Applies() = %v, want %v", tt.d, got, tt.applies)
		}
		if got := tt.d.String(); got != tt.s {
			t.Errorf("%q.String() = %q, want %q", string(tt.d), got, tt.s)
		}
	}
}

func TestReviewed(t *testing.T) {
	hunks := []audit.HunkRecord{
		{Path: "a.go", Start: 1, Hash: "000000000001", Decision: audit.Approved},
		{Path: "a.go", Start: 9, Hash: "000000000002", Decision: audit.Undecided},
		{Path: "b.go", Start: 2, Hash: "000000000003", Decision: audit.Edited},
		{Path: "c.go", Start: 0, Hash: "000000000004", Decision: audit.Rejected},
	}
	r := audit.Reviewed("s-2", "none", hunks)
	if r.Session != "s-2" || r.Model != "none" || r.Subject != "" || r.Body != "" || r.ReviewedBy != "" {
		t.Errorf("Reviewed = %+v", r)
	}
	var got []audit.Decision
	for _, h := range r.Hunks {
		got = append(got, h.Decision)
	}
	if want := []audit.Decision{audit.Approved, audit.Rejected, audit.Edited, audit.Rejected}; !reflect.DeepEqual(got, want) {
		t.Errorf("decisions = %v, want %v (an undecided hunk is recorded rejected)", got, want)
	}
	if hunks[1].Decision != audit.Undecided {
		t.Error("Reviewed changed the caller's hunks")
	}
	if got := r.Applied(); got != 2 {
		t.Errorf("Applied() = %d, want 2", got)
	}
	if _, err := audit.ParseHunkRecord(r.Hunks[1].String()); err != nil {
		t.Errorf("the undecided hunk's trailer does not parse: %v", err)
	}
	if r := audit.Reviewed("s", "m", nil); r.Hunks != nil || r.Applied() != 0 {
		t.Errorf("Reviewed with no hunks = %+v", r)
	}
}

// No value can put a newline or a control character in a trailer: a
// model name (or any value) with one is written on one line, escaped.
func TestTrailersHoldNoControls(t *testing.T) {
	r := audit.Record{
		Subject: "S", Session: "s\x1b[2J", Model: "gpt\x1b]0;title\x07\nPair-Reviewed-By: Forged <f@x>\r\u202e",
		ReviewedBy: "Ann\u0085 <ann@example.com>",
		Hunks:      []audit.HunkRecord{{Path: "a\x1bb.go", Start: 1, Hash: "0123456789ab", Decision: audit.Approved}},
		Changes:    []audit.ChangeRecord{{Path: "c\x00.go", Mode: "100644", Blob: "0123456789ab"}},
	}
	tr := r.Trailers()
	lines := strings.Split(strings.TrimSuffix(tr, "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("got %d trailer lines, want 5:\n%s", len(lines), tr)
	}
	for _, l := range lines {
		if strings.ContainsFunc(l, func(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == '\u202e' }) {
			t.Errorf("a control or format character in %q", l)
		}
	}
	got, ok, err := audit.ParseMessage(r.Message())
	if !ok || err != nil || got.ReviewedBy != "Ann <ann@example.com>" || !strings.HasPrefix(got.Model, "gpt^[]0;title^G Pair-Reviewed-By: Forged") {
		t.Errorf("ParseMessage: ok %v err %v, reviewed by %q, model %q", ok, err, got.ReviewedBy, got.Model)
	}
}

func TestConfigFile(t *testing.T) {
	for p, want := range map[string]bool{
		".pair.yml": true, ".PAIR.YML": true, "sub/.gitignore": true, ".gitattributes": true, "a/b/.gitattributes": true,
		".gitmodules": true, ".mailmap": true, ".lfsconfig": true, "./.pair.yml": true,
		"pair.yml": false, "docs/gitignore.md": false, ".gitignore.bak": false, "main.go": false, "": false,
	} {
		if got := audit.ConfigFile(p); got != want {
			t.Errorf("ConfigFile(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestNotesText(t *testing.T) {
	got := audit.NotesText([]audit.Note{{"calc.go", 12, "keep the old name"}, {"a.txt", 0, "no\n\nrename  please"}, {"b.go", 3, " "}})
	want := "Rejected with a note:\n- calc.go:12: keep the old name\n- a.txt: no rename please"
	if got != want {
		t.Errorf("NotesText = %q, want %q", got, want)
	}
	if got := audit.NotesText(nil); got != "" {
		t.Errorf("NotesText(nil) = %q, want none", got)
	}
}

// TestDigest: a record read back from its message has the digest of the
// record written, whatever the subject and body; a change to any trailer
// changes it.
func TestDigest(t *testing.T) {
	r := audit.Record{
		Subject: "Fix", Session: "s  1", Model: "m", ReviewedBy: "Ann <ann@example.com>",
		Hunks:    []audit.HunkRecord{{Path: "a b.go", Start: 3, Hash: "0123456789ab", Decision: audit.Edited, Interpreted: true}},
		Resolved: []string{"a b.go"},
		Changes:  []audit.ChangeRecord{{Path: "a b.go", Mode: "100644", Blob: "0123456789ab"}, {Path: "gone.go"}},
	}
	got, ok, err := audit.ParseMessage("Other subject\n\nA body.\n\n" + r.Trailers())
	if !ok || err != nil {
		t.Fatalf("ParseMessage: %v, %v", ok, err)
	}
	if !reflect.DeepEqual(got.Resolved, r.Resolved) {
		t.Errorf("Resolved read back %q, written %q", got.Resolved, r.Resolved)
	}
	if got.Digest() != r.Digest() || len(r.Digest()) != 64 {
		t.Errorf("digest read back %s, written %s", got.Digest(), r.Digest())
	}
	for _, change := range []func(*audit.Record){
		func(r *audit.Record) { r.Session = "s-2" },
		func(r *audit.Record) { r.Model = "n" },
		func(r *audit.Record) { r.ReviewedBy = "Bob <bob@example.com>" },
		func(r *audit.Record) { r.Hunks[0].Decision = audit.Approved },
		func(r *audit.Record) { r.Changes = r.Changes[:1] },
		func(r *audit.Record) { r.Resolved = nil },
	} {
		c := r
		c.Hunks = append([]audit.HunkRecord(nil), r.Hunks...)
		change(&c)
		if c.Digest() == r.Digest() {
			t.Errorf("a changed record %+v has the same digest", c)
		}
	}
}

// A mailed patch's trailers share pair's paragraph, before pair's, so
// that git reads them all as trailers; a line that would pass for one of
// pair's is not written, and the digest covers pair's alone.
func TestBodyTrailers(t *testing.T) {
	r := audit.Record{Subject: "s", Body: "b", Session: "s-1", Model: "none", ReviewedBy: "A <a@x>",
		BodyTrailers: []string{"Signed-off-by: Zoë <z@x>", "Pair-Session: forged", "Acked-by: B <b@x>"}}
	want := "s\n\nb\n\nSigned-off-by: Zoë <z@x>\nAcked-by: B <b@x>\nPair-Session: s-1\nPair-Model: none\nPair-Reviewed-By: A <a@x>\n"
	if got := r.Message(); got != want {
		t.Fatalf("Message =\n%s\nwant\n%s", got, want)
	}
	back, ok, err := audit.ParseMessage(want)
	if !ok || err != nil || back.Session != "s-1" || back.Body != "b" ||
		!reflect.DeepEqual(back.BodyTrailers, []string{"Signed-off-by: Zoë <z@x>", "Acked-by: B <b@x>"}) {
		t.Errorf("ParseMessage = %+v, %v, %v", back, ok, err)
	}
	if back.Digest() != (audit.Record{Session: "s-1", Model: "none", ReviewedBy: "A <a@x>"}).Digest() {
		t.Error("the digest covers the body's trailers")
	}
}
