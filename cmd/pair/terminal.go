package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"golang.org/x/term"

	"github.com/pair-cli/pair/review"
)

// keyboard returns standard input when it is a terminal, for single key
// presses; nil otherwise.
func keyboard(io stdio) *os.File {
	f, ok := io.In.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return f
}

// useColor reports whether w should get ANSI colours: it is a terminal,
// NO_COLOR is not set, and TERM is not "dumb".
func useColor(w io.Writer) bool {
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// reviewInTerminal runs an interactive review with single key presses on
// the terminal in, which is in raw mode until it returns (and in its usual
// mode while the editor runs).
func reviewInTerminal(ctx context.Context, in *os.File, io stdio, r *review.Review, verb string) error {
	fd := int(in.Fd())
	state, err := term.MakeRaw(fd)
	if err != nil {
		return fmt.Errorf("cannot read single keys from the terminal: %w", err)
	}
	defer term.Restore(fd, state)
	t := &review.Terminal{
		In:    in,
		Out:   io.Out,
		CRLF:  true,
		Color: useColor(io.Out),
		Verb:  verb,
		Editor: func(ctx context.Context, path string) error {
			if err := term.Restore(fd, state); err != nil {
				return err
			}
			defer func() {
				if s, err := term.MakeRaw(fd); err == nil {
					state = s
				}
			}()
			return runEditor(ctx, in, io, path)
		},
	}
	return t.Run(ctx, r)
}

// withRaw runs f with the terminal kb in raw mode.
func withRaw(kb *os.File, f func() error) error {
	fd := int(kb.Fd())
	state, err := term.MakeRaw(fd)
	if err != nil {
		return fmt.Errorf("cannot read single keys from the terminal: %w", err)
	}
	defer term.Restore(fd, state)
	return f()
}

// editorCommand is the person's editor: $EDITOR, else $VISUAL, else vi.
func editorCommand() string {
	for _, v := range []string{"EDITOR", "VISUAL"} {
		if e := strings.TrimSpace(os.Getenv(v)); e != "" {
			return e
		}
	}
	return "vi"
}

// runEditor runs the editor on path through the shell, so that an editor
// given with arguments ("code --wait") works, on the person's terminal.
func runEditor(ctx context.Context, tty *os.File, io stdio, path string) error {
	ed := editorCommand()
	cmd := exec.CommandContext(ctx, "sh", "-c", ed+` "$1"`, "pair-editor", path)
	cmd.Stdin = tty
	cmd.Stdout = io.Out
	cmd.Stderr = io.Err
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w", ed, err)
	}
	return nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
