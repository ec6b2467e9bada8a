// Package history is pair log and pair undo without their flags: the pair
// commits on the branch with what was decided for their hunks (Log), the
// acceptance rate per model (Log with Stats), and taking back the last
// pair commit (Undo), each reported as text or as one JSON object.
package history
