package audit

import "fmt"

// The styles of attribution (.pair.yml attribution): the trailer that
// names the model in a commit it took part in. pair's own Pair-* audit
// trailers are written whatever the style.
const (
	// AttributionAssisted writes "Assisted-by: pair:MODEL", the form the
	// Linux kernel, Fedora, LLVM and OpenSSF ask of tool-assisted changes
	// (AGENT:MODEL). It is the default.
	AttributionAssisted = "assisted-by"
	// AttributionCoAuthored writes "Co-authored-by: pair (MODEL)
	// <pair@localhost>", the trailer GitHub shows as a second author; the
	// address is no one's, so it links to no account.
	AttributionCoAuthored = "co-authored-by"
	// AttributionNone writes neither.
	AttributionNone = "none"
)

// AttributionTrailer is the trailer line of the style for a commit the
// model took part in, without a newline; "" for AttributionNone. An
// empty style is the default, AttributionAssisted.
func AttributionTrailer(style, model string) string {
	model = oneLine(model)
	switch style {
	case AttributionNone:
		return ""
	case AttributionCoAuthored:
		return fmt.Sprintf("Co-authored-by: pair (%s) <pair@localhost>", model)
	default:
		return "Assisted-by: pair:" + model
	}
}
