// Package review is the decision model for a proposal and its front ends.
// A Review keeps, for each placed hunk of a proposal, whether the person
// approved, rejected, split or edited it (the keys of git add -p, plus A
// for a session-wide grant of one file), with a cursor, and is plain JSON
// so that a review can be saved half-way and finished later. Its methods
// are the keys' effects and do no input or output; Terminal drives them
// from single key presses, Play from answers given ahead (--decisions or
// one per line on standard input), and Web from a local page served on
// 127.0.0.1 with a token (the web UI). It imports edit only, never agent.
package review
