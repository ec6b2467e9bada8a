// Package audit is the record a pair commit keeps of a review: what the
// person decided for each hunk of a proposal (approved, edited or
// rejected), where each hunk went and a hash of its content, the session
// and the model it came from, and who reviewed it.
//
// The record is written in the commit message as git trailers (Message)
// and read back from it (ParseMessage): one Pair-Session, Pair-Model and
// Pair-Reviewed-By trailer, then a Pair-Hunk trailer per hunk, such as
//
//	Pair-Hunk: main.go:12 3f2a9c0b1d4e approved
//
// review decides with these Decisions, agent hands them back to the model,
// and repo writes and reads the commits; audit depends on none of them.
package audit
