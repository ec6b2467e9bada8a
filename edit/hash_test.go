package edit_test

import (
	"testing"

	"github.com/pair-cli/pair/edit"
)

func TestResolvedHash(t *testing.T) {
	r := edit.Resolved{Lines: []edit.Line{{Kind: ' ', Text: "a"}, {Kind: '-', Text: "b"}, {Kind: '+', Text: "c"}}}
	if got, want := r.Hash(), "2980a502c1e0"; got != want {
		t.Errorf("Hash = %q, want %q", got, want)
	}
}
