package mcp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"
)

// errSessionGone is why a streamable HTTP connection ends when the
// server no longer knows its session.
var errSessionGone = errors.New("the server ended the session (HTTP 404)")

// streamable is the streamable HTTP transport: each message is POSTed,
// and the answer comes back as a JSON body or an event stream.
type streamable struct {
	c       *conn
	url     string
	headers map[string]string
	client  *http.Client

	mu      sync.Mutex
	session string // Mcp-Session-Id, once the server gave one
	version string // MCP-Protocol-Version, once negotiated

	streams sync.WaitGroup // readers of event streams
}

func dialStreamable(url string, headers map[string]string) *conn {
	c := newConn()
	c.t = &streamable{c: c, url: url, headers: headers, client: &http.Client{}}
	return c
}

func (t *streamable) setVersion(v string) {
	t.mu.Lock()
	t.version = v
	t.mu.Unlock()
}

func (t *streamable) request(ctx context.Context, method string, body []byte) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, t.url, rd)
	if err != nil {
		return nil, err
	}
	for k, v := range t.headers {
		req.Header.Set(k, v)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	t.mu.Lock()
	if t.session != "" {
		req.Header.Set("Mcp-Session-Id", t.session)
	}
	if t.version != "" {
		req.Header.Set("MCP-Protocol-Version", t.version)
	}
	t.mu.Unlock()
	return req, nil
}

func (t *streamable) send(ctx context.Context, msg []byte, id int64) error {
	select {
	case <-t.c.done:
		return t.c.closedError()
	default:
	}
	req, err := t.request(ctx, http.MethodPost, msg)
	if err != nil {
		return err
	}
	resp, err := t.client.Do(req)
	if err != nil {
		return err
	}
	if s := resp.Header.Get("Mcp-Session-Id"); s != "" {
		t.mu.Lock()
		if t.session == "" {
			t.session = s
		}
		t.mu.Unlock()
	}
	ctype, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case resp.StatusCode == http.StatusNotFound && req.Header.Get("Mcp-Session-Id") != "":
		resp.Body.Close()
		t.c.end(errSessionGone)
		return t.c.closedError()
	case resp.StatusCode >= 300:
		text, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		resp.Body.Close()
		msg := resp.Status
		if s := strings.TrimSpace(string(text)); s != "" {
			msg += ": " + oneLine(s, 200)
		}
		return errors.New(msg)
	case resp.StatusCode == http.StatusAccepted || resp.StatusCode == http.StatusNoContent || id == 0 && ctype == "":
		resp.Body.Close()
		if id != 0 {
			return fmt.Errorf("the server accepted the request but sent no answer (%s)", resp.Status)
		}
		return nil
	case ctype == "text/event-stream":
		t.streams.Add(1)
		go func() {
			defer t.streams.Done()
			defer resp.Body.Close()
			err := readEvents(resp.Body, t.c.handle)
			if id != 0 {
				if err == nil {
					err = errors.New("the server's event stream ended without the answer")
				}
				t.c.lost(id, err)
			}
		}()
		return nil
	case ctype == "application/json":
		defer resp.Body.Close()
		body, err := io.ReadAll(io.LimitReader(resp.Body, maxMessage))
		if err != nil {
			return err
		}
		t.c.handle(body)
		if id != 0 {
			t.c.lost(id, errors.New("the server's answer was for another request"))
		}
		return nil
	}
	resp.Body.Close()
	return fmt.Errorf("the server answered with %q, not JSON or an event stream", resp.Header.Get("Content-Type"))
}

// close ends the session (DELETE, which a server may refuse) and the
// connection.
func (t *streamable) close() {
	t.mu.Lock()
	session := t.session
	t.mu.Unlock()
	t.c.end(nil)
	if session != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		if req, err := t.request(ctx, http.MethodDelete, nil); err == nil {
			if resp, err := t.client.Do(req); err == nil {
				resp.Body.Close()
			}
		}
		cancel()
	}
	t.client.CloseIdleConnections()
	done := make(chan struct{})
	go func() {
		t.streams.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Second): // a stream whose call has gone ends with its context
	}
}

// readEvents reads a server-sent event stream, passing the data of each
// message event to fn. Comments, retry and id lines, and events of
// other types are skipped. The error is nil at the end of the stream.
func readEvents(r io.Reader, fn func([]byte)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxMessage)
	sc.Split(scanEventLines)
	var data []byte
	var event string
	dispatch := func() {
		if len(data) > 0 && (event == "" || event == "message") {
			fn(data)
		}
		data, event = nil, ""
	}
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			dispatch()
			continue
		}
		if line[0] == ':' {
			continue
		}
		name, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(name) {
		case "data":
			if data != nil {
				data = append(data, '\n')
			}
			data = append(data, value...)
			if len(data) > maxMessage {
				return fmt.Errorf("an event longer than %d MiB", maxMessage>>20)
			}
		case "event":
			event = string(value)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	dispatch()
	return nil
}

// scanEventLines splits an event stream into lines ended by "\r\n",
// "\n" or "\r".
func scanEventLines(data []byte, atEOF bool) (int, []byte, error) {
	i := bytes.IndexAny(data, "\r\n")
	switch {
	case i < 0 && atEOF && len(data) > 0:
		return len(data), data, nil
	case i < 0:
		return 0, nil, nil
	case data[i] == '\n':
		return i + 1, data[:i], nil
	case i+1 < len(data):
		if data[i+1] == '\n' {
			return i + 2, data[:i], nil
		}
		return i + 1, data[:i], nil
	case atEOF:
		return i + 1, data[:i], nil
	}
	return 0, nil, nil // a "\r" at the end: wait to see whether "\n" follows
}
