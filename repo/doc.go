// Package repo is pair's access to the working tree and to git.
//
// Open finds the root; Clean keeps every path a person, a patch or a model
// names inside it (never outside, never into .git), and Guard refuses
// files that git ignores and files that look like secrets unless Access
// allows them. The model's read tools live here (ReadText, ListFiles,
// SearchFiles, RepoMap, Status, WorkDiff, History).
//
// PlaceWith places a patch's hunks on the files (with package edit), and
// ApplyPlans writes them: Write changes a set of files all together or not
// at all, with a journal that a crash is recovered from at the next Open.
// Commit records the approved hunks on top of HEAD, running the person's
// hooks, with the audit trailer that Record.Message writes and
// ParseMessage reads, and keeps the commit's id in pair's record of its
// own commits. A patch's symbolic links (mode 120000), binary files and
// submodule pointers (mode 160000) are content too: a link is written as a
// link and never through one, a binary patch must fit the file's blob, and
// a submodule's pointer changes in the index and the commit only, its
// working tree untouched, as git apply --index does. Undo takes back the last pair commit when this pair made it
// and that is safe, and Log lists pair commits, marking those whose
// trailers say pair but that this pair did not make.
package repo
