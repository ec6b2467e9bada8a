package console

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"golang.org/x/term"
)

// WithRaw runs f with the terminal kb in raw mode.
func WithRaw(kb *os.File, f func() error) error {
	fd := int(kb.Fd())
	state, err := term.MakeRaw(fd)
	if err != nil {
		return fmt.Errorf("cannot read single keys from the terminal: %w", err)
	}
	defer term.Restore(fd, state)
	return f()
}

// editorCommand is the person's editor, as git chooses it for a commit
// message: git var GIT_EDITOR, which reads $GIT_EDITOR, core.editor,
// $VISUAL (unless the terminal is dumb), $EDITOR, then vi. Without a
// git that answers, the same order without core.editor.
func editorCommand(ctx context.Context) string {
	out, err := exec.CommandContext(ctx, "git", "var", "GIT_EDITOR").Output()
	if e := strings.TrimSpace(string(out)); err == nil && e != "" {
		return e
	}
	return editorFromEnv(os.Getenv)
}

// editorFromEnv is git's order of the editor's variables, without its
// configuration: $GIT_EDITOR, $VISUAL unless TERM is dumb, $EDITOR, vi.
func editorFromEnv(getenv func(string) string) string {
	dumb := getenv("TERM") == "" || getenv("TERM") == "dumb"
	for _, v := range []string{"GIT_EDITOR", "VISUAL", "EDITOR"} {
		if v == "VISUAL" && dumb {
			continue
		}
		if e := strings.TrimSpace(getenv(v)); e != "" {
			return e
		}
	}
	return "vi"
}

// Editor returns what runs the person's editor on a path, on the terminal
// tty: through the shell, so that an editor given with arguments
// ("code --wait") works.
func Editor(tty *os.File, io IO) func(ctx context.Context, path string) error {
	return func(ctx context.Context, path string) error { return runEditor(ctx, tty, io, path) }
}

func runEditor(ctx context.Context, tty *os.File, io IO, path string) error {
	ed := editorCommand(ctx)
	cmd := exec.CommandContext(ctx, "sh", "-c", ed+` "$1"`, "pair-editor", path)
	cmd.Stdin = tty
	cmd.Stdout = io.Out
	cmd.Stderr = io.Err
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w", ed, err)
	}
	return nil
}
