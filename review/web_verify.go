// web_verify.go: the web page's button that runs the tests on the approved hunks (POST /api/verify), with progress as events.

package review

import (
	"context"
	"errors"
	"net/http"
	"strings"
)

// EventVerify is a step of a verify the page asked for (POST
// /api/verify), in Text.
const EventVerify = "verify"

// webVerifyView is the answer of POST /api/verify: pass or fail, the
// lines to show beside the summary, all of the output, and the ids of
// the items that break the tests.
type webVerifyView struct {
	Command  string   `json:"command"`
	Pass     bool     `json:"pass"`
	Lines    []string `json:"lines"`
	Output   string   `json:"output"`
	Culprits []string `json:"culprits"`
}

// errNeedCommand words ErrNoTestCommand for the page, which then asks
// for the command.
const errNeedCommand = "there is no test command: type the command that runs the tests (or set test_cmd in .pair.yml and trust it with pair trust)"

// asksCommand says the page asks for the test command: the Verifier takes
// one the person types (CommandVerifier, as the terminal's v asks for
// one) and has none but the one typed on the page. w.mu is held.
func (w *Web) asksCommand() bool {
	cv, ok := w.opts.Verifier.(CommandVerifier)
	return ok && (w.typed != "" || !cv.HasCommand())
}

// serveVerify runs the Verifier on the review's decisions as they are,
// publishing its progress as EventVerify, and answers with the outcome.
// One runs at a time; closing the page's request or the Web stops it.
// Command is the one the person typed, when the page asks for one
// (asksCommand); it is refused otherwise, so that the page never
// replaces the project's test command.
func (w *Web) serveVerify(rw http.ResponseWriter, req *http.Request) {
	var in struct {
		Review  int64  `json:"review"`
		Command string `json:"command"`
	}
	if err := readJSON(req, &in); err != nil {
		writeJSON(rw, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	command := strings.TrimSpace(in.Command)
	w.mu.Lock()
	r := w.review
	switch {
	case w.opts.Verifier == nil:
		w.mu.Unlock()
		writeJSON(rw, http.StatusNotFound, map[string]string{"error": "this session cannot run the tests"})
		return
	case r == nil || in.Review != w.revSer:
		w.mu.Unlock()
		writeJSON(rw, http.StatusConflict, map[string]string{"error": "this review is no longer waiting; reload the page"})
		return
	case w.verifying:
		w.mu.Unlock()
		writeJSON(rw, http.StatusConflict, map[string]string{"error": "the tests are running already"})
		return
	case len(r.Approved()) == 0:
		w.mu.Unlock()
		writeJSON(rw, http.StatusBadRequest, map[string]string{"error": "no hunk is approved: there is nothing to test"})
		return
	case command != "" && !w.asksCommand():
		w.mu.Unlock()
		writeJSON(rw, http.StatusBadRequest, map[string]string{"error": "the project's test command runs: the page cannot replace it"})
		return
	case strings.ContainsAny(command, "\r\n"):
		w.mu.Unlock()
		writeJSON(rw, http.StatusBadRequest, map[string]string{"error": "the test command is a single line"})
		return
	case command == "" && w.asksCommand() && w.typed == "":
		w.mu.Unlock()
		writeJSON(rw, http.StatusBadRequest, map[string]any{"error": errNeedCommand, "ask_command": true})
		return
	}
	if command != "" {
		// The command the person typed, as the terminal's v takes it.
		w.opts.Verifier.(CommandVerifier).SetCommand(command)
		w.typed = command
	}
	cp := r.Only(r.Approved()) // the decisions as they are now
	w.verifying = true
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		w.verifying = false
		w.mu.Unlock()
	}()
	ctx, cancel := context.WithCancel(req.Context())
	defer cancel()
	go func() {
		select {
		case <-w.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	res, err := w.opts.Verifier.Verify(ctx, cp, func(s string) { w.Publish(WebEvent{Kind: EventVerify, Text: s}) })
	switch {
	case errors.Is(err, context.Canceled):
		writeJSON(rw, http.StatusServiceUnavailable, map[string]string{"error": "the tests were stopped"})
		return
	case errors.Is(err, ErrNoTestCommand):
		w.mu.Lock()
		ask := w.asksCommand()
		w.mu.Unlock()
		msg := errNeedCommand
		if !ask {
			msg = "there is no test command: set test_cmd in .pair.yml and trust it with pair trust"
		}
		writeJSON(rw, http.StatusBadRequest, map[string]any{"error": msg, "ask_command": ask})
		return
	case err != nil:
		writeJSON(rw, http.StatusInternalServerError, map[string]string{"error": err.Error()})
		return
	}
	v := webVerifyView{Command: res.Command, Pass: res.Pass, Lines: res.Lines(cp, 12), Culprits: []string{}}
	v.Output = strings.Join(res.Lines(cp, -1)[1:], "\n")
	for _, i := range res.Culprits {
		v.Culprits = append(v.Culprits, cp.Items[i].ID)
	}
	w.Publish(WebEvent{Kind: EventVerify, Text: v.Lines[0]})
	writeJSON(rw, http.StatusOK, v)
}
