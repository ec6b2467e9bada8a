package edit

import (
	"errors"
	"testing"
)

// TestErrLoose: the loose ambiguity reads as it did when fmt.Errorf made
// it at package init, and is still an ErrAmbiguous.
func TestErrLoose(t *testing.T) {
	const want = "hunk matches more than one place (it fits only loosely, and in more than one way)"
	if got := errLoose.Error(); got != want || !errors.Is(errLoose, ErrAmbiguous) {
		t.Errorf("got %q (an ErrAmbiguous: %v), want %q", got, errors.Is(errLoose, ErrAmbiguous), want)
	}
}
