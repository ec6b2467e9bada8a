package audit

import "testing"

// TestAttributionTrailer: each style's trailer line; a model name cannot
// start a line of its own.
func TestAttributionTrailer(t *testing.T) {
	for _, c := range []struct{ style, model, want string }{
		{"", "qwen2.5-coder", "Assisted-by: pair:qwen2.5-coder"},
		{AttributionAssisted, "gpt-4o", "Assisted-by: pair:gpt-4o"},
		{AttributionCoAuthored, "gpt-4o", "Co-authored-by: pair (gpt-4o) <pair@localhost>"},
		{AttributionNone, "gpt-4o", ""},
		{AttributionAssisted, "m\nSigned-off-by: x", "Assisted-by: pair:m Signed-off-by: x"},
	} {
		if got := AttributionTrailer(c.style, c.model); got != c.want {
			t.Errorf("AttributionTrailer(%q, %q): got %q, want %q", c.style, c.model, got, c.want)
		}
	}
}
