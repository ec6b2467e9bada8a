package console

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"sync"

	"golang.org/x/term"
)

// ErrPromptInterrupted is Ctrl-C typed at a Prompt.
var ErrPromptInterrupted = errors.New("interrupted at the prompt")

// Prompt reads lines on the person's terminal with line editing and
// history, as a shell does: the arrows, Home and End, Ctrl-A, Ctrl-E,
// Ctrl-K, Ctrl-U, Ctrl-W and Alt-arrows move in and edit the line; up and
// down go through the lines typed before. It is golang.org/x/term's
// line editor, already what pair reads keys with: the terminal is in raw
// mode only while a line is read, so that what is printed in between
// (the model's reply, a review) is printed as usual.
//
// A line is read only when asked, because the review that follows reads
// single keys from the same terminal; keys typed ahead, in the same burst
// as a line's Enter, stay with the line editor for the next line.
type Prompt struct {
	kb    *os.File
	t     *term.Terminal
	in    *ctrlCReader
	lines chan lineRead

	mu      sync.Mutex
	pending bool
}

type lineRead struct {
	line string
	err  error
}

// NewPrompt returns a prompt on the terminal kb that writes to out (the
// same terminal), its history holding earlier, oldest first.
func NewPrompt(kb *os.File, out io.Writer, earlier []string) *Prompt {
	in := &ctrlCReader{r: kb}
	p := &Prompt{kb: kb, in: in, lines: make(chan lineRead, 1)}
	p.t = term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{in, out}, "")
	for _, l := range earlier {
		p.t.History.Add(l)
	}
	return p
}

// ReadLine shows prompt and reads one line, without its end. Ctrl-D on an
// empty line is io.EOF, Ctrl-C ErrPromptInterrupted. When ctx ends first,
// the terminal is put back as it was and ctx's error returned.
func (p *Prompt) ReadLine(ctx context.Context, prompt string) (string, error) {
	fd := int(p.kb.Fd())
	state, err := term.MakeRaw(fd)
	if err != nil {
		return "", err
	}
	defer term.Restore(fd, state)
	if w, h, err := term.GetSize(fd); err == nil {
		_ = p.t.SetSize(w, h)
	}
	p.mu.Lock()
	if !p.pending {
		p.pending = true
		p.t.SetPrompt(prompt)
		go func() {
			line, err := p.t.ReadLine()
			switch {
			case errors.Is(err, term.ErrPasteIndicator):
				err = nil // a pasted line is a line
			case errors.Is(err, io.EOF) && p.in.sawCtrlC():
				err = ErrPromptInterrupted
			}
			p.lines <- lineRead{line, err}
		}()
	}
	p.mu.Unlock()
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case r := <-p.lines:
		p.mu.Lock()
		p.pending = false
		p.mu.Unlock()
		return r.line, r.err
	}
}

// ctrlCReader passes the terminal's bytes on, and notes a Ctrl-C among
// them: the line editor ends the line on Ctrl-C and on Ctrl-D alike.
type ctrlCReader struct {
	r     io.Reader
	mu    sync.Mutex
	ctrlC bool
}

func (c *ctrlCReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	if bytes.IndexByte(b[:n], 3) >= 0 {
		c.mu.Lock()
		c.ctrlC = true
		c.mu.Unlock()
	}
	return n, err
}

// sawCtrlC reports whether a Ctrl-C came since it was last asked.
func (c *ctrlCReader) sawCtrlC() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	seen := c.ctrlC
	c.ctrlC = false
	return seen
}
