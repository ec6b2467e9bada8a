package console

import (
	"context"
	"os"
	"testing"
)

// TestSystemPipes: pipes are not terminals, so no keyboard and no
// colours, whatever the environment says.
func TestSystemPipes(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	io := System(r, w, w, func(string) string { return "" })
	if io.Keyboard != nil || io.Color || io.ErrColor || io.ErrTTY {
		t.Errorf("got %+v, want no terminal state for pipes", io)
	}
	if io.In != r || io.Out != w || io.Err != w {
		t.Errorf("the streams are not the ones given")
	}
}

func TestOutToErr(t *testing.T) {
	var a, b os.File
	io := IO{Out: &a, Err: &b, Color: true, ErrColor: false}.OutToErr()
	if io.Out != &b || io.Color {
		t.Errorf("got Out %p color %v, want standard error without colour", io.Out, io.Color)
	}
}

// TestInterrupterCatch: Ctrl-C cancels the caught context, not the
// command's; once done, it cancels the command's.
func TestInterrupterCatch(t *testing.T) {
	root, cancel := context.WithCancel(context.Background())
	defer cancel()
	irq := NewInterrupter(cancel)
	req, done := irq.Catch(root)
	irq.Interrupt()
	if req.Err() == nil || root.Err() != nil {
		t.Fatalf("after Ctrl-C in a request: request %v, command %v; want only the request canceled", req.Err(), root.Err())
	}
	done()
	irq.Interrupt()
	if root.Err() == nil {
		t.Fatal("Ctrl-C outside a request did not cancel the command")
	}
	var none *Interrupter
	c, stop := none.Catch(context.Background())
	stop()
	if c.Err() == nil {
		t.Error("a nil Interrupter's context is not canceled by its done")
	}
}
