// Package agenttest is a fake OpenAI-compatible model server for tests:
// offline and deterministic, it answers chat completion requests with
// scripted replies, in order, as a real server streams them, and records
// every request.
//
// A test scripts the replies, points a client at the server and checks
// what was asked:
//
//	s := agenttest.NewServer(t,
//		agenttest.Reply{ToolCalls: []agenttest.Call{{Name: "read_file", Arguments: `{"path":"main.go"}`}}},
//		agenttest.Reply{Text: "Done."},
//	)
//	c := agent.NewClient(s.Config()) // in memory, no socket
//	...
//	got := s.Requests()[1].Messages
//
// Replies are streamed as server-sent events in small pieces (see
// Reply.Chunk), so that clients really join fragments. A reply with a
// Status answers an HTTP error instead; a reply with SSE sends a raw body,
// for odd streams. A request beyond the script and a reply left unused at
// the end of the test fail the test, like gh's httpmock.Registry.Verify.
//
// Server.Config and Server.HTTPClient reach the server in memory, through
// an http.RoundTripper; Server.URL is a real socket, for end-to-end tests
// of the command.
//
// The server itself is internal/replay, which pair bench uses too; this
// package ties it to a test (any TB: *testing.T, or a reporter of one's
// own) and to the agent's client, and does not import testing.
package agenttest
