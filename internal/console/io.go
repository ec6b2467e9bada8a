package console

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"golang.org/x/term"
)

// IO carries the process's standard streams and what is known about
// them, so that tests can replace them. Nothing below cmd/pair looks at
// the environment or at an *os.File to find out whether a stream is a
// terminal: it reads these fields.
type IO struct {
	In       io.Reader
	Out, Err io.Writer
	// Interrupt routes Ctrl-C (nil: it cancels the command's context).
	Interrupt *Interrupter
	// Keyboard is standard input when it is a terminal, for single key
	// presses; nil otherwise.
	Keyboard *os.File
	// Color says whether Out (ErrColor: Err) gets ANSI colours.
	Color, ErrColor bool
	// ErrTTY says whether Err is a terminal.
	ErrTTY bool
	// OutTTY says whether Out is a terminal; NoPager turns off the pager
	// that long output goes through there (see StartPager).
	OutTTY, NoPager bool
	// LineEditing says whether lines typed at a prompt can be edited (see
	// Prompt): Keyboard is set, Out is a terminal, TERM is not "dumb".
	LineEditing bool
	// OpenTerminal opens the process's terminal (/dev/tty) for keys when
	// standard input is taken (a patch piped in), as git add -p and less
	// do; it fails when there is none. nil: there is none.
	OpenTerminal func() (*os.File, error)
}

// System returns the process's streams with their state: which are
// terminals, and whether they get colours (a terminal, NO_COLOR not set,
// TERM not "dumb").
func System(in *os.File, out, errw *os.File, getenv func(string) string) IO {
	io := IO{In: in, Out: out, Err: errw}
	if isTerminal(in) {
		io.Keyboard = in
	}
	outTTY := isTerminal(out)
	io.OutTTY = outTTY
	io.ErrTTY = isTerminal(errw)
	switch colorChoice(getenv, outTTY || io.ErrTTY, gitColorBool) {
	case ColorAlways:
		io.Color, io.ErrColor = true, true
	case ColorNever:
	default:
		io.Color, io.ErrColor = outTTY, io.ErrTTY
	}
	io.LineEditing = io.Keyboard != nil && outTTY && getenv("TERM") != "dumb"
	io.OpenTerminal = openTerminal
	return io
}

// ErrNoTerminal is a process without a terminal to read keys from.
var ErrNoTerminal = errors.New("no terminal")

// openTerminal opens /dev/tty, the process's controlling terminal, if it
// has one.
func openTerminal() (*os.File, error) {
	f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoTerminal, err)
	}
	if !isTerminal(f) {
		f.Close()
		return nil, ErrNoTerminal
	}
	return f, nil
}

// OutToErr returns the streams with standard error in place of standard
// output (which stays one JSON object with --json).
func (s IO) OutToErr() IO {
	s.Out, s.Color = s.Err, s.ErrColor
	return s
}

func isTerminal(f *os.File) bool {
	return f != nil && term.IsTerminal(int(f.Fd()))
}

// Interrupter routes Ctrl-C: to the operation that caught it (a request
// of the chat, which stops while the chat goes on), or else to the whole
// command.
type Interrupter struct {
	mu    sync.Mutex
	inner context.CancelFunc
	root  context.CancelFunc
}

// NewInterrupter returns an Interrupter that cancels root when no
// operation caught Ctrl-C.
func NewInterrupter(root context.CancelFunc) *Interrupter {
	return &Interrupter{root: root}
}

// Interrupt is one Ctrl-C.
func (i *Interrupter) Interrupt() {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.inner != nil {
		i.inner()
		i.inner = nil
		return
	}
	i.root()
}

// Catch returns a context that Ctrl-C cancels instead of the command's,
// until done is called. A nil Interrupter (tests) catches nothing.
func (i *Interrupter) Catch(ctx context.Context) (context.Context, func()) {
	c, cancel := context.WithCancel(ctx)
	if i == nil {
		return c, cancel
	}
	i.mu.Lock()
	i.inner = cancel
	i.mu.Unlock()
	return c, func() {
		i.mu.Lock()
		i.inner = nil
		i.mu.Unlock()
		cancel()
	}
}
