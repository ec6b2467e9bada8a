package review

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestTerminalConfirm(t *testing.T) {
	for _, tc := range []struct {
		keys    string
		yes     bool
		err     error
		wantOut string
	}{
		{"y", true, nil, "\nThe model wants to run a command:\n  make test\n  (runs the tests)\nRun it [y,n]? y\n"},
		{"n", false, nil, "Run it [y,n]? n\n"},
		{"x\x04y", true, nil, "Run it [y,n]? \nRun it [y,n]? \nRun it [y,n]? y\n"},
		{"\x03", false, ErrInterrupted, "Run it [y,n]? \n"},
		{"", false, ErrInputEnded, "Run it [y,n]? \n"},
	} {
		var out strings.Builder
		term := &Terminal{In: strings.NewReader(tc.keys), Out: &out}
		yes, _, err := term.Confirm(context.Background(), "The model wants to run a command:", "make test\n\n(runs the tests)")
		if yes != tc.yes || !errors.Is(err, tc.err) {
			t.Errorf("keys %q: got %v, %v; want %v, %v", tc.keys, yes, err, tc.yes, tc.err)
		}
		if !strings.HasSuffix(out.String(), tc.wantOut) {
			t.Errorf("keys %q: got screen %q, want it to end with %q", tc.keys, out.String(), tc.wantOut)
		}
	}
}

func TestTerminalConfirmColorAndCRLF(t *testing.T) {
	var out strings.Builder
	term := &Terminal{In: strings.NewReader("y"), Out: &out, Color: true, CRLF: true}
	if _, _, err := term.Confirm(context.Background(), "Call it:", "{\n  \"a\": 1\n}"); err != nil {
		t.Fatal(err)
	}
	want := "\r\n\x1b[1mCall it:\x1b[m\r\n  \x1b[33m{\x1b[m\r\n  \x1b[33m  \"a\": 1\x1b[m\r\n  \x1b[33m}\x1b[m\r\n\x1b[1;34mRun it [y,n]?\x1b[m y\r\n"
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}
