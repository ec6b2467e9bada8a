// Package bench runs pair's task suite: each task (a txtar file, see
// testdata/bench/README.md) becomes a fresh git repository, the pair
// binary runs on it as a process of its own against a stand-in model
// server replaying the task's scripted replies (or, live, a recording
// proxy to a real model), and the task's expectations are checked.
//
// Load reads the tasks, Run runs them and returns a Report; printing is
// the caller's.
package bench
