package mcp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// stdio is the transport of a server run as a subprocess: one JSON-RPC
// message a line on its standard input and output.
type stdio struct {
	cmd   *exec.Cmd
	stdin *os.File

	wmu sync.Mutex // one message at a time on stdin

	exited  chan struct{} // closed when the process has exited
	waitErr error         // cmd.Wait's, set before exited is closed
}

// dialStdio starts cmd (whose Stdin and Stdout must be unset) and
// connects to it. The connection ends when the process has exited and
// its output is read, with the process's exit error.
func dialStdio(cmd *exec.Cmd) (*conn, *stdio, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, nil, err
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, nil, err
	}
	t := &stdio{cmd: cmd, stdin: inW, exited: make(chan struct{})}
	c := newConn()
	c.t = t
	go func() {
		t.waitErr = cmd.Wait()
		close(t.exited)
	}()
	go func() {
		rerr := readLines(outR, c.handle)
		outR.Close()
		if rerr != nil {
			_ = cmd.Process.Kill() // it speaks no protocol pair can read
		}
		select {
		case <-t.exited:
		case <-time.After(terminateAfter):
			_ = cmd.Process.Kill() // it closed its output but goes on
			<-t.exited
		}
		if rerr != nil {
			c.end(rerr)
			return
		}
		c.end(t.waitErr)
	}()
	return c, t, nil
}

// readLines passes each line of r to fn until the end of r (a nil
// error) or a line longer than maxMessage.
func readLines(r io.Reader, fn func([]byte)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(long)+len(line) > maxMessage {
				return fmt.Errorf("a message longer than %d MiB", maxMessage>>20)
			}
			long = append(long, line...)
			continue
		}
		if long != nil {
			line = append(long, line...)
			long = nil
		}
		if len(bytes.TrimSpace(line)) > 0 {
			fn(line)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func (t *stdio) send(ctx context.Context, msg []byte, _ int64) error {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	deadline, _ := ctx.Deadline()
	_ = t.stdin.SetWriteDeadline(deadline) // not every system can: then it is not bounded
	if _, err := t.stdin.Write(append(msg, '\n')); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) && ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%w: %v", errClosed, err)
	}
	return nil
}

// close closes the server's input and gives it terminateAfter to exit,
// then sends SIGTERM, and after as long again kills it.
func (t *stdio) close() {
	t.wmu.Lock()
	t.stdin.Close()
	t.wmu.Unlock()
	select {
	case <-t.exited:
		return
	case <-time.After(terminateAfter):
	}
	terminate(t.cmd.Process)
	select {
	case <-t.exited:
		return
	case <-time.After(terminateAfter):
	}
	_ = t.cmd.Process.Kill()
	<-t.exited
}
