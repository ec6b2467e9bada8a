// Package agent is the model loop. It holds a request's conversation and
// whole state as one JSON-serialisable State, calls the model through a
// streaming OpenAI-compatible Client, runs read-only tools at once, and
// sends every edit, command and side-effecting MCP call through a policy
// gate to a Reviewer it declares. At each pause it saves the state in a
// session (Sessions), so that another process can resume it (Resume).
// Commands and tests run without the API key and the usual secret
// variables in their environment (Settings.CommandEnv), and the key is
// redacted from the state wherever it leaves the agent: to the model, to
// the session file, to the events (redact.go).
//
// Edits reach the tree as unified diffs: a proposal is parsed and placed
// with package edit, reviewed, then written and committed with package
// repo. Feedback to the model says what was written, rejected or could not
// be placed, with the nearest lines of the file. Classify decides a
// request's task type from its words, without a model call.
package agent
