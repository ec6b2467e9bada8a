// Package mcp connects pair to the person's Model Context Protocol
// servers: it starts each configured server (a subprocess over stdio, or
// a streamable HTTP endpoint), lists its tools,
// classifies each tool's risk, and hands them to the agent as
// agent.ExternalTool values that check their arguments against the tool's
// JSON schema and call the server.
//
// A tool is read-only only when its server marks it so (readOnlyHint) and
// the configuration does not say otherwise; every other tool is reviewed.
// A server that does not start, crashes, hangs or answers nonsense gives a
// clear error, never a hang: Start never fails as a whole (each Server
// carries its own Err), and a call fails with an error that says what
// happened. Close stops every server, with its process group.
//
// Entry is a server as .pair.yml's mcp_servers writes it: CheckEntries
// checks a file's list, MergeEntries lays the repository's over the home
// directory's, and Configs makes the Config of each, in the environment
// it is given (pair's own cleared of secrets: see proc.Env). ServeNotebook is
// pair's own example server (pair mcp example-server).
//
// pair speaks MCP itself, a small client of JSON-RPC 2.0 (jsonrpc.go)
// over stdio (stdio.go) or streamable HTTP (streamable.go), and checks
// arguments with internal/schema: the official Go SDK and its JSON
// Schema package weigh half a megabyte and a heavy package init, which
// every command, pair --version too, would pay for. The tests use the
// SDK's servers to check the client against the reference.
package mcp
