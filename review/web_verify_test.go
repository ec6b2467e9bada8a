package review_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/review"
)

// The page's button (POST /api/verify) runs the tests on the decisions as
// they are, shows the progress as events and names the hunk that breaks
// them; rejecting it makes them pass.
func TestWebVerify(t *testing.T) {
	v := &fakeVerifier{command: "go test"}
	w, err := review.NewWeb(review.WebOptions{Token: testToken, Verifier: v})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	r := fixture(t)
	evs := events(t, w, "", nil)
	done, serial := startReview(t, context.Background(), w, r)
	if code, b := send(t, w, request{path: "/api/state"}); code != 200 || !strings.Contains(b, `"verify":true`) {
		t.Errorf("state: got %d %s, want verify true", code, b)
	}
	body := `{"review":` + jsonInt(serial) + `}`
	// Nothing approved: nothing to test.
	if code, _ := send(t, w, request{method: "POST", path: "/api/verify", body: body}); code != http.StatusBadRequest {
		t.Errorf("nothing approved: got %d, want 400", code)
	}
	if code, b := send(t, w, request{method: "POST", path: "/api/decisions", body: decisions(serial, false, "1=approve", "2=approve", "3=approve")}); code != 200 {
		t.Fatalf("decisions: %d %s", code, b)
	}
	code, b := send(t, w, request{method: "POST", path: "/api/verify", body: body})
	if code != 200 {
		t.Fatalf("POST /api/verify: got %d %s, want 200", code, b)
	}
	var got struct {
		Pass     bool     `json:"pass"`
		Lines    []string `json:"lines"`
		Output   string   `json:"output"`
		Culprits []string `json:"culprits"`
	}
	if err := json.Unmarshal([]byte(b), &got); err != nil {
		t.Fatal(err)
	}
	if got.Pass || !slices.Equal(got.Culprits, []string{"2"}) || !strings.Contains(strings.Join(got.Lines, "\n"), "hunk 2 (calc.go:23-32) breaks it: FAIL TestSub") || !strings.Contains(got.Output, "the whole output") {
		t.Fatalf("got %s", b)
	}
	sawProgress := false
	for !sawProgress {
		e := next(t, evs)
		sawProgress = e.Kind == review.EventVerify && e.Text == "running go test"
	}
	// The GET with a method it does not answer, and the wrong review.
	if code, _ := send(t, w, request{path: "/api/verify"}); code != http.StatusMethodNotAllowed {
		t.Errorf("GET /api/verify: got %d, want 405", code)
	}
	if code, _ := send(t, w, request{method: "POST", path: "/api/verify", body: `{"review":999}`}); code != http.StatusConflict {
		t.Errorf("another review: got %d, want 409", code)
	}
	send(t, w, request{method: "POST", path: "/api/decisions", body: decisions(serial, false, "2=reject")})
	if code, b = send(t, w, request{method: "POST", path: "/api/verify", body: body}); code != 200 || !strings.Contains(b, `"pass":true`) {
		t.Fatalf("after rejecting hunk 2: got %d %s", code, b)
	}
	send(t, w, request{method: "POST", path: "/api/decisions", body: decisions(serial, true)})
	if err := waitErr(t, done); err != nil {
		t.Fatal(err)
	}
}

// Without a Verifier the page has no button and the API refuses.
func TestWebVerifyNone(t *testing.T) {
	w := newWeb(t)
	_, serial := startReview(t, context.Background(), w, fixture(t))
	code, b := send(t, w, request{path: "/api/state"})
	if code != 200 || !strings.Contains(b, `"verify":false`) {
		t.Errorf("state: got %d %s, want verify false", code, b)
	}
	if code, _ := send(t, w, request{method: "POST", path: "/api/verify", body: `{"review":` + jsonInt(serial) + `}`}); code != http.StatusNotFound {
		t.Errorf("got %d, want 404", code)
	}
}

// Without a test command the page asks for one and runs the command the
// person typed, as the terminal's v does (CommandVerifier); the result
// names it. The request that carries it needs the token and the page's
// origin, as every request does.
func TestWebVerifyTypedCommand(t *testing.T) {
	v := &fakeVerifier{}
	w, serial, finish := verifyWeb(t, v)
	defer finish()
	if code, b := send(t, w, request{path: "/api/state"}); code != 200 || !strings.Contains(b, `"ask_command":true`) {
		t.Errorf("state: got %d %s, want ask_command true", code, b)
	}
	if code, b := send(t, w, request{method: "POST", path: "/api/decisions", body: decisions(serial, false, "1=approve", "3=approve")}); code != 200 {
		t.Fatalf("decisions: %d %s", code, b)
	}
	verify := func(command string) string {
		b, _ := json.Marshal(map[string]any{"review": serial, "command": command})
		return string(b)
	}
	for _, tc := range []struct {
		name string
		req  request
		code int
		want string
	}{
		{"no command", request{method: "POST", path: "/api/verify", body: verify("  ")}, http.StatusBadRequest, `"ask_command":true`},
		{"two lines", request{method: "POST", path: "/api/verify", body: verify("make\nrm -rf x")}, http.StatusBadRequest, "single line"},
		{"without the token", request{method: "POST", path: "/api/verify", body: verify("make check"), noToken: true}, http.StatusForbidden, ""},
		{"from another origin", request{method: "POST", path: "/api/verify", body: verify("make check"), header: map[string]string{"Origin": "http://evil.example"}}, http.StatusForbidden, ""},
	} {
		if code, b := send(t, w, tc.req); code != tc.code || !strings.Contains(b, tc.want) {
			t.Errorf("%s: got %d %s, want %d with %s", tc.name, code, b, tc.code, tc.want)
		}
	}
	if v.runs != 0 || v.command != "" {
		t.Fatalf("refused requests: got %d runs with command %q, want none", v.runs, v.command)
	}
	code, b := send(t, w, request{method: "POST", path: "/api/verify", body: verify(" make check ")})
	if code != 200 || !strings.Contains(b, `"command":"make check"`) || !strings.Contains(b, `"pass":true`) || !strings.Contains(b, "(make check)") {
		t.Fatalf("typed command: got %d %s, want a pass of make check", code, b)
	}
	if v.command != "make check" {
		t.Errorf("verifier: got command %q, want make check", v.command)
	}
	// The field stays, with the command typed; without one the page runs
	// it again (after rejecting the culprits); another replaces it.
	if code, b := send(t, w, request{path: "/api/state"}); code != 200 || !strings.Contains(b, `"ask_command":true`) || !strings.Contains(b, `"typed_command":"make check"`) {
		t.Errorf("state: got %d %s, want the field with make check", code, b)
	}
	if code, b := send(t, w, request{method: "POST", path: "/api/verify", body: `{"review":` + jsonInt(serial) + `}`}); code != 200 || !strings.Contains(b, `"command":"make check"`) {
		t.Errorf("again: got %d %s, want make check", code, b)
	}
	if code, b := send(t, w, request{method: "POST", path: "/api/verify", body: verify("go test ./...")}); code != 200 || !strings.Contains(b, `"command":"go test ./..."`) {
		t.Errorf("another command: got %d %s, want go test ./...", code, b)
	}
}

// With the project's test command the page asks for none and cannot
// replace it.
func TestWebVerifyProjectCommand(t *testing.T) {
	v := &fakeVerifier{command: "go test"}
	w, serial, finish := verifyWeb(t, v)
	defer finish()
	if code, b := send(t, w, request{path: "/api/state"}); code != 200 || !strings.Contains(b, `"ask_command":false`) {
		t.Errorf("state: got %d %s, want ask_command false", code, b)
	}
	send(t, w, request{method: "POST", path: "/api/decisions", body: decisions(serial, false, "1=approve")})
	code, b := send(t, w, request{method: "POST", path: "/api/verify", body: `{"review":` + jsonInt(serial) + `,"command":"rm -rf x"}`})
	if code != http.StatusBadRequest || !strings.Contains(b, "cannot replace") || v.runs != 0 || v.command != "go test" {
		t.Errorf("another command: got %d %s (%d runs, command %q), want 400 and go test kept", code, b, v.runs, v.command)
	}
}

// A Verifier that takes no typed command and has no test command: the
// page says where to set one, and asks for none.
func TestWebVerifyNoCommand(t *testing.T) {
	v := struct{ review.Verifier }{&fakeVerifier{}}
	w, serial, finish := verifyWeb(t, v)
	defer finish()
	send(t, w, request{method: "POST", path: "/api/decisions", body: decisions(serial, false, "1=approve")})
	code, b := send(t, w, request{method: "POST", path: "/api/verify", body: `{"review":` + jsonInt(serial) + `}`})
	if code != http.StatusBadRequest || !strings.Contains(b, "set test_cmd in .pair.yml") || !strings.Contains(b, `"ask_command":false`) {
		t.Errorf("got %d %s, want 400 naming test_cmd", code, b)
	}
}

// The page has the field for the typed command, and its script sends it.
func TestWebVerifyCommandField(t *testing.T) {
	w := newWeb(t)
	for path, hooks := range map[string][]string{
		"/":       {`id="verify-command"`, `id="verify-cmd"`, `<label for="verify-cmd">`},
		"/app.js": {`v.ask_command`, `body.command = $("verify-cmd").value.trim()`, `err.data.ask_command`},
	} {
		code, b := send(t, w, request{path: path})
		if code != 200 {
			t.Fatalf("GET %s: got %d", path, code)
		}
		for _, h := range hooks {
			if !strings.Contains(b, h) {
				t.Errorf("%s: no %s in it", path, h)
			}
		}
	}
}

// verifyWeb starts a Web with v and a review on it; finish submits the
// review and waits for it.
func verifyWeb(t *testing.T, v review.Verifier) (w *review.Web, serial int64, finish func()) {
	t.Helper()
	w, err := review.NewWeb(review.WebOptions{Token: testToken, Verifier: v})
	if err != nil {
		t.Fatal(err)
	}
	done, serial := startReview(t, context.Background(), w, fixture(t))
	return w, serial, func() {
		t.Helper()
		defer w.Close()
		send(t, w, request{method: "POST", path: "/api/decisions", body: decisions(serial, true)})
		if err := waitErr(t, done); err != nil {
			t.Fatal(err)
		}
	}
}

func jsonInt(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
