package mail_test

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pair-cli/pair/edit/mail"
)

func TestCleanSubject(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"[PATCH] fix it", "fix it"},
		{"[PATCH v2 3/7] fix it", "fix it"},
		{"Re: [PATCH 1/2] fix it", "fix it"},
		{"RE:re: [RFC][PATCH]  fix   it ", "fix it"},
		{"[PATCH] [other] [PATCH] message", "message"}, // git's t5100 -b case, without -b
		{"fix: it", "fix: it"},
		{"Re:", "Re:"}, // too short for git to take "Re:" away
		{"[unclosed fix", "[unclosed fix"},
		{"", ""},
	} {
		if got := mail.CleanSubject(tt.in); got != tt.want {
			t.Errorf("CleanSubject(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSplitAndParseSeries(t *testing.T) {
	b, err := os.ReadFile("testdata/series.mbox")
	if err != nil {
		t.Fatal(err)
	}
	if !mail.IsMailbox(string(b)) {
		t.Fatal("IsMailbox(series) = false")
	}
	msgs := mail.Split(string(b))
	if len(msgs) != 2 {
		t.Fatalf("Split: %d messages, want 2", len(msgs))
	}
	m, err := mail.Parse(msgs[0])
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "Zoë Jürgens" || m.Email != "zoe@example.org" {
		t.Errorf("author %q <%s>, want Zoë Jürgens <zoe@example.org>", m.Name, m.Email)
	}
	if want := time.Date(2024, 2, 3, 4, 5, 6, 0, time.FixedZone("", 90*60)); !m.Date.Equal(want) || m.Date.Format("-0700") != "+0130" {
		t.Errorf("date %v, want %v in +0130", m.Date, want)
	}
	if m.Subject != "capital B" {
		t.Errorf("subject %q, want %q", m.Subject, "capital B")
	}
	if m.Body != "Longer explanation here." {
		t.Errorf("body %q", m.Body)
	}
	if want := []string{"Signed-off-by: Zoë Jürgens <zoe@example.org>", "Reviewed-by: Someone <s@example.com>"}; !slices.Equal(m.Trailers, want) {
		t.Errorf("trailers %q, want %q", m.Trailers, want)
	}
	if !strings.HasPrefix(m.Patch, " f.txt | 2 +-\n") || !strings.HasSuffix(m.Patch, "+B\n c\n") {
		t.Errorf("patch %q: want the diffstat and the diff, without the separator or the signature", m.Patch)
	}
	m2, err := mail.Parse(msgs[1])
	if err != nil {
		t.Fatal(err)
	}
	if m2.Subject != "add d" || m2.Body != "" || m2.Trailers != nil || m2.Name != "Pair Tester" {
		t.Errorf("second mail %+v", m2)
	}
}

func TestParseEncodings(t *testing.T) {
	qp := "From: =?ISO-8859-1?Q?Ren=E9?= <r@example.org>\nSubject: =?UTF-8?B?W1BBVENIXSDDqXTDqQ==?=\n" +
		"Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: quoted-printable\n\n" +
		"Caf=C3=A9 fix, a long line that was wrapped by the mailer at seventy-six ch=\naracters.\n\n" +
		"Signed-off-by: Ren=C3=A9 <r@example.org>\n---\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a=3Db\n+a=3Dc\n"
	m, err := mail.Parse(qp)
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "René" || m.Subject != "été" {
		t.Errorf("name %q subject %q, want René and été", m.Name, m.Subject)
	}
	if m.Body != "Café fix, a long line that was wrapped by the mailer at seventy-six characters." {
		t.Errorf("body %q", m.Body)
	}
	if !strings.Contains(m.Patch, "-a=b\n+a=c\n") {
		t.Errorf("patch %q: quoted-printable not decoded", m.Patch)
	}
	// As git mailinfo decodes it: trailing white space kept (a context
	// line of spaces, the "-- " of the signature), an = that is no
	// escape kept.
	qpSpaces := "From: A <a@example.org>\nSubject: [PATCH] s\nContent-Transfer-Encoding: quoted-printable\n\n" +
		"---\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n \n-a  \n+a =3D=zz \n-- \n2.39.5\n"
	if m, err = mail.Parse(qpSpaces); err != nil || !strings.HasSuffix(m.Patch, "@@ -1,2 +1,2 @@\n \n-a  \n+a ==zz \n") {
		t.Errorf("patch %q (%v): trailing white space or a bare = not kept", m.Patch, err)
	}

	b64 := "From: A <a@example.org>\r\nSubject: [PATCH] b\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
		"Ym9keQoKLS0tCmRpZmYgLS1naXQgYS94IGIveAotLS0g\r\nYS94CisrKyBiL3gKQEAgLTEgKzEgQEAKLWEKK2IK\r\n"
	m, err = mail.Parse(b64)
	if err != nil {
		t.Fatal(err)
	}
	if m.Body != "body" || m.Patch != "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n" {
		t.Errorf("base64: body %q patch %q", m.Body, m.Patch)
	}

	latin := "From: B <b@example.org>\nSubject: l\nContent-Type: text/plain; charset=ISO-8859-1\n\nna\xefve\n---\ndiff -u a b\n"
	if m, err = mail.Parse(latin); err != nil || m.Body != "naïve" {
		t.Errorf("latin-1 body %q (%v), want naïve", m.Body, err)
	}
}

func TestParseInBodyHeaders(t *testing.T) {
	msg := "From: Sender <s@example.org>\nDate: Mon, 1 Jan 2024 00:00:00 +0000\nSubject: [PATCH] sent\n\n" +
		"From: Real Author <real@example.org>\nDate: Tue, 2 Jan 2024 10:00:00 -0500\nSubject: the real subject\n\n" +
		"Body.\n---\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"
	m, err := mail.Parse(msg)
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "Real Author" || m.Email != "real@example.org" || m.Subject != "the real subject" || m.Date.Day() != 2 || m.Body != "Body." {
		t.Errorf("got %+v", m)
	}
}

func TestParseRefusals(t *testing.T) {
	if _, err := mail.Parse("From: A <a@example.org>\nSubject: no diff\n\njust words\n"); err != mail.ErrNoPatch {
		t.Errorf("no patch: err %v, want ErrNoPatch", err)
	}
	if _, err := mail.Parse("From: A <a@example.org>\nSubject: x\nContent-Type: multipart/mixed\n\n--b\n"); err == nil || !strings.Contains(err.Error(), "boundary") {
		t.Errorf("multipart without a boundary: err %v, want one that says so", err)
	}
	if mail.IsMailbox("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n") {
		t.Error("IsMailbox(a plain diff) = true")
	}
}

func TestSplitKeepsBodyFromLines(t *testing.T) {
	// A "From " line without a date is the body's, as mailsplit sees it.
	mbox := "From abc Mon Sep 17 00:00:00 2001\nFrom: A <a@x>\nSubject: one\n\nFrom here on\n---\ndiff -u a b\n" +
		"From def Mon Sep 17 00:00:00 2001\nFrom: B <b@x>\nSubject: two\n\n---\ndiff -u a b\n"
	msgs := mail.Split(mbox)
	if len(msgs) != 2 || !strings.Contains(msgs[0], "From here on") {
		t.Fatalf("Split = %q", msgs)
	}
}

// TestCarriageReturns: a message whose every line ends with CRLF lost
// nothing when its CRs go; where only some lines have one (git
// format-patch of a change to a CRLF file), they are the files' and stay,
// as with git am --keep-cr.
func TestCarriageReturns(t *testing.T) {
	head := "From: A <a@example.org>\nSubject: [PATCH] eol\n\n---\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n"
	for _, tt := range []struct{ name, msg, patch string }{
		{"content", head + "-a\n+a\r\n", "-a\n+a\r\n"},
		{"content, a deleted CR", head + "-a\r\n+a\n", "-a\r\n+a\n"},
		{"transport", strings.ReplaceAll(head+"-a\n+b\n", "\n", "\r\n"), "-a\n+b\n"},
	} {
		msgs := mail.Split("From 1234567 Mon Sep 17 00:00:00 2001\n" + tt.msg)
		if len(msgs) != 1 {
			t.Fatalf("%s: %d messages", tt.name, len(msgs))
		}
		m, err := mail.Parse(msgs[0])
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !strings.HasSuffix(m.Patch, "@@ -1 +1 @@\n"+tt.patch) {
			t.Errorf("%s: patch %q, want it to end %q", tt.name, m.Patch, tt.patch)
		}
	}
}

// TestParseAttached: git format-patch --attach sends the message in a
// first part and the patch as an attachment; git am reads both, the
// attachment decoded.
func TestParseAttached(t *testing.T) {
	diff := "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"
	for _, tt := range []struct{ name, encoding, attached string }{
		{"8bit", "8bit", diff},
		{"base64", "base64", "ZGlmZiAtLWdpdCBhL3ggYi94Ci0tLSBhL3gKKysrIGIveApAQCAtMSArMSBAQAotYQorYgo=\n"},
		{"quoted-printable", "quoted-printable", strings.Replace(diff, "+b", "+=62", 1)},
	} {
		msg := "From: A U Thor <author@example.com>\nDate: Fri, 2 Jan 2026 03:04:05 +0000\nSubject: [PATCH] Change x\n" +
			"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"------------2.39.5\"\n\n" +
			"This is a multi-part message in MIME format.\n--------------2.39.5\nContent-Type: text/plain; charset=UTF-8; format=fixed\n" +
			"Content-Transfer-Encoding: 8bit\n\nWhy it changes.\n\nSigned-off-by: A U Thor <author@example.com>\n---\n x | 2 +-\n 1 file changed\n\n\n" +
			"--------------2.39.5\nContent-Type: text/x-patch; name=\"0001-Change-x.patch\"\nContent-Transfer-Encoding: " + tt.encoding + "\n" +
			"Content-Disposition: attachment; filename=\"0001-Change-x.patch\"\n\n" + tt.attached + "\n--------------2.39.5--\n\n"
		m, err := mail.Parse(msg)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if m.Subject != "Change x" || m.Body != "Why it changes." || !slices.Equal(m.Trailers, []string{"Signed-off-by: A U Thor <author@example.com>"}) {
			t.Errorf("%s: got subject %q, body %q, trailers %q", tt.name, m.Subject, m.Body, m.Trailers)
		}
		if !strings.Contains(m.Patch, diff) {
			t.Errorf("%s: patch %q, want it to hold %q", tt.name, m.Patch, diff)
		}
	}
}
