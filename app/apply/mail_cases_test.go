package apply

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// mailCase is a mail edge case: commits made in a repository, written as
// a mailbox by git format-patch (and perhaps rewritten), applied by git
// am and by pair am.
type mailCase struct {
	name string
	// commits runs in the repository on top of its base, and prints the
	// mailbox.
	commits string
	// mangle rewrites the mailbox (nil: as written).
	mangle func(string) string
	// skip says that git am stops at the first mail, and goes on
	// without it with --skip.
	skip bool
}

var mailCases = []mailCase{
	{name: "RFC 2047 author", commits: `printf 'a\n' >> f; git commit -qam 'f: a' --author='Ærøskøbing Ñandú <n@example.org>'
git format-patch --stdout base`},
	{name: "long subject folded", commits: `printf 'a\n' >> f; git commit -qam 'f: a subject long enough that git format-patch folds it over more than one line of the header, as mailers do'
git format-patch --stdout base`},
	{name: "long non-ASCII subject folded", commits: `printf 'a\n' >> f; git commit -qam 'f: ünïcödé in a subject long enough that git format-patch encodes and folds it over several lines of the header'
git format-patch --stdout base`},
	{name: "body line starting From", commits: `printf 'a\n' >> f; git commit -qam 'f: a' -m 'From here on, f ends with a.
From the start, too.'
git format-patch --stdout base`},
	{name: "body line that is an mbox separator", skip: true, commits: `printf 'a\n' >> f; git commit -qam 'f: a' -m 'The next line is one git mailsplit cuts at.
From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001
Subject: [PATCH] f: b, the rest of the body'
git format-patch --stdout base`},
	{name: "sender not the author", commits: `printf 'a\n' >> f; git commit -qam 'f: a' --author='Real Author <real@example.org>' --date='2023-03-04T05:06:07-08:00'
git format-patch --from='Sender <sender@example.com>' --stdout base`},
	{name: "author without a name", commits: oneCommit, mangle: fromHeader("From: x@example.org")},
	{name: "author in angle brackets only", commits: oneCommit, mangle: fromHeader("From: <x@example.org>")},
	{name: "author with an empty quoted name", commits: oneCommit, mangle: fromHeader(`From: "" <x@example.org>`)},
	{name: "author name in quotes with a comma", commits: oneCommit, mangle: fromHeader(`From: "Doe, Jane" <jane@example.org>`)},
	{name: "no From header", skip: true, commits: oneCommit, mangle: fromHeader("")},
	{name: "in-body From, Date and Subject", commits: oneCommit, mangle: func(s string) string {
		return strings.Replace(s, "\n\n---\n", "\n\nFrom: In Body <in@example.org>\nDate: Sat, 1 Jul 2023 12:00:00 +0200\nSubject: [PATCH] f: the real subject\n\nThe real body.\n---\n", 1)
	}},
	{name: "body line --- with text", commits: `printf 'a\n' >> f; git commit -qam 'f: a' -m 'Above.
--- below is not the patch yet
Below.'
git format-patch --stdout base`},
	{name: "body line diff --git", skip: true, commits: `printf 'a\n' >> f; git commit -qam 'f: a' -m 'A body that quotes
diff --git a/x b/x
which git mailinfo takes for the patch.'
git format-patch --stdout base`},
	{name: "Latin-1 mail", commits: `printf 'a\n' >> f; git -c i18n.commitEncoding=ISO-8859-1 commit -qa -F - --author="$(printf 'Jos\351 N\372\361ez <jose@example.org>')" <<EOF
$(printf 'f: caf\351')

$(printf 'Le caf\351 est pr\352t.')
EOF
git -c i18n.logOutputEncoding=ISO-8859-1 format-patch --stdout base`},
	{name: "[PATCH] inside the subject", commits: `printf 'a\n' >> f; git commit -qam 'f: read [PATCH] and [v2] in names'
git format-patch --stdout base`},
	{name: "body line ---", commits: `printf 'a\n' >> f; git commit -qam 'f: a' -m 'Above the line.
---
Below the line, which git am leaves out.'
git format-patch --stdout base`},
	{name: "[PATCH v2 n/m]", commits: `printf 'a\n' >> f; git commit -qam 'f: a'; printf 'b\n' >> f; git commit -qam '[tag] f: b'; printf 'c\n' >> f; git commit -qam 'f: c'
git format-patch -n --subject-prefix='PATCH v2' --stdout base`},
	{name: "cover letter", skip: true, commits: `printf 'a\n' >> f; git commit -qam 'f: a'; printf 'b\n' >> f; git commit -qam 'f: b'
git format-patch --cover-letter --stdout base`},
	{name: "CRLF mail", commits: `printf 'a\n' >> f; git commit -qam 'f: a' -m 'A body.'
git format-patch --stdout base`, mangle: func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }},
	{name: "quoted-printable", commits: `printf 'caf\303\251 = 1\n' >> f; git commit -qam 'f: café' -m 'Le café est prêt, très chaud = bon.'
git -c format.headers='' format-patch --stdout base`, mangle: quotedPrintable},
	{name: "Re: and [PATCH] and spaces", commits: `printf 'a\n' >> f; git commit -qam 'f: a'
git format-patch --stdout base`, mangle: func(s string) string {
		return strings.Replace(s, "Subject: [PATCH] f: a", "Subject: Re: [PATCH]   Re: [RFC PATCH 1/1]  f: a", 1)
	}},
}

// oneCommit is a commit that adds a line, as a mailbox.
const oneCommit = `printf 'a\n' >> f; git commit -qam 'f: a'
git format-patch --stdout base`

// fromHeader rewrites the mail's From: header as from ("": none).
func fromHeader(from string) func(string) string {
	return func(s string) string {
		i := strings.Index(s, "\nFrom: ")
		j := strings.Index(s[i+1:], "\n")
		if from == "" {
			return s[:i] + s[i+1+j:]
		}
		return s[:i+1] + from + s[i+1+j:]
	}
}

// quotedPrintable rewrites each mail's body (after its headers) as
// quoted-printable, as a mail client may send it.
func quotedPrintable(mbox string) string {
	head, body, _ := strings.Cut(mbox, "\n\n")
	head = strings.Replace(head, "Content-Transfer-Encoding: 8bit", "Content-Transfer-Encoding: quoted-printable", 1)
	var b strings.Builder
	for _, line := range strings.SplitAfter(body, "\n") {
		for i := 0; i < len(line); i++ {
			c := line[i]
			switch {
			case c == '\n':
				b.WriteByte(c)
			case c == '=' || c >= 0x80:
				b.WriteString("=" + strings.ToUpper(string("0123456789abcdef"[c>>4])+string("0123456789abcdef"[c&15])))
			default:
				b.WriteByte(c)
			}
		}
	}
	return head + "\n\n" + b.String()
}

// TestMailCasesLikeGitAm applies each mail case with git am and with pair
// am: both apply or both stop, and what they commit has the same trees,
// authors, dates and messages, pair's trailers aside.
func TestMailCasesLikeGitAm(t *testing.T) {
	for _, c := range mailCases {
		t.Run(c.name, func(t *testing.T) {
			root, made, byGit, byPair := caseRepos(t, func(dir string) { sh(t, dir, "printf 'start\\n' > f\n") })
			mbox := sh(t, made, c.commits)
			if c.mangle != nil {
				mbox = c.mangle(mbox)
			}
			file := filepath.Join(root, "case.mbox")
			if err := os.WriteFile(file, []byte(mbox), 0o644); err != nil {
				t.Fatal(err)
			}
			am := exec.Command("git", "am", "-q", file)
			am.Dir = byGit
			am.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
			gitOut, gitErr := am.CombinedOutput()
			o, out, errw := options(byPair, "")
			o.Patch, o.Mail, o.Yes = file, true, true
			pairErr := Run(context.Background(), o)
			if (gitErr == nil) != (pairErr == nil) || (gitErr != nil) != c.skip {
				t.Fatalf("git am: %v\n%s\npair am: %v\n%s%s", gitErr, gitOut, pairErr, out, errw)
			}
			for n := 1; gitErr != nil; n++ {
				if !strings.Contains(pairErr.Error(), fmt.Sprintf("stopped at mail %d of", n)) {
					t.Fatalf("pair am: %v; want it stopped at mail %d, as git am", pairErr, n)
				}
				o, out, errw := options(byPair, "")
				o.Skip, o.Yes = true, true
				pairErr = Run(context.Background(), o)
				skip := exec.Command("git", "am", "-q", "--skip")
				skip.Dir, skip.Env = byGit, am.Env
				gitOut, gitErr = skip.CombinedOutput()
				if (gitErr == nil) != (pairErr == nil) {
					t.Fatalf("git am --skip: %v\n%s\npair am --skip: %v\n%s%s", gitErr, gitOut, pairErr, out, errw)
				}
			}
			const format = "--format=%T%n%an <%ae> %ad%n%B%x00"
			g := sh(t, byGit, "git log --date=raw '"+format+"' base..")
			p := sh(t, byPair, "git log --date=raw '"+format+"' base..")
			if commitsWithoutPairTrailers(g) != commitsWithoutPairTrailers(p) {
				t.Errorf("git am made\n%s\npair am made\n%s\n(the mailbox:\n%s)", g, p, mbox)
			}
		})
	}
}

// commitsWithoutPairTrailers is the output of git log, its commits ended
// by NUL, without pair's trailers.
func commitsWithoutPairTrailers(log string) string {
	var out []string
	for _, c := range strings.Split(log, "\x00") {
		if c = strings.TrimSpace(withoutPairTrailers(c)); c != "" {
			out = append(out, c)
		}
	}
	return strings.Join(out, "\n\x00\n")
}
