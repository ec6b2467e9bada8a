// Package verify tests the approved hunks of a review before anything is
// written: it lays out the candidate tree (HEAD, the person's uncommitted
// changes and the approved hunks) in the repository's scratch tree (see
// repo.Scratch), runs the test command there, and, when the candidate
// fails while HEAD with the person's changes passes, narrows the failure
// to the smallest set of approved hunks that still fails, by delta
// debugging with a bound on the number of runs (Verifier.Verify).
//
// The person's working tree, index, untracked and ignored files are
// never written. Untracked files that git does not ignore are part of
// the candidate (they are the person's work); ignored files are not.
package verify
