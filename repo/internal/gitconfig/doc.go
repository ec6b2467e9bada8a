// Package gitconfig parses git's configuration files as git does: the
// section headers ([section], [section "subsection"] and the old
// [section.subsection]), keys, values with their quoting, escapes, line
// continuations and comments, and git's booleans. It reads one file;
// which files git reads, and includes, are its caller's business.
//
// It exists so that pair does not link go-git's config packages, whose
// dependencies (gcfg, encoding/gob) every command would pay for at
// start-up.
package gitconfig
