// Command pair is a pair programmer for git repositories: a language model
// proposes changes as unified diffs, and a person reviews them hunk by hunk
// before anything is written.
//
// Usage:
//
//	pair apply [--check] [--yes] [--json] [PATCH|-]
//	pair demo [--dir DIR] [--keep=false]
//
// pair apply places and applies any unified diff, from a model, a colleague
// or a mail, tolerating the mistakes models make in diffs and refusing any
// hunk whose place is not certain. pair demo runs pair apply on a bundled,
// deliberately imperfect diff in a scratch repository.
//
// Exit status: 0 success, 1 failure, 2 usage error, 3 paused for review,
// 130 interrupted. Errors are printed as "pair: <what failed>: <why>".
package main
