// Package bench runs pair's task suite, built into the binary from
// tasks/ (see tasks/README.md), or tasks of the person's own: each task
// (a txtar file) becomes a fresh git repository, the pair
// binary runs on it as a process of its own against a stand-in model
// server replaying the task's scripted replies (or, live, a recording
// proxy to a real model), and the task's expectations are checked.
//
// Run is pair bench without its flags: Load reads the tasks, Score runs
// them and returns a Report, and Run prints it.
package bench
