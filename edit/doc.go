// Package edit reads, places, applies, splits and renders unified diffs.
//
// It is pure: text in, text out, with no access to files or git. Models
// write imperfect diffs, so Parse is lenient and Place finds each hunk by
// its content, using line numbers only to choose between equally good
// places. Placement goes through passes of increasing tolerance (exact;
// whitespace; indentation; Unicode look-alikes; a missing, extra or
// slightly changed context line; two hunks fused into one) and records
// which one succeeded. A hunk that fits two places equally well is refused
// rather than guessed: applying a hunk in the wrong place is the worst
// thing this package could do.
//
// A Resolved hunk holds the exact lines of the file it covers and the
// lines that replace them, so what a reviewer approves is what Apply
// writes. Apply keeps line endings, the final newline (or its absence) and
// everything outside the hunks byte for byte. Render writes resolved hunks
// back as a unified diff that git apply accepts, and Split cuts a hunk at
// the context lines between its changes, like the "s" of git add -p.
//
// ParseEdits reads the other forms models write as well (Aider's
// SEARCH/REPLACE blocks, the V4A apply_patch form, a whole file in a fence
// under its path) into the same FileDiff and Hunk model, so that one
// placement engine, with the same refusals, places them all.
//
// git's binary patches ("GIT binary patch", literal or delta, base85 and
// zlib) are decoded by Parse and applied whole by FileDiff.ApplyBinary,
// which checks the content and the result against the blob ids of the
// "index" line, as git apply does.
package edit
