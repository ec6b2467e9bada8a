// Package agent is the model loop: it will hold a request's conversation
// and whole state as one JSON-serialisable State, call the model through a
// small client interface, run read-only tools at once, send every edit,
// commit or command through a policy gate to a reviewer it declares, and
// save the state at each pause so that another process can resume it. It
// is empty until the issue that builds it; DESIGN.md describes it.
package agent
