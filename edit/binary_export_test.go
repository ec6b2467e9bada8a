package edit

// ApplyDelta and DecodeBinaryHunk expose the binary patch's decoders to
// the tests of edit_test.
var (
	ApplyDelta       = applyDelta
	DecodeBinaryHunk = decodeBinaryHunk
)
