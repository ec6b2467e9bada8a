// Package review is the decision model for a proposal and its front ends:
// it will keep, for each hunk of a proposal, whether a person approved,
// rejected, split or edited it (the keys of git add -p), and drive that
// from a terminal or from a local web page, which must produce the same
// decisions. It imports edit only, never agent. It is empty until the
// issue that builds it; DESIGN.md describes it.
package review
