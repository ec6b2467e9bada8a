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

func jsonInt(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
