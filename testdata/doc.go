// Package testdata holds fixtures shared by pair's tests: samples of
// the patch corpus and the like, as files beside this one. It
// has no code, and the go tool skips directories named testdata, so it is
// never built: tests in other packages read the fixtures by path. The
// testscript scripts of the pair command live with that command, in
// cmd/pair/testdata/script.
package testdata
