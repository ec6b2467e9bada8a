package agenttest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
)

// HTTPClient returns an HTTP client that reaches the server in memory,
// without a socket, whatever the URL.
func (s *Server) HTTPClient() *http.Client {
	return &http.Client{Transport: &memoryTransport{h: s}}
}

// memoryTransport reaches a handler in memory: the handler writes into a
// pipe that is the body of the response, so that a stream arrives piece
// by piece and canceling the request's context stops it.
type memoryTransport struct {
	h http.Handler
}

func (m *memoryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	var body []byte
	if req.Body != nil {
		var err error
		body, err = io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
	}
	sreq := req.Clone(ctx)
	sreq.Body = io.NopCloser(bytes.NewReader(body))
	sreq.ContentLength = int64(len(body))
	sreq.RequestURI = req.URL.RequestURI()
	sreq.RemoteAddr = "127.0.0.1:0"
	sreq.Host = req.URL.Host

	pr, pw := io.Pipe()
	rw := &pipeWriter{header: make(http.Header), pw: pw, ready: make(chan struct{})}
	go func() {
		defer func() {
			rw.WriteHeader(http.StatusOK) // if the handler wrote nothing
			switch r := recover(); r {
			case nil:
				pw.Close()
			case http.ErrAbortHandler:
				pw.CloseWithError(io.ErrUnexpectedEOF)
			default:
				pw.CloseWithError(fmt.Errorf("replay: handler panicked: %v", r))
				panic(r)
			}
		}()
		m.h.ServeHTTP(rw, sreq)
	}()
	select {
	case <-rw.ready:
	case <-ctx.Done():
		pr.CloseWithError(ctx.Err())
		return nil, ctx.Err()
	}
	b := &pipeBody{pr: pr, ctx: ctx}
	// A canceled request ends the body with ctx.Err(), as net/http does,
	// and the handler's writes with an error.
	b.stop = context.AfterFunc(ctx, func() { pw.CloseWithError(ctx.Err()) })
	return &http.Response{
		Status:        fmt.Sprintf("%d %s", rw.code, http.StatusText(rw.code)),
		StatusCode:    rw.code,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        rw.sent,
		Body:          b,
		ContentLength: -1,
		Request:       req,
	}, nil
}

// pipeWriter is the http.ResponseWriter of memoryTransport.
type pipeWriter struct {
	header http.Header
	once   sync.Once
	ready  chan struct{} // closed when code and sent are set
	code   int
	sent   http.Header
	pw     *io.PipeWriter
}

func (w *pipeWriter) Header() http.Header { return w.header }

func (w *pipeWriter) WriteHeader(code int) {
	w.once.Do(func() {
		w.code = code
		w.sent = w.header.Clone()
		close(w.ready)
	})
}

func (w *pipeWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.pw.Write(p)
}

// Flush does nothing: every write reaches the reader as it is.
func (w *pipeWriter) Flush() {}

// pipeBody is the body of a response of memoryTransport.
type pipeBody struct {
	pr   *io.PipeReader
	ctx  context.Context
	stop func() bool
}

// Read reads the handler's answer, or fails with the request's context
// error once it is canceled, whether or not AfterFunc's close has run yet
// (net/http's body does the same).
func (b *pipeBody) Read(p []byte) (int, error) {
	if err := b.ctx.Err(); err != nil {
		return 0, err
	}
	return b.pr.Read(p)
}

func (b *pipeBody) Close() error {
	b.stop()
	return b.pr.Close()
}
