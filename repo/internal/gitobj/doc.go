// Package gitobj reads and writes git's commit and tree objects, byte for
// byte as git does, on top of go-git's object storage (storer and
// plumbing): commits kept as their ordered headers and message so that a
// commit read and written again is the same object, signatures (name,
// email, time, zone), trees in git's entry order, and what pair needs of
// walking them: every file of a tree, one path, two trees' difference and
// the history by commit time.
//
// It exists so that pair does not link go-git's plumbing/object, whose
// dependencies (OpenPGP, elliptic curves, image decoders) every command
// would pay for at start-up.
package gitobj
