package console

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// The values of --color, as git and ls take them.
const (
	ColorAuto   = "auto"
	ColorAlways = "always"
	ColorNever  = "never"
)

// WithColor returns the streams with colours as mode says: always, never,
// or auto (as System decided: a terminal, NO_COLOR, CLICOLOR_FORCE and
// git's color.diff and color.ui). An empty mode is auto.
func (s IO) WithColor(mode string) (IO, error) {
	switch mode {
	case "", ColorAuto:
	case ColorAlways:
		s.Color, s.ErrColor = true, true
	case ColorNever:
		s.Color, s.ErrColor = false, false
	default:
		return s, fmt.Errorf("--color=%s: use auto, always or never", mode)
	}
	return s, nil
}

// colorChoice is what the environment and git's configuration say about
// colours, before a stream is looked at: "" leaves it to whether the
// stream is a terminal. NO_COLOR (set and not empty) turns colours off;
// CLICOLOR_FORCE (set and not "0") on, even on a pipe; then git's
// color.diff, falling back to color.ui, as `git diff` reads them (asked
// of git only when a stream is a terminal, so that a pipe costs nothing).
func colorChoice(getenv func(string) string, anyTTY bool, gitBool func() (bool, bool)) string {
	switch {
	case getenv("NO_COLOR") != "":
		return ColorNever
	case getenv("CLICOLOR_FORCE") != "" && getenv("CLICOLOR_FORCE") != "0":
		return ColorAlways
	case getenv("TERM") == "dumb" || !anyTTY:
		return ColorNever
	}
	if on, ok := gitBool(); ok && !on {
		return ColorNever
	}
	return ""
}

// gitColorBool asks git whether a diff on a terminal is coloured
// (color.diff, else color.ui: never, always, auto or a boolean); ok is
// false when git does not answer.
func gitColorBool() (on, ok bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "git", "config", "--get-colorbool", "color.diff", "true").Output()
	if err != nil {
		return false, false
	}
	switch strings.TrimSpace(string(out)) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// Palette is the colours of a diff's parts, as ANSI sequences.
type Palette struct {
	Meta, Frag, Old, New, Whitespace string
}

// DefaultPalette is git's own colours for a diff.
var DefaultPalette = Palette{
	Meta:       "\x1b[1m",
	Frag:       "\x1b[36m",
	Old:        "\x1b[31m",
	New:        "\x1b[32m",
	Whitespace: "\x1b[41m",
}

// GitPalette is the person's colours for a diff: git's color.diff.meta,
// frag, old, new and whitespace, as git itself turns them into ANSI
// sequences (git config --get-color), with git's defaults. Asked once.
var GitPalette = sync.OnceValue(func() Palette {
	p := DefaultPalette
	for _, slot := range []struct {
		name string
		to   *string
	}{{"meta", &p.Meta}, {"frag", &p.Frag}, {"old", &p.Old}, {"new", &p.New}, {"whitespace", &p.Whitespace}} {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		// The default is given as an empty color spec: an empty answer
		// means the slot is not configured.
		out, err := exec.CommandContext(ctx, "git", "config", "--get-color", "color.diff."+slot.name, "").Output()
		cancel()
		if err == nil && len(out) > 0 {
			*slot.to = string(out)
		}
	}
	return p
})
