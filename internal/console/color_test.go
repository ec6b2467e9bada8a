package console

import "testing"

func TestColorChoice(t *testing.T) {
	for _, tc := range []struct {
		env          map[string]string
		tty          bool
		git, gitOK   bool
		want         string
		wantAskedGit bool
	}{
		{env: nil, tty: true, git: true, gitOK: true, want: "", wantAskedGit: true},
		{env: nil, tty: true, git: false, gitOK: true, want: ColorNever, wantAskedGit: true},
		{env: nil, tty: true, gitOK: false, want: "", wantAskedGit: true},
		{env: nil, tty: false, want: ColorNever},
		{env: map[string]string{"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}, tty: true, want: ColorNever},
		{env: map[string]string{"CLICOLOR_FORCE": "1"}, tty: false, want: ColorAlways},
		{env: map[string]string{"CLICOLOR_FORCE": "0"}, tty: false, want: ColorNever},
		{env: map[string]string{"TERM": "dumb"}, tty: true, want: ColorNever},
	} {
		asked := false
		got := colorChoice(func(k string) string { return tc.env[k] }, tc.tty, func() (bool, bool) {
			asked = true
			return tc.git, tc.gitOK
		})
		if got != tc.want || asked != tc.wantAskedGit {
			t.Errorf("%v tty=%v git=%v,%v: got %q (asked git: %v), want %q (%v)", tc.env, tc.tty, tc.git, tc.gitOK, got, asked, tc.want, tc.wantAskedGit)
		}
	}
}

func TestWithColor(t *testing.T) {
	io := IO{Color: true, ErrColor: false}
	if got, _ := io.WithColor("never"); got.Color || got.ErrColor {
		t.Errorf("never: %+v", got)
	}
	if got, _ := io.WithColor("always"); !got.Color || !got.ErrColor {
		t.Errorf("always: %+v", got)
	}
	if got, _ := io.WithColor("auto"); got.Color != io.Color || got.ErrColor != io.ErrColor {
		t.Errorf("auto: %+v", got)
	}
	if _, err := io.WithColor("sometimes"); err == nil {
		t.Error("sometimes: no error")
	}
}
