// Command pair is a pair programmer for git repositories: a language model
// proposes changes as unified diffs, and a person reviews them hunk by hunk
// before anything is written.
//
// Usage:
//
//	pair [-C DIR] <command> [options] [arguments]
//
//	pair edit [FILES...] [-m TEXT] [--yes | --decisions LETTERS] [--json] [--model M] [--api-base URL]
//	pair ask [--json] QUESTION
//	pair review [--session NAME] [--yes | --decisions LETTERS | --web] [--approve-command]
//	pair sessions [rm NAME]
//	pair bench [--live -k N] [-j N] [--json] [TASK|DIR|FILE...]
//	pair mcp list
//	pair trust [--revoke]
//	pair apply [--check [--explain]] [--yes | --decisions LETTERS] [--json] [--no-commit] [-m TEXT] [--no-verify]
//		[-p N] [--directory=ROOT] [--include=GLOB] [--exclude=GLOB] [-R] [PATCH|-]
//	pair am [--yes] [--json] [--no-verify] [MAILBOX|-] | --continue | --skip | --abort
//	pair undo [--dry-run] [--json]
//	pair log [--json] [--stats] [-n N]
//	pair demo [--dir DIR] [--keep=false]
//
// pair edit works with a model on any OpenAI-compatible endpoint
// (OPENAI_BASE_URL, or its older name OPENAI_API_BASE; OPENAI_API_KEY,
// PAIR_MODEL, or .pair.yml): the model
// reads the repository through read-only tools and proposes diffs, which
// are reviewed hunk by hunk like pair apply's, written and committed; the
// model is told what became of each hunk. On a terminal it is a chat with
// slash commands; -m runs one request. pair ask answers a read-only
// question. Both print one JSON object with --json. A reply is bounded:
// pair gives up on one that stops after it has begun (--idle-timeout,
// idle_timeout in .pair.yml) or grows past --max-reply (max_reply, 4 MiB
// by default), and the turn fails with nothing written. Sessions are
// saved under the git directory once the model has answered; a review that cannot be done now pauses
// (exit 3) and pair review finishes it later, in a terminal or a local web
// page (--web). MCP servers listed in .pair.yml add their tools behind the
// same policy gate (pair mcp list); a repository's .pair.yml may run
// commands only once trusted (pair trust). --yes and --decisions answer
// hunks only: a command or MCP call needs its own approval (a terminal,
// --web, or pair review --approve-command). Commands, tests and MCP
// servers run without the API key and the usual secret variables, and the
// key is redacted from what the model is sent and the session keeps. pair bench runs the task suite
// built into pair (app/bench/tasks), or a live model on it.
//
// pair apply places and applies any unified diff, from a model, a colleague
// or a mail (or Aider's SEARCH/REPLACE blocks, a V4A apply_patch, a whole
// file under its path: the same hunks, placed the same way), tolerating the mistakes models make in diffs and refusing any
// hunk whose place is not certain. Each placed hunk is then reviewed as
// with git add -p: on a terminal by single keys (y n r a d A q s e j k J K
// g / p ?, see --help), without one from --decisions (one letter per hunk)
// or one answer per line on standard input, or all approved with --yes.
// A summary comes before anything is written; Ctrl-C writes nothing. In a
// git repository it commits exactly
// the approved hunks, as the user, with an audit trailer (Pair-Session,
// Pair-Model, Pair-Reviewed-By, one Pair-Hunk per hunk); the user's own
// uncommitted edits stay uncommitted. pair demo runs pair apply on a
// bundled, deliberately imperfect diff in a scratch repository.
//
// pair undo takes back the last pair commit: the branch moves to its
// parent, and only the commit's files go back to the parent's version in
// the index and the working tree; the user's other edits stay. It refuses,
// naming the rule, when a git operation is in progress (in-progress), HEAD
// is not a pair commit (head-not-pair), has no parent (root) or several
// (merge), is on the upstream or any remote-tracking branch (pushed),
// changes anything but regular files (file-type), changes more or other
// than its trailers record, as after git commit --amend (amended), or when
// a file of the commit has uncommitted edits (edited-after). pair log
// lists the pair commits on the branch, newest first, with model, session
// and hunk decisions; --stats prints the acceptance rate per model.
//
// Writes are all or nothing, even across a crash: a journal under the git
// directory lets the next pair finish or roll back an interrupted write.
//
// -C DIR runs any command as if pair was started in DIR, as git -C does
// (each command's own -C is kept, hidden, for older scripts). A command
// pair does not have is a usage error that names the most similar ones;
// a bare pair prints the help with the status of a usage error.
//
// Exit status: 0 success, 1 failure, 2 usage error, 3 paused for review,
// 130 interrupted. Errors are printed as "pair: <what failed>: <why>".
package main
