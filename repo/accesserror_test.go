package repo

import (
	"errors"
	"fmt"
	"testing"
)

// TestAccessErrorReword checks that a refusal, wrapped, keeps its
// sentinel and is reworded by its type: only its own text changes.
func TestAccessErrorReword(t *testing.T) {
	ae := &AccessError{Path: "x/.env", Err: ErrSecret}
	err := fmt.Errorf("apply: %w; x/.env is named twice", ae)
	if !errors.Is(err, ErrSecret) || errors.Is(err, ErrIgnored) {
		t.Errorf("errors.Is does not see ErrSecret alone in %v", err)
	}
	var got *AccessError
	if !errors.As(err, &got) || got.Flag() != "allow-secrets" {
		t.Fatalf("errors.As: %v, flag %q", got, got.Flag())
	}
	want := "apply: x/.env: path may hold secrets (--allow-secrets allows it); x/.env is named twice"
	if s := got.Reword(err.Error(), "--allow-secrets allows it"); s != want {
		t.Errorf("got  %q\nwant %q", s, want)
	}
	ig := &AccessError{Path: "b.log", Err: ErrIgnored}
	if ig.Error() != "b.log: path is ignored by git (allow ignored files explicitly to use it)" || ig.Flag() != "allow-ignored" {
		t.Errorf("ignored: %q, flag %q", ig.Error(), ig.Flag())
	}
}
