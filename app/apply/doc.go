// Package apply is pair apply without its flags: it reads a patch,
// places its hunks on the working tree, has them decided (--yes, letters
// given ahead, lines on standard input, or a review in the terminal),
// writes and commits the approved ones with the audit record, and reports
// the placements and the outcome as text or as JSON.
//
// The placement listing (Report, PrintPlacements) is shared with the
// review of a model's proposals in app/chat.
package apply
