// Package repo is pair's access to the working tree: it finds the
// repository root, resolves every path a person or a model names inside it
// (never outside, never into .git), reads files, and writes a set of
// changed files all together or not at all.
package repo
