// Package gitstore reads and writes a git repository's objects and refs
// as git lays them out on disk: loose objects (zlib), pack files through
// their .idx (deltas resolved by go-git's packfile reader), alternates,
// loose refs and packed-refs, a linked worktree's own HEAD beside the
// common directory's refs, and a ref moved under a lock file only when it
// still names the commit its writer read.
//
// It exists so that pair does not link go-git's storage/filesystem, whose
// dependencies (go-git's config with gcfg, encoding/gob, URL regexps)
// every command would pay for at start-up.
package gitstore
