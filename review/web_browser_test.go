package review_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/review"
	"github.com/pair-cli/pair/review/webtest"
)

// browser starts a headless Chromium for the test (see webtest).
func browser(t *testing.T) context.Context {
	t.Helper()
	return webtest.Browser(t)
}

// browse runs browser actions, failing the test with what was being done.
func browse(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// get runs one browser action and returns its value.
func get[T any](t *testing.T, ctx context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// waitJS waits until a JavaScript expression is true in the page.
func waitJS(expr string) chromedp.Action[chromedp.Void] {
	return webtest.Until(expr)
}

// openReview opens the page and waits for the fixture's six hunks.
func openReview(t *testing.T, ctx context.Context, w *review.Web) {
	t.Helper()
	browse(t, ctx, "see the review",
		chromedp.Navigate(w.URL()),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="6"]`)),
	)
}

// screenshot writes the page to $PAIR_WEB_SCREENSHOT, with suffix before
// its extension, when it is set: to look at the page.
func screenshot(t *testing.T, ctx context.Context, suffix string) {
	t.Helper()
	shot := os.Getenv("PAIR_WEB_SCREENSHOT")
	if shot == "" {
		return
	}
	if suffix != "" {
		ext := filepath.Ext(shot)
		shot = strings.TrimSuffix(shot, ext) + suffix + ext
	}
	png := get(t, ctx, "screenshot", chromedp.FullScreenshot(100))
	if err := os.WriteFile(shot, png, 0o644); err != nil {
		t.Errorf("screenshot: %v", err)
	}
}

// wantDecided checks the decisions and notes of a submitted review.
func wantDecided(t *testing.T, r *review.Review, decided, wantNotes string) {
	t.Helper()
	if got := strings.NewReplacer("[", "", "]", "").Replace(state(r)); got != decided {
		t.Errorf("decisions: got %s, want %s", got, decided)
	}
	if got := notes(r); got != wantNotes {
		t.Errorf("notes: got %q, want %q", got, wantNotes)
	}
}

// TestWebBrowser drives the page in a real headless Chromium: it sends a
// message, sees streamed tokens and the action log, approves, rejects
// with a note and always-approves hunks of a review placed from a real
// patch, and submits.
func TestWebBrowser(t *testing.T) {
	ctx := browser(t)
	w := newWeb(t)
	r := fixture(t)

	browse(t, ctx, "open the page",
		chromedp.Navigate(w.URL()),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`)),
	)
	loc := get(t, ctx, "read the location", chromedp.Location())
	title := get(t, ctx, "read the title", chromedp.Title())
	if want := fmt.Sprintf("http://127.0.0.1:%d/", w.Port()); loc != want || title != "pair test" {
		t.Errorf("page: got %q titled %q, want %q (no token left in the address bar) titled %q", loc, title, want, "pair test")
	}

	// A message typed in the page reaches Messages and shows.
	browse(t, ctx, "send a message",
		chromedp.SendKeys(chromedp.CSS(`[data-input]`), "please fix the division"),
		chromedp.Click(chromedp.CSS(`[data-action="send"]`)),
	)
	select {
	case m := <-w.Messages():
		if m != "please fix the division" {
			t.Errorf("Messages: got %q, want the typed message", m)
		}
	case <-ctx.Done():
		t.Fatal("Messages: the typed message did not come")
	}
	browse(t, ctx, "see the message",
		waitJS(`document.querySelector('.msg[data-role="user"] .text')?.textContent === "please fix the division"`),
		waitJS(`document.querySelector('[data-input]').value === ""`),
	)
	// Enter sends too.
	browse(t, ctx, "send with Enter", chromedp.SendKeys(chromedp.CSS(`[data-input]`), "and add a test"+kb.Enter))
	select {
	case m := <-w.Messages():
		if m != "and add a test" {
			t.Errorf("Messages: got %q, want the second message", m)
		}
	case <-ctx.Done():
		t.Fatal("Messages: the message sent with Enter did not come")
	}

	// The model works and streams its reply.
	w.SetStatus("working")
	browse(t, ctx, "see the model working", chromedp.WaitVisible(chromedp.CSS(`#status[data-status="working"] .spinner`)))
	for _, tok := range []string{"Sure, ", "here is ", "a <b>fix</b>."} {
		w.Publish(review.WebEvent{Kind: review.EventToken, Text: tok})
	}
	browse(t, ctx, "see the streamed tokens",
		waitJS(`(() => { const m = document.querySelector('.msg[data-role="assistant"]');
			return m && m.dataset.streaming === "true" && m.querySelector('.text').textContent === "Sure, here is a <b>fix</b>."; })()`),
	)
	w.Publish(review.WebEvent{Kind: review.EventLog, Text: "read_file calc.go"})
	w.SetStatus("idle")
	browse(t, ctx, "see the log and the end of the stream",
		waitJS(`document.querySelector('#log li')?.textContent.endsWith("read_file calc.go")`),
		waitJS(`document.querySelector('.msg[data-role="assistant"]').dataset.streaming === "false"`),
		waitJS(`document.querySelector('#status').dataset.status === "idle"`),
		// The model's text is text, never markup.
		waitJS(`document.querySelector('.msg[data-role="assistant"] b') === null`),
	)

	// The review.
	done, _ := startReview(t, context.Background(), w, r)
	browse(t, ctx, "see the review",
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="6"]`)),
		waitJS(`document.querySelectorAll('[data-hunk-id]').length === 6`),
	)
	where := get(t, ctx, "read hunk 1", chromedp.Text(chromedp.CSS(`[data-hunk-id="1"] .where`)))
	placement := get(t, ctx, "read hunk 1", chromedp.Text(chromedp.CSS(`[data-hunk-id="1"] .placement`)))
	firstAdd := get(t, ctx, "read hunk 1", chromedp.TextContent(chromedp.CSS(`[data-hunk-id="1"] .ln.add`)))
	adds := get(t, ctx, "read hunk 3", chromedp.Evaluate[int](`document.querySelectorAll('[data-hunk-id="3"] .ln.add').length`))
	if where != "calc.go lines 6-12" || placement != "placed: exact" || firstAdd != `+var ErrDivide = errors.New("calc: divide by zero")` || adds != 5 {
		t.Errorf("hunk 1: got %q, %q, %q and %d added lines in hunk 3; want calc.go lines 6-12, placed: exact, the new ErrDivide, 5", where, placement, firstAdd, adds)
	}

	browse(t, ctx, "approve hunk 1",
		chromedp.Click(chromedp.CSS(`[data-hunk-id="1"] [data-action="approve"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="1"][data-decision="approved"]`)),
	)
	browse(t, ctx, "reject hunk 2 with a note",
		chromedp.SendKeys(chromedp.CSS(`[data-note-for="2"]`), "keep ErrDivide comparable"),
		chromedp.Click(chromedp.CSS(`[data-hunk-id="2"] [data-action="reject"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="2"][data-decision="rejected"]`)),
	)
	browse(t, ctx, "always approve util/strings.go at hunk 4",
		chromedp.Click(chromedp.CSS(`[data-hunk-id="4"] [data-action="always"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="5"][data-decision="approved"]`)),
	)
	browse(t, ctx, "approve hunk 3", chromedp.Click(chromedp.CSS(`[data-hunk-id="3"] [data-action="approve"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="3"][data-decision="approved"]`)),
	)
	hint := get(t, ctx, "read the submit hint", chromedp.Text(chromedp.CSS(`#submit-hint`)))
	if !strings.Contains(hint, "1 hunk still undecided") {
		t.Errorf("submit hint: got %q, want it to say one hunk is undecided", hint)
	}
	browse(t, ctx, "approve hunk 6", chromedp.Click(chromedp.CSS(`[data-hunk-id="6"] [data-action="approve"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="6"][data-decision="approved"]`)),
	)
	screenshot(t, ctx, "")
	browse(t, ctx, "submit", chromedp.Click(chromedp.CSS(`[data-action="submit"]`)))
	if err := waitErr(t, done); err != nil {
		t.Fatalf("Review: got %v, want nil after the submit", err)
	}
	browse(t, ctx, "see the review gone",
		chromedp.WaitNotVisible(chromedp.CSS(`#review`)),
		waitJS(`document.querySelector('#notice').textContent.startsWith("submitted: 5 approved, 1 rejected")`),
	)

	// A command the model wants to run: denied with a note.
	type answer struct {
		yes  bool
		note string
		err  error
	}
	answered := make(chan answer, 1)
	go func() {
		yes, note, err := w.Confirm(context.Background(), "The model wants to run a command", "rm -rf build")
		answered <- answer{yes, note, err}
	}()
	browse(t, ctx, "deny the command",
		chromedp.WaitVisible(chromedp.CSS(`#question [data-action="deny"]`)),
		waitJS(`document.querySelector('#question pre').textContent === "rm -rf build"`),
		chromedp.SendKeys(chromedp.CSS(`[data-note-for="question"]`), "not the build dir"),
		chromedp.Click(chromedp.CSS(`#question [data-action="deny"]`)),
		chromedp.WaitNotVisible(chromedp.CSS(`#question`)),
	)
	select {
	case a := <-answered:
		if a.yes || a.note != "not the build dir" || a.err != nil {
			t.Errorf("Confirm: got %+v, want no with the note", a)
		}
	case <-ctx.Done():
		t.Fatal("Confirm did not return")
	}

	if got := strings.NewReplacer("[", "", "]", "").Replace(state(r)); got != "1=y 2=n 3=y 4=y 5=y 6=y" {
		t.Errorf("decisions: got %s, want 1=y 2=n 3=y 4=y 5=y 6=y", got)
	}
	if got := notes(r); got != "2:keep ErrDivide comparable" {
		t.Errorf("notes: got %q, want the note typed for hunk 2", got)
	}
	if len(r.Grants) != 1 || r.Grants[0] != "util/strings.go" {
		t.Errorf("grants: got %v, want [util/strings.go]", r.Grants)
	}
	if got := results(t, r); got["calc.go"] != with(t, calcOld, change1, change3) || got["util/strings.go"] != stringsNew || got["README.md"] != readmeNew {
		t.Errorf("results: got %d files, not calc.go without hunk 2 and the others whole", len(got))
	}
}

// TestWebBrowserSplitEdit drives the split and the edit of hunks in a
// real headless Chromium: it splits a hunk and decides its pieces apart,
// has a bad edit refused next to its hunk, saves a good one, and submits.
func TestWebBrowserSplitEdit(t *testing.T) {
	ctx := browser(t)
	w := newWeb(t)
	r := fixture(t)
	done, _ := startReview(t, context.Background(), w, r)

	openReview(t, ctx, w)
	splits := get(t, ctx, "find the split buttons", chromedp.Evaluate[[]string](
		`[...document.querySelectorAll('[data-action="split"]')].map((b) => b.closest('[data-hunk-id]').dataset.hunkId)`))
	if len(splits) != 1 || splits[0] != "2" {
		t.Errorf("split buttons: got them on hunks %v, want on hunk 2 only", splits)
	}

	browse(t, ctx, "split hunk 2",
		chromedp.Click(chromedp.CSS(`[data-hunk-id="2"] [data-action="split"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="2.2"]`)),
		waitJS(`document.querySelectorAll('[data-hunk-id]').length === 7`),
		waitJS(`document.querySelector('[data-hunk-id="2"]') === null`),
	)
	piece := get(t, ctx, "read piece 2.2", chromedp.TextContent(chromedp.CSS(`[data-hunk-id="2.2"] .ln.add`)))
	if want := `+		return 0, fmt.Errorf("div %d: %w", a, ErrDivide)`; piece != want {
		t.Errorf("piece 2.2: got added line %q, want %q", piece, want)
	}
	browse(t, ctx, "approve piece 2.1 and reject piece 2.2",
		chromedp.Click(chromedp.CSS(`[data-hunk-id="2.1"] [data-action="approve"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="2.1"][data-decision="approved"]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-note-for="2.2"]`), "not yet"),
		chromedp.Click(chromedp.CSS(`[data-hunk-id="2.2"] [data-action="reject"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="2.2"][data-decision="rejected"]`)),
	)

	const added = `+var ErrDivide = errors.New("calc: divide by zero")`
	browse(t, ctx, "open the editor of hunk 1",
		chromedp.Click(chromedp.CSS(`[data-hunk-id="1"] [data-action="edit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-edit-for="1"]`)),
	)
	text := get(t, ctx, "read the editor", chromedp.Value(chromedp.CSS(`[data-edit-for="1"]`)))
	if want, err := fixture(t).EditText(); err != nil || text != want {
		t.Fatalf("editor: got %q, want EditText's %q (error %v)", text, want, err)
	}
	// A changed context line is refused, next to the hunk; the editor
	// stays open with the text.
	bad := strings.Replace(text, " // ErrDivide is returned", " // ErrDiv is returned", 1)
	browse(t, ctx, "save a bad edit",
		chromedp.SetValue(chromedp.CSS(`[data-edit-for="1"]`), bad),
		chromedp.Click(chromedp.CSS(`[data-hunk-id="1"] [data-action="save-edit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="1"] [data-error-for="1"]`)),
	)
	msg := get(t, ctx, "read the error", chromedp.Text(chromedp.CSS(`[data-error-for="1"]`)))
	if !strings.Contains(msg, "must stay the file's own lines") {
		t.Errorf("error of the bad edit: got %q, want it to say the file's lines must stay", msg)
	}
	if kept := get(t, ctx, "read the editor", chromedp.Value(chromedp.CSS(`[data-edit-for="1"]`))); kept != bad {
		t.Errorf("editor after the refusal: got %q, want the text as typed", kept)
	}
	if it := item(t, r, "1"); it.Decision != audit.Undecided {
		t.Errorf("hunk 1 after the bad edit: got %s, want undecided", it.Decision)
	}

	good := strings.Replace(text, added, `+var ErrDivide = errors.New("calc: cannot divide by zero")`, 1)
	browse(t, ctx, "save a good edit",
		chromedp.SetValue(chromedp.CSS(`[data-edit-for="1"]`), good),
		chromedp.Click(chromedp.CSS(`[data-hunk-id="1"] [data-action="save-edit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="1"][data-decision="edited"]`)),
		waitJS(`document.querySelector('[data-edit-for="1"]') === null && document.querySelector('[data-error-for="1"]') === null`),
	)
	line := get(t, ctx, "read hunk 1", chromedp.TextContent(chromedp.CSS(`[data-hunk-id="1"] .ln.add`)))
	if want := `+var ErrDivide = errors.New("calc: cannot divide by zero")`; line != want {
		t.Errorf("hunk 1 after the edit: got added line %q, want %q", line, want)
	}

	// Cancel closes an editor and changes nothing.
	browse(t, ctx, "open and cancel the editor of hunk 3",
		chromedp.Click(chromedp.CSS(`[data-hunk-id="3"] [data-action="edit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-edit-for="3"]`)),
		chromedp.Click(chromedp.CSS(`[data-hunk-id="3"] [data-action="cancel-edit"]`)),
		waitJS(`document.querySelector('[data-edit-for="3"]') === null`),
		chromedp.Click(chromedp.CSS(`[data-hunk-id="3"] [data-action="approve"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="3"][data-decision="approved"]`)),
	)

	browse(t, ctx, "submit", chromedp.Click(chromedp.CSS(`[data-action="submit"]`)))
	if err := waitErr(t, done); err != nil {
		t.Fatalf("Review: got %v, want nil after the submit", err)
	}
	wantDecided(t, r, "1=e 2.1=y 2.2=n 3=y 4=n 5=n 6=n", "2.2:not yet")
	edited := change{`errors.New("divide by zero")`, `errors.New("calc: cannot divide by zero")`}
	if got := results(t, r); got["calc.go"] != with(t, calcOld, edited, change2a, change3) || len(got) != 1 {
		t.Errorf("results: got %d files, calc.go %q; want calc.go with the edit, change 2a and change 3", len(got), got["calc.go"])
	}
}

// TestWebBrowserDecisionDrawnOnce: in a real Chromium, the page draws a
// decision of its own once, from the answer to its post; the event the
// decision publishes does not fetch and draw the review again (a late
// redraw replaced the buttons under the pointer, and a click pressed on
// one and released on its copy was lost). A change made elsewhere, as in
// another tab, is still fetched and shown.
func TestWebBrowserDecisionDrawnOnce(t *testing.T) {
	ctx := browser(t)
	w := newWeb(t)
	r := fixture(t)
	done, serial := startReview(t, context.Background(), w, r)
	openReview(t, ctx, w)
	// Each hunk says why it goes there: the rules of its trace, with
	// what they say, under "why here".
	rule := string(item(t, r, "1").Hunk.Rules[0])
	browse(t, ctx, "see why hunk 1 goes there",
		chromedp.Click(chromedp.CSS(`[data-hunk-id="1"] details.rules summary`)),
		waitJS(`document.querySelector('[data-hunk-id="1"] details.rules [data-rule="`+rule+`"]')?.textContent.startsWith("`+rule+`: ")`))
	// The page calls fetch when it calls it: count its fetches of the
	// state from now on.
	get(t, ctx, "count the fetches of the state", chromedp.Evaluate[bool](`(() => {
		window.stateFetches = 0;
		const f = window.fetch;
		window.fetch = (p, init) => {
			if (String(p).startsWith("/api/state")) window.stateFetches++;
			return f(p, init);
		};
		return true;
	})()`))
	browse(t, ctx, "approve hunk 1",
		chromedp.Click(chromedp.CSS(`[data-hunk-id="1"] [data-action="approve"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="1"][data-decision="approved"]`)),
	)
	// Events come in order: once this one shows, the decision's has
	// been handled.
	w.Publish(review.WebEvent{Kind: review.EventLog, Text: "after the decision"})
	browse(t, ctx, "see the event after the decision",
		waitJS(`document.querySelector('#log li:last-child')?.textContent.endsWith("after the decision")`))
	if code, body := send(t, w, request{method: "POST", path: "/api/decisions", body: decisions(serial, false, "2=reject")}); code != 200 {
		t.Fatalf("POST /api/decisions from elsewhere: got %d %s, want 200", code, body)
	}
	browse(t, ctx, "see the decision made elsewhere",
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="2"][data-decision="rejected"]`)))
	if n := get(t, ctx, "read the count", chromedp.Evaluate[int](`window.stateFetches`)); n != 1 {
		t.Errorf("fetches of the state: got %d, want 1 (for the decision made elsewhere, none for the page's own)", n)
	}
	browse(t, ctx, "submit", chromedp.Click(chromedp.CSS(`[data-action="submit"]`)))
	if err := waitErr(t, done); err != nil {
		t.Fatalf("Review: got %v, want nil after the submit", err)
	}
}

// TestWebBrowserHostileText: in a real Chromium, a hunk whose line holds
// escape sequences and a bidi override, in a file whose name holds one,
// shows every line, escaped, with the marker, and the name escaped.
func TestWebBrowserHostileText(t *testing.T) {
	ctx := browser(t)
	w := newWeb(t)
	r := review.New(mustPlace(t, hostilePatch), nil)
	browse(t, ctx, "open the page",
		chromedp.Navigate(w.URL()),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`)),
	)
	done, _ := startReview(t, context.Background(), w, r)
	browse(t, ctx, "see the review", chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="1"]`)))
	lines := get(t, ctx, "read the lines", chromedp.Evaluate[[]string](
		`[...document.querySelectorAll('[data-hunk-id="1"] .ln')].map((l) => l.textContent + (l.dataset.marked ? " [marked]" : ""))`))
	want := []string{
		"+rm -rf ~ # evil",
		"+# ok^[[1A^[[2K^[[32m+harmless change ⚠ control characters [marked]",
		`+flip \u202eexe.txt\xff ⚠ control characters [marked]`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines: got %q, want %q", lines, want)
	}
	head := get(t, ctx, "read the file name", chromedp.TextContent(chromedp.CSS(`.file-head`)))
	where := get(t, ctx, "read where", chromedp.TextContent(chromedp.CSS(`[data-hunk-id="1"] .where`)))
	if !strings.HasPrefix(head, "run^[[2K.sh (⚠ control characters)") || where != "run^[[2K.sh (⚠ control characters) (new, 3 lines)" {
		t.Errorf("name: got heading %q and %q, want the name escaped and marked", head, where)
	}
	page := get(t, ctx, "read the page", chromedp.Evaluate[string](`document.body.textContent`))
	for _, bad := range []string{"\x1b", "\u202e"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page's text holds %q raw", bad)
		}
	}
	browse(t, ctx, "approve and submit",
		chromedp.Click(chromedp.CSS(`[data-hunk-id="1"] [data-action="approve"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="1"][data-decision="approved"]`)),
		chromedp.Click(chromedp.CSS(`[data-action="submit"]`)),
	)
	if err := waitErr(t, done); err != nil {
		t.Fatalf("Review: got %v, want nil after the submit", err)
	}
	if got := results(t, r)["run\x1b[2K.sh"]; got != "rm -rf ~ # evil\n# ok\x1b[1A\x1b[2K\x1b[32m+harmless change\nflip \u202eexe.txt\xff\n" {
		t.Errorf("result: got %q, want the patch's bytes", got)
	}
}

// TestWebBrowserInvisibleAndChanges: in a real Chromium, invisible
// letters and a lookalike letter show as their code points with their
// marker; a mode change of an always-approved file is asked, says why,
// and the summary before submitting names it.
func TestWebBrowserInvisibleAndChanges(t *testing.T) {
	ctx := browser(t)
	w := newWeb(t)
	mode := "diff --git a/notes.txt b/notes.txt\nold mode 100644\nnew mode 100755\n--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1,3 @@\n-one\n+#!/bin/sh\n two\n three\n"
	r := review.New(mustPlace(t, invisiblePatch+mode), []string{"notes.txt"})
	browse(t, ctx, "open the page",
		chromedp.Navigate(w.URL()),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`)),
	)
	done, _ := startReview(t, context.Background(), w, r)
	browse(t, ctx, "see the review", chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="2"]`)))
	lines := get(t, ctx, "read the lines", chromedp.Evaluate[[]string](
		`[...document.querySelectorAll('[data-hunk-id="1"] .ln')].map((l) => l.textContent + (l.dataset.marked ? " [marked]" : ""))`))
	want := []string{
		`+const { timeout,\u3164} = req.query; ⚠ invisible characters [marked]`,
		`+exec(cmd,\u2800x) ⚠ invisible characters [marked]`,
		`+if (role === 'admin\ufe0f') {} ⚠ invisible characters [marked]`,
		`+if (p\u0430ssword === 'пароль') {} ⚠ lookalike letters [marked]`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines: got %q, want %q", lines, want)
	}
	page := get(t, ctx, "read the page", chromedp.Evaluate[string](`document.body.textContent`))
	for _, bad := range []string{"\u3164", "\u2800", "\ufe0f", "pаss"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page's text holds %q raw", bad)
		}
	}
	head := get(t, ctx, "read the heading", chromedp.TextContent(chromedp.CSS(`.file-head[data-file="notes.txt"] .action`)))
	why := get(t, ctx, "read why it is asked", chromedp.TextContent(chromedp.CSS(`[data-hunk-id="2"] .not-covered`)))
	if head != "mode 100644 → 100755" || !strings.Contains(why, "not this change (mode 100644 → 100755)") {
		t.Errorf("mode change: got heading %q and %q, want it named and the grant not to cover it", head, why)
	}
	browse(t, ctx, "approve both",
		chromedp.Click(chromedp.CSS(`[data-hunk-id="1"] [data-action="approve"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="1"][data-decision="approved"]`)),
		chromedp.Click(chromedp.CSS(`[data-hunk-id="2"] [data-action="approve"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="2"][data-decision="approved"]`)),
	)
	summary := get(t, ctx, "read the summary", chromedp.Evaluate[[]string](`[...document.querySelectorAll('#file-summary li')].map((l) => l.textContent)`))
	if want := []string{"auth.js 1 approved", "notes.txt 1 approved (mode 100644 → 100755)"}; strings.Join(summary, "\n") != strings.Join(want, "\n") {
		t.Errorf("summary: got %q, want %q", summary, want)
	}
	browse(t, ctx, "submit", chromedp.Click(chromedp.CSS(`[data-action="submit"]`)))
	if err := waitErr(t, done); err != nil {
		t.Fatalf("Review: got %v, want nil after the submit", err)
	}
}

// hunkState reads the decisions shown in the page, "id=decision" each,
// the highlighted hunk (the one the keys act on) in brackets.
const hunkState = `[...document.querySelectorAll('[data-hunk-id]')].map((h) => {
	const s = h.dataset.hunkId + "=" + h.dataset.decision;
	return h.dataset.current === "true" ? "[" + s + "]" : s;
}).join(" ")`

// TestWebBrowserMarkdown: in a real Chromium, the model's reply shows as
// rendered Markdown: emphasis, inline code, a list, a fenced code block
// in monospace with its indentation and no wrapping, and a fenced diff
// with a link to its file's hunk cards. HTML in the reply shows as text
// and never runs, and a javascript: link is not a link.
func TestWebBrowserMarkdown(t *testing.T) {
	ctx := browser(t)
	w := newWeb(t)
	r := fixture(t)
	browse(t, ctx, "open the page",
		chromedp.Navigate(w.URL()),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`)),
	)
	reply := "I'll fix **Div** in `calc.go`.\n\n" +
		"<script>window.pwned = 1</script><img src=x onerror=\"window.pwned = 2\">\n\n" +
		"- first *point*\n- second, see [the docs](https://go.dev/doc/) and [this](javascript:window.pwned=3)\n\n" +
		"```go\nfunc Div(a, b int) (int, error) {\n\tif b == 0 {\n\t\treturn 0, ErrDivide // " + strings.Repeat("a long comment that must not wrap ", 8) + "\n\t}\n}\n```\n\n" +
		"```diff\n--- a/calc.go\n+++ b/calc.go\n@@ -6,3 +6,3 @@\n-var ErrDivide = errors.New(\"divide by zero\")\n+var ErrDivide = errors.New(\"calc: divide by zero\")\n```\n"
	w.Publish(review.WebEvent{Kind: review.EventMessage, Role: "assistant", Text: reply})
	const msg = `document.querySelector('.msg[data-role="assistant"] .text')`
	browse(t, ctx, "see the reply", waitJS(msg+`?.querySelector('pre.md-diff') != null`))

	type shown struct {
		Strong, Code, Em string
		Items            int
		Pwned            bool
		Markup           int
		Text             string
		Links            []string
		Block            string
		Font, WhiteSpace string
		Overflows        bool
		DiffLines, Files []string
	}
	got := get(t, ctx, "read the reply", chromedp.Evaluate[shown](`(() => {
		const m = `+msg+`;
		const block = m.querySelector('pre.md-code:not(.md-diff)');
		const code = block.querySelector('code');
		return {
			Strong: m.querySelector('p strong')?.textContent,
			Code: m.querySelector('p code')?.textContent,
			Em: m.querySelector('li em')?.textContent,
			Items: m.querySelectorAll('ul li').length,
			Pwned: window.pwned !== undefined,
			Markup: m.querySelectorAll('script, img, [onerror]').length,
			Text: m.textContent,
			Links: [...m.querySelectorAll('a[href]:not([data-goto-file])')].map((a) => a.href + " " + a.rel),
			Block: code.textContent,
			Font: getComputedStyle(code).fontFamily,
			WhiteSpace: getComputedStyle(code).whiteSpace,
			Overflows: block.scrollWidth > block.clientWidth,
			DiffLines: [...m.querySelectorAll('pre.md-diff .ln')].map((l) => l.className + ":" + l.textContent),
			Files: [...m.querySelectorAll('[data-goto-file]')].map((a) => a.dataset.gotoFile),
		};
	})()`))
	if got.Strong != "Div" || got.Code != "calc.go" || got.Em != "point" || got.Items != 2 {
		t.Errorf("inline: got strong %q, code %q, em %q and %d items; want Div, calc.go, point and 2", got.Strong, got.Code, got.Em, got.Items)
	}
	if got.Pwned || got.Markup != 0 || !strings.Contains(got.Text, `<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">`) {
		t.Errorf("HTML in the reply: ran %v, %d elements made of it; want it shown as text, never run", got.Pwned, got.Markup)
	}
	if len(got.Links) != 1 || got.Links[0] != "https://go.dev/doc/ noopener noreferrer" || !strings.Contains(got.Text, "this (javascript:window.pwned=3)") {
		t.Errorf("links: got %q, want only the https one live, the javascript: one as text", got.Links)
	}
	if want := "func Div(a, b int) (int, error) {\n\tif b == 0 {\n\t\treturn 0, ErrDivide"; !strings.HasPrefix(got.Block, want) {
		t.Errorf("code block: got %q, want it to start %q", got.Block, want)
	}
	if !strings.Contains(got.Font, "monospace") || got.WhiteSpace != "pre" || !got.Overflows {
		t.Errorf("code block: font %q, white-space %q, scrolls %v; want monospace, pre (no wrapping), scrolling sideways", got.Font, got.WhiteSpace, got.Overflows)
	}
	if want := []string{"ln hdr:--- a/calc.go", "ln hdr:+++ b/calc.go", "ln hdr:@@ -6,3 +6,3 @@",
		`ln del:-var ErrDivide = errors.New("divide by zero")`, `ln add:+var ErrDivide = errors.New("calc: divide by zero")`}; strings.Join(got.DiffLines, "\n") != strings.Join(want, "\n") {
		t.Errorf("diff: got %q, want %q", got.DiffLines, want)
	}
	if len(got.Files) != 1 || got.Files[0] != "calc.go" {
		t.Errorf("diff links: got %q, want one to calc.go", got.Files)
	}

	// Marks inside words and code are text; a fence still open while
	// the reply streams is code already.
	for _, tok := range []string{"snake_case_name, 2 * 3 * 4 and `a*b*c`\n\n", "```sh\n", "  go test ./...\n"} {
		w.Publish(review.WebEvent{Kind: review.EventToken, Text: tok})
	}
	const streamed = `document.querySelector('.msg[data-role="assistant"][data-streaming="true"] .text')`
	browse(t, ctx, "see the streamed reply",
		waitJS(streamed+`?.querySelector('pre.md-code code')?.textContent === "  go test ./...\n"`))
	text := get(t, ctx, "read the streamed reply", chromedp.Evaluate[string](streamed+`.querySelector('p').innerHTML`))
	if want := "snake_case_name, 2 * 3 * 4 and <code>a*b*c</code>"; text != want {
		t.Errorf("streamed reply: got %q, want %q", text, want)
	}
	screenshot(t, ctx, "-markdown")

	// The diff's link goes to its file's hunk cards.
	done, serial := startReview(t, context.Background(), w, r)
	browse(t, ctx, "see the review, go to hunk 4 and follow the link to calc.go",
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="6"]`)),
		chromedp.Click(chromedp.CSS(`[data-hunk-id="4"] .where`)),
		chromedp.KeyEvent("j"),
		waitJS(`document.querySelector('[data-hunk-id="5"]').dataset.current === "true"`),
		chromedp.Click(chromedp.CSS(`[data-goto-file="calc.go"]`)),
		waitJS(`document.querySelector('[data-hunk-id="1"]').dataset.current === "true"`),
	)
	if code, body := send(t, w, request{method: "POST", path: "/api/decisions", body: decisions(serial, true)}); code != 200 {
		t.Fatalf("POST /api/decisions: got %d %s, want 200", code, body)
	}
	if err := waitErr(t, done); err != nil {
		t.Fatal(err)
	}
}

// TestWebBrowserKeys: in a real Chromium, the review keys decide and move
// as the terminal's do, not while a note is typed; ? shows them, and
// Enter submits once every hunk is decided.
func TestWebBrowserKeys(t *testing.T) {
	ctx := browser(t)
	w := newWeb(t)
	r := fixture(t)
	done, _ := startReview(t, context.Background(), w, r)
	openReview(t, ctx, w)
	steps := []struct {
		keys string
		want string
	}{
		{"", "[1=undecided] 2=undecided 3=undecided 4=undecided 5=undecided 6=undecided"},
		{"y", "1=approved [2=undecided] 3=undecided 4=undecided 5=undecided 6=undecided"},
		{"j", "1=approved 2=undecided [3=undecided] 4=undecided 5=undecided 6=undecided"},
		{"n", "1=approved 2=undecided 3=rejected [4=undecided] 5=undecided 6=undecided"},
		{"k", "1=approved [2=undecided] 3=rejected 4=undecided 5=undecided 6=undecided"},
		{"K", "[1=approved] 2=undecided 3=rejected 4=undecided 5=undecided 6=undecided"},
		{kb.ArrowDown, "1=approved [2=undecided] 3=rejected 4=undecided 5=undecided 6=undecided"},
	}
	for _, s := range steps {
		browse(t, ctx, "press "+s.keys, chromedp.KeyEvent(s.keys), waitJS(hunkState+` === `+strconv.Quote(s.want)))
	}
	// Keys typed in a note are the note's.
	browse(t, ctx, "type a note with y and n in it, leave it with Esc, press n",
		chromedp.SendKeys(chromedp.CSS(`[data-note-for="2"]`), "yes, not now"),
		chromedp.KeyEvent(kb.Escape),
		waitJS(`document.activeElement === document.body`),
		waitJS(hunkState+` === "1=approved [2=undecided] 3=rejected 4=undecided 5=undecided 6=undecided"`),
		chromedp.KeyEvent("n"),
		waitJS(hunkState+` === "1=approved 2=rejected 3=rejected [4=undecided] 5=undecided 6=undecided"`),
	)
	browse(t, ctx, "show the keys and hide them",
		chromedp.KeyEvent("?"),
		chromedp.WaitVisible(chromedp.CSS(`#keys`)),
		waitJS(`document.querySelector('#keys').textContent.includes("approve this hunk and every undecided hunk of its file")`),
		chromedp.KeyEvent(kb.Escape),
		chromedp.WaitNotVisible(chromedp.CSS(`#keys`)),
	)
	browse(t, ctx, "a approves the rest of util/strings.go, y hunk 6, Enter submits",
		chromedp.KeyEvent("a"),
		waitJS(hunkState+` === "1=approved 2=rejected 3=rejected 4=approved 5=approved [6=undecided]"`),
		chromedp.KeyEvent("y"),
		waitJS(`document.querySelector('#submit-hint').textContent === "Every hunk is decided."`),
		chromedp.KeyEvent(kb.Enter),
	)
	if err := waitErr(t, done); err != nil {
		t.Fatalf("Review: got %v, want nil after Enter", err)
	}
	wantDecided(t, r, "1=y 2=n 3=n 4=y 5=y 6=y", "2:yes, not now")
	if len(r.Grants) != 0 {
		t.Errorf("grants: got %v, want none (a is not A)", r.Grants)
	}

	// A command the model wants to run: y allows it.
	answered := make(chan bool, 1)
	go func() {
		yes, _, err := w.Confirm(context.Background(), "The model wants to run a command", "go test ./...")
		answered <- yes && err == nil
	}()
	browse(t, ctx, "allow the command with y",
		chromedp.WaitVisible(chromedp.CSS(`#question [data-action="allow"]`)),
		chromedp.KeyEvent("y"),
		chromedp.WaitNotVisible(chromedp.CSS(`#question`)),
	)
	if !<-answered {
		t.Errorf("Confirm: got no, want yes from the key y")
	}
}

// TestWebBrowserApproveFile: in a real Chromium, "Approve all in this
// file" approves the file's undecided hunks and leaves a rejected one;
// a file of one hunk has no such button. Every placeholder is read whole,
// in a wide window and a narrow one.
func TestWebBrowserApproveFile(t *testing.T) {
	ctx := browser(t)
	w := newWeb(t)
	r := fixture(t)
	done, _ := startReview(t, context.Background(), w, r)
	openReview(t, ctx, w)
	buttons := get(t, ctx, "find the buttons", chromedp.Evaluate[[]string](
		`[...document.querySelectorAll('.file-head [data-action="approve-file"]')].map((b) => b.closest('.file-head').dataset.file + " " + b.textContent)`))
	if want := []string{"calc.go Approve all in this file", "util/strings.go Approve all in this file"}; strings.Join(buttons, "\n") != strings.Join(want, "\n") {
		t.Errorf("buttons: got %q, want %q (none for README.md, of one hunk)", buttons, want)
	}
	// A placeholder is cut off when its text is wider than its field.
	const cut = `[...document.querySelectorAll('[placeholder]')].filter((f) => f.offsetParent !== null).filter((f) => {
		const c = document.createElement('canvas').getContext('2d');
		const s = getComputedStyle(f);
		c.font = s.font;
		// A text area's placeholder wraps onto its rows.
		const rows = f.tagName === 'TEXTAREA' ? f.rows : 1;
		return c.measureText(f.placeholder).width > 0.9 * rows * (f.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight));
	}).map((f) => f.placeholder)`
	for _, width := range []int64{1280, 700} {
		browse(t, ctx, "set the width", chromedp.EmulateViewport(width, 1600))
		if n := get(t, ctx, "count the placeholders", chromedp.Evaluate[int](`document.querySelectorAll('[placeholder]').length`)); n < 7 {
			t.Errorf("width %d: got %d placeholders, want the chat's and six notes", width, n)
		}
		if got := get(t, ctx, "measure the placeholders", chromedp.Evaluate[[]string](cut)); len(got) != 0 {
			t.Errorf("width %d: placeholders cut off: %q", width, got)
		}
	}
	browse(t, ctx, "reject hunk 2, approve all of calc.go",
		chromedp.Click(chromedp.CSS(`[data-hunk-id="2"] [data-action="reject"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hunk-id="2"][data-decision="rejected"]`)),
		chromedp.Click(chromedp.CSS(`.file-head[data-file="calc.go"] [data-action="approve-file"]`)),
		waitJS(hunkState+`.replace(/[\[\]]/g, "") === "1=approved 2=rejected 3=approved 4=undecided 5=undecided 6=undecided"`),
		waitJS(`document.querySelector('.file-head[data-file="calc.go"] [data-action="approve-file"]').disabled`),
		waitJS(`!document.querySelector('.file-head[data-file="util/strings.go"] [data-action="approve-file"]').disabled`),
		chromedp.Click(chromedp.CSS(`[data-action="submit"]`)),
	)
	if err := waitErr(t, done); err != nil {
		t.Fatal(err)
	}
	wantDecided(t, r, "1=y 2=n 3=y 4=n 5=n 6=n", "")
	if len(r.Grants) != 0 {
		t.Errorf("grants: got %v, want none", r.Grants)
	}
}
