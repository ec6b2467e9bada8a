package mail_test

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pair-cli/pair/edit/mail"
)

// FuzzParse splits and parses any text: no panic, and what comes out
// holds together (a subject on one line, trailers of the body's last
// paragraph, a patch that was in the message).
func FuzzParse(f *testing.F) {
	if b, err := os.ReadFile("testdata/series.mbox"); err == nil {
		f.Add(string(b))
	}
	f.Add("From: =?UTF-8?q?Zo=C3=AB?= <z@x>\nSubject: Re: [PATCH 1/2] x\nContent-Transfer-Encoding: quoted-printable\n\nb=\n=C3=A9\n\nSigned-off-by: z\n---\ndiff -u a b\n-- \n2.39\n")
	f.Add("From: a\nSubject: [\n\n---\n")
	f.Add("From x 1:00 2001\n\nFrom x 1:00 2001\nFrom: <>\nSubject:\nContent-Transfer-Encoding: base64\n\n!!\n")
	f.Fuzz(func(t *testing.T, text string) {
		for _, msg := range mail.Split(text) {
			m, err := mail.Parse(msg)
			if err != nil {
				continue
			}
			if strings.ContainsAny(m.Subject, "\n\r") || strings.TrimSpace(m.Subject) != m.Subject {
				t.Errorf("subject %q is not one clean line", m.Subject)
			}
			for _, tr := range m.Trailers {
				if !strings.Contains(tr, ": ") {
					t.Errorf("trailer %q has no token", tr)
				}
			}
			if utf8.ValidString(text) && !utf8.ValidString(m.Subject) {
				t.Errorf("subject %q is not UTF-8", m.Subject)
			}
		}
	})
}
