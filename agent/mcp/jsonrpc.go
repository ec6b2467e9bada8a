package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// errClosed is the error of a call on a connection that has ended.
var errClosed = errors.New("the connection is closed")

// maxMessage bounds one incoming message (a line, or an HTTP body or
// event).
const maxMessage = 64 << 20

// message is one JSON-RPC 2.0 message: a request (Method and ID), a
// notification (Method alone) or a response (ID with Result or Error).
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// rpcError is a JSON-RPC error answer.
type rpcError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%s (code %d)", e.Message, e.Code) }

// JSON-RPC error codes pair sends.
const codeMethodNotFound = -32601

// lostError is why the answer to a call will not come, though the
// connection goes on (a streamable HTTP server's event stream ended
// early). It counts as errClosed.
type lostError struct{ msg string }

func (e *lostError) Error() string        { return e.msg }
func (e *lostError) Is(target error) bool { return target == errClosed }

// malformedError is an answer pair cannot read.
type malformedError struct{ err error }

func (e *malformedError) Error() string { return e.err.Error() }
func (e *malformedError) Unwrap() error { return e.err }

// decodeMessages reads one JSON-RPC message, or a batch of them (a JSON
// array). Blank input is no message.
func decodeMessages(data []byte) ([]message, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, nil
	}
	if data[0] == '[' {
		var batch []message
		if err := json.Unmarshal(data, &batch); err != nil {
			return nil, err
		}
		return batch, nil
	}
	var m message
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	return []message{m}, nil
}

// messageID reads a response's id: pair sends numbers, and takes a
// number written as a string too.
func messageID(raw json.RawMessage) (int64, bool) {
	s := string(bytes.TrimSpace(raw))
	if len(s) >= 2 && s[0] == '"' {
		var err error
		if s, err = strconv.Unquote(s); err != nil {
			return 0, false
		}
	}
	id, err := strconv.ParseInt(s, 10, 64)
	return id, err == nil
}

// transport carries a connection's messages: it passes what it receives
// to the connection's handle, and calls end when it can carry no more.
type transport interface {
	// send delivers one message. id is the request's id, or 0 when the
	// message is not a request.
	send(ctx context.Context, msg []byte, id int64) error
	// close ends the connection and returns when it has ended.
	close()
}

// conn is a JSON-RPC connection: calls matched to their answers by id,
// the server's requests answered, its notifications ignored.
type conn struct {
	t      transport
	nextID atomic.Int64

	mu      sync.Mutex
	pending map[int64]chan *message

	endOnce sync.Once
	done    chan struct{} // closed when the connection has ended
	err     error         // why it ended, set before done is closed
}

func newConn() *conn {
	return &conn{pending: map[int64]chan *message{}, done: make(chan struct{})}
}

// end ends the connection for the reason err (nil: it closed as it
// should), failing the calls that wait.
func (c *conn) end(err error) {
	c.endOnce.Do(func() {
		c.err = err
		close(c.done)
	})
}

// handle takes a message the transport received.
func (c *conn) handle(data []byte) {
	msgs, err := decodeMessages(data)
	if err != nil {
		return // not JSON-RPC: a server's stray output is ignored
	}
	for i := range msgs {
		m := &msgs[i]
		switch {
		case m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null":
			go c.answer(m)
		case m.Method != "":
			// A notification (progress, logging, list changes): pair
			// does not use them.
		default:
			id, ok := messageID(m.ID)
			if !ok {
				continue
			}
			c.mu.Lock()
			ch := c.pending[id]
			delete(c.pending, id)
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		}
	}
}

// lost fails the call id, if it still waits, with err: the transport
// will not bring its answer.
func (c *conn) lost(id int64, err error) {
	c.mu.Lock()
	ch := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if ch != nil {
		ch <- &message{Error: &rpcError{Code: -1, Message: err.Error()}, Method: "lost"}
	}
}

// answer answers a server's request: ping, and "method not found" for
// the rest (pair offers no roots, sampling or elicitation).
func (c *conn) answer(req *message) {
	resp := message{JSONRPC: "2.0", ID: req.ID}
	if req.Method == "ping" {
		resp.Result = json.RawMessage(`{}`)
	} else {
		resp.Error = &rpcError{Code: codeMethodNotFound, Message: "method not found: " + req.Method}
	}
	b, err := json.Marshal(resp)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = c.t.send(ctx, b, 0)
}

// call sends a request and decodes its result into result. Its error is
// an *rpcError when the server refused, a *malformedError when its answer
// cannot be read, wraps errClosed when the connection ended, and is the
// context's error when ctx ended first (the server is then told, with
// notifications/cancelled).
func (c *conn) call(ctx context.Context, method string, params, result any) error {
	select {
	case <-c.done:
		return c.closedError()
	default:
	}
	id := c.nextID.Add(1)
	b, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      int64  `json:"id"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}{"2.0", id, method, params})
	if err != nil {
		return err
	}
	ch := make(chan *message, 1)
	c.mu.Lock()
	c.pending[id] = ch
	c.mu.Unlock()
	forget := func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}
	if err := c.t.send(ctx, b, id); err != nil {
		forget()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		select {
		case <-c.done:
			return c.closedError()
		default:
		}
		return err
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			if m.Method == "lost" {
				return &lostError{m.Error.Message}
			}
			return m.Error
		}
		if result != nil {
			if len(m.Result) == 0 {
				return &malformedError{errors.New("the answer has neither a result nor an error")}
			}
			if err := json.Unmarshal(m.Result, result); err != nil {
				return &malformedError{fmt.Errorf("cannot read the answer to %s: %w", method, err)}
			}
		}
		return nil
	case <-c.done:
		forget()
		return c.closedError()
	case <-ctx.Done():
		forget()
		if method != "initialize" {
			c.cancelled(id, ctx.Err())
		}
		return ctx.Err()
	}
}

// cancelled tells the server that pair no longer waits for request id.
func (c *conn) cancelled(id int64, why error) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = c.notify(ctx, "notifications/cancelled", map[string]any{"requestId": id, "reason": why.Error()})
	}()
}

func (c *conn) closedError() error {
	if c.err != nil {
		return fmt.Errorf("%w: %v", errClosed, c.err)
	}
	return errClosed
}

// notify sends a notification.
func (c *conn) notify(ctx context.Context, method string, params any) error {
	b, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}{"2.0", method, params})
	if err != nil {
		return err
	}
	return c.t.send(ctx, b, 0)
}
