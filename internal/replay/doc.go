// Package replay is a stand-in OpenAI-compatible model server: it answers
// chat completion requests with scripted replies, in order, streamed as a
// real server streams them, and records every request.
//
// pair bench runs its offline tasks against it over a real socket, and
// agent/agenttest wraps it for tests. It reports what goes against the
// script (a request beyond it, a reply left unused) to a function given
// to New, so that it depends on no test package.
package replay
