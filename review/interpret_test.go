package review_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/review"
)

// TestWebInterpreted: the page shows an interpreted hunk with its label,
// the line it changes as -/+, and what approving it means.
func TestWebInterpreted(t *testing.T) {
	old := "package calc\n\nfunc Sub(a, b int) int {\n\treturn a - b\n}\n"
	p, err := edit.Parse("--- a/calc.go\n+++ b/calc.go\n@@ -3,3 +3,3 @@\n func Sub(a, b int) int {\n \treturn b - a\n }\n")
	if err != nil {
		t.Fatal(err)
	}
	plans := []*edit.FilePlan{edit.PlanFile("calc.go", "calc.go", old, p.Files[0])}
	if !edit.Interpret(plans) {
		t.Fatalf("Interpret took nothing; errors %v", plans[0].Errors)
	}
	w := newWeb(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done, _ := startReview(t, ctx, w, review.New(review.FromPlans(plans), nil))
	code, body := send(t, w, request{path: "/api/state"})
	if code != http.StatusOK {
		t.Fatalf("GET /api/state: got %d", code)
	}
	var s struct {
		Review struct {
			Items []struct {
				Placement     string   `json:"placement"`
				PlacementHelp string   `json:"placement_help"`
				Notes         []string `json:"notes"`
				Lines         []struct{ Kind, Text string }
			} `json:"items"`
		} `json:"review"`
	}
	if err := json.Unmarshal([]byte(body), &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Review.Items) != 1 {
		t.Fatalf("got %d items, want 1", len(s.Review.Items))
	}
	it := s.Review.Items[0]
	if it.Placement != "interpreted" || it.PlacementHelp != edit.InterpretedHelp {
		t.Errorf("got placement %q help %q, want interpreted with the explanation", it.Placement, it.PlacementHelp)
	}
	var lines []string
	for _, l := range it.Lines {
		lines = append(lines, l.Kind+l.Text)
	}
	if got, want := strings.Join(lines, "\n"), "-\treturn a - b\n+\treturn b - a"; !strings.Contains(got, want) {
		t.Errorf("got lines\n%s\nwant them to hold\n%s", got, want)
	}
	if len(it.Notes) == 0 || !strings.Contains(it.Notes[len(it.Notes)-1], "approving changes line 4 to the patch's version") {
		t.Errorf("got notes %q, want the interpreted line explained", it.Notes)
	}
	cancel()
	if err := waitErr(t, done); !errors.Is(err, review.ErrInterrupted) {
		t.Errorf("Review after cancel: got %v, want ErrInterrupted", err)
	}
}
