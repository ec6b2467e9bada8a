package gitobj

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// rawCommits are commits as other tools write them, stored with
// hash-object --literally so that git keeps them byte for byte.
var rawCommits = map[string]string{
	"signed": "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n" +
		"author A U Thor <a@example.com> 1700000000 +0100\n" +
		"committer C O Mitter <c@example.com> 1700000001 -0000\n" +
		"gpgsig -----BEGIN PGP SIGNATURE-----\n" +
		" \n" +
		" iQEzBAABCAAdFiEE0000000000000000000000000000000000000000\n" +
		" =abcd\n" +
		" -----END PGP SIGNATURE-----\n" +
		"\n" +
		"signed\n",
	"extra headers": "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n" +
		"parent 1111111111111111111111111111111111111111\n" +
		"parent 2222222222222222222222222222222222222222\n" +
		"author A <a@example.com> 1700000000 +0545\n" +
		"committer C <c@example.com> 1700000000 +0545\n" +
		"encoding ISO-8859-1\n" +
		"mergetag object 2222222222222222222222222222222222222222\n" +
		" type commit\n" +
		" tag v1\n" +
		" tagger T <t@example.com> 1700000000 +0000\n" +
		" \n" +
		" release\n" +
		"HG:extra rebase_source:abc\n" +
		"gpgsig-sha256 -----BEGIN SSH SIGNATURE-----\n" +
		" U1NIU0lH\n" +
		" -----END SSH SIGNATURE-----\n" +
		"gpgsig -----BEGIN SSH SIGNATURE-----\n" +
		" U1NIU0lH\n" +
		" -----END SSH SIGNATURE-----\n" +
		"\n" +
		"caf\xe9 na\xefve\n\nbody\n",
	"odd order and zones": "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n" +
		"committer C <c@example.com> 99999999999 +5\n" +
		"author broken line without email\n" +
		"\n" +
		"no newline at the end",
	"no message": "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n" +
		"author A <a@example.com> 1 +0000\n" +
		"committer A <a@example.com> 1 +0000\n" +
		"\n",
}

// TestCommitRoundTrip: commits written by git, and odd ones stored as
// they are, read and encoded again are the same bytes and hash.
func TestCommitRoundTrip(t *testing.T) {
	dir := gitRepo(t)
	writeFile(t, dir, "a.txt", "one\n")
	git(t, dir, "", "add", ".")
	git(t, dir, "", "commit", "-q", "-m", "first")
	git(t, dir, "", "checkout", "-q", "-b", "side")
	writeFile(t, dir, "b.txt", "two\n")
	git(t, dir, "", "add", ".")
	git(t, dir, "", "-c", "i18n.commitEncoding=ISO-8859-1", "commit", "-q", "-m", "caf\xe9")
	git(t, dir, "", "checkout", "-q", "main")
	writeFile(t, dir, "c.txt", "three\n")
	git(t, dir, "", "add", ".")
	git(t, dir, "", "commit", "-q", "-m", "third")
	git(t, dir, "", "merge", "-q", "--no-ff", "-m", "merge side", "side")

	hashes := strings.Fields(git(t, dir, "", "rev-list", "--all"))
	for name, raw := range rawCommits {
		hashes = append(hashes, git(t, dir, raw, "hash-object", "-t", "commit", "-w", "--literally", "--stdin"))
		_ = name
	}
	st := storage(dir)
	for _, h := range hashes {
		c, err := ReadCommit(st, hash(t, h))
		if err != nil {
			t.Fatalf("read %s: %v", h, err)
		}
		got, want := c.Encode(), catFile(t, dir, "commit", h)
		if !bytes.Equal(got, want) {
			t.Errorf("commit %s encodes as\n%q\nwant\n%q", h, got, want)
		}
		if sum := plumbing.ComputeHash(plumbing.CommitObject, got); sum.String() != h {
			t.Errorf("commit %s encodes with hash %s", h, sum)
		}
	}

	merge, err := ReadCommit(st, hash(t, git(t, dir, "", "rev-parse", "HEAD")))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := merge.Parents(), []plumbing.Hash{hash(t, git(t, dir, "", "rev-parse", "HEAD^1")), hash(t, git(t, dir, "", "rev-parse", "HEAD^2"))}; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("merge parents %v, want %v", got, want)
	}
	if got, want := merge.Tree().String(), git(t, dir, "", "rev-parse", "HEAD^{tree}"); got != want {
		t.Errorf("tree %s, want %s", got, want)
	}
	side, err := ReadCommit(st, hash(t, git(t, dir, "", "rev-parse", "side")))
	if err != nil {
		t.Fatal(err)
	}
	if side.Encoding() != "ISO-8859-1" || side.Message != "caf\xe9\n" {
		t.Errorf("encoding %q, message %q", side.Encoding(), side.Message)
	}
}

// TestCommitHeaders: the headers read from a commit with a signature,
// a mergetag and extra headers, and the payload a signature covers.
func TestCommitHeaders(t *testing.T) {
	c, err := DecodeCommit([]byte(rawCommits["extra headers"]))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Author(); got.Name != "A" || got.Email != "a@example.com" || got.When.Unix() != 1700000000 {
		t.Errorf("author %+v", got)
	}
	if _, off := c.Committer().When.Zone(); off != 5*3600+45*60 {
		t.Errorf("committer zone offset %d, want +0545", off)
	}
	tag, _ := c.Get("mergetag")
	if want := "object 2222222222222222222222222222222222222222\ntype commit\ntag v1\ntagger T <t@example.com> 1700000000 +0000\n\nrelease"; tag != want {
		t.Errorf("mergetag %q, want %q", tag, want)
	}
	if v, _ := c.Get("HG:extra"); v != "rebase_source:abc" {
		t.Errorf("HG:extra %q", v)
	}
	raw := rawCommits["extra headers"]
	want := raw[:strings.Index(raw, "gpgsig-sha256 ")] + raw[strings.Index(raw, "\n\ncaf")+1:]
	if got := string(c.Payload()); got != want {
		t.Errorf("payload\n%q\nwant\n%q", got, want)
	}
}

// TestNewCommitAsGit: a commit we build is the one git commit-tree
// writes with the same tree, parent, identities, dates and message; a
// signed one is what git writes for the signature and passes fsck.
func TestNewCommitAsGit(t *testing.T) {
	dir := gitRepo(t)
	writeFile(t, dir, "a.txt", "one\n")
	git(t, dir, "", "add", ".")
	git(t, dir, "", "commit", "-q", "-m", "first")
	tree := git(t, dir, "", "write-tree")
	parent := git(t, dir, "", "rev-parse", "HEAD")
	msg := "subject\n\nbody line\n\nPair-Session: s1\n"
	want := git(t, dir, msg, "commit-tree", tree, "-p", parent)

	author := Signature{Name: "Ann Author", Email: "ann@example.com", When: time.Unix(1700000000, 0).In(time.FixedZone("", 3600))}
	committer := Signature{Name: "Carl Committer", Email: "carl@example.com", When: time.Unix(1700000100, 0).In(time.FixedZone("", -(5*3600 + 30*60)))}
	c := NewCommit(hash(t, tree), []plumbing.Hash{hash(t, parent)}, author, committer, msg)
	st := storage(dir)
	h, err := WriteCommit(st, c)
	if err != nil {
		t.Fatal(err)
	}
	if h.String() != want {
		t.Errorf("our commit %s, git's %s:\n%s", h, want, c.Encode())
	}

	// Signed: the payload is the unsigned commit, the signature goes
	// last, each line after the first indented by one space, a blank
	// line as a lone space.
	sig := "-----BEGIN PGP SIGNATURE-----\n\niQEz\n=ab\n-----END PGP SIGNATURE-----\n"
	if !bytes.Equal(c.Payload(), c.Encode()) {
		t.Errorf("payload of an unsigned commit differs from its encoding")
	}
	unsigned := c.Encode()
	c.Sign(sig)
	if !bytes.Equal(c.Payload(), unsigned) {
		t.Errorf("payload after signing\n%q\nwant\n%q", c.Payload(), unsigned)
	}
	h, err = WriteCommit(st, c)
	if err != nil {
		t.Fatal(err)
	}
	got := string(catFile(t, dir, "commit", h.String()))
	wantText := strings.Replace(string(unsigned), "\n\n", "\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEz\n =ab\n -----END PGP SIGNATURE-----\n\n", 1)
	if got != wantText {
		t.Errorf("signed commit\n%q\nwant\n%q", got, wantText)
	}
	git(t, dir, "", "update-ref", "refs/heads/signed", h.String())
	git(t, dir, "", "fsck", "--strict", "--no-dangling")
}

func TestParseSignature(t *testing.T) {
	for _, tc := range []struct {
		in          string
		name, email string
		unix        int64
		offset      int // seconds east of UTC
		zero        bool
	}{
		{in: "Ann <ann@example.com> 1700000000 +0100", name: "Ann", email: "ann@example.com", unix: 1700000000, offset: 3600},
		{in: "Ann Author <ann@example.com> 1700000000 -0530", name: "Ann Author", email: "ann@example.com", unix: 1700000000, offset: -(5*3600 + 30*60)},
		{in: "A <a@b> 0 -0000", name: "A", email: "a@b"},
		{in: "A <a@b> 1 +1400", name: "A", email: "a@b", unix: 1, offset: 14 * 3600},
		{in: "A <a@b> 1 +5", name: "A", email: "a@b", unix: 1, offset: 5 * 60},
		{in: "A <a@b> 1 +99999999999999", name: "A", email: "a@b", unix: 1},
		{in: "A <a@b> 1 zone", name: "A", email: "a@b", unix: 1},
		{in: "A <a@b> 1", name: "A", email: "a@b", unix: 1},
		{in: "A <a@b> soon +0100", name: "A", email: "a@b", zero: true},
		{in: "A <a@b> 99999999999999999999 +0100", name: "A", email: "a@b", zero: true},
		{in: "A <a@b>", name: "A", email: "a@b", zero: true},
		{in: "A <a@b", name: "A", email: "a@b", zero: true},
		{in: "no email at all", name: "no email at all", zero: true},
		{in: "", zero: true},
		{in: "A <a@b> <c@d> 5 +0000", name: "A", email: "a@b", unix: 5},
		{in: "<> 7 +0000", unix: 7},
	} {
		s := ParseSignature(tc.in)
		if s.Name != tc.name || s.Email != tc.email {
			t.Errorf("ParseSignature(%q) = %q <%q>, want %q <%q>", tc.in, s.Name, s.Email, tc.name, tc.email)
		}
		if tc.zero {
			if !s.When.IsZero() {
				t.Errorf("ParseSignature(%q).When = %v, want none", tc.in, s.When)
			}
			continue
		}
		_, off := s.When.Zone()
		if s.When.Unix() != tc.unix || off != tc.offset {
			t.Errorf("ParseSignature(%q).When = %d offset %d, want %d offset %d", tc.in, s.When.Unix(), off, tc.unix, tc.offset)
		}
	}
}

func TestSignatureString(t *testing.T) {
	for _, tc := range []struct {
		s    Signature
		want string
	}{
		{Signature{"Ann", "a@b", time.Unix(1700000000, 0).In(time.FixedZone("", -(3*3600 + 30*60)))}, "Ann <a@b> 1700000000 -0330"},
		{Signature{"Ann", "a@b", time.Unix(5, 0).UTC()}, "Ann <a@b> 5 +0000"},
		{Signature{"Ann", "a@b", time.Time{}}, "Ann <a@b> 0 +0000"},
		{Signature{"Ann", "a@b", time.Unix(-5, 0).UTC()}, "Ann <a@b> 0 +0000"},
	} {
		if got := tc.s.String(); got != tc.want {
			t.Errorf("%+v.String() = %q, want %q", tc.s, got, tc.want)
		}
		if back := ParseSignature(tc.want).String(); back != tc.want {
			t.Errorf("%q parsed and written is %q", tc.want, back)
		}
	}
}

func TestDecodeCommitMalformed(t *testing.T) {
	if _, err := DecodeCommit([]byte(" tree x\n\nmsg")); err == nil {
		t.Error("a commit starting with a continuation line decodes")
	}
}
