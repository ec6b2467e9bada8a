// Package demo is pair demo without its flags: it makes a scratch git
// repository holding a small Go project (example/project.txtar), and
// either applies a model's damaged reply to it (example/reply.md) with
// pair apply's flow, or, with a model configured, runs a real pair edit
// session on it.
package demo
