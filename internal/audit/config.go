package audit

import (
	"path"
	"strings"
)

// ConfigFile reports whether path, a slash-separated path in the
// repository, names a file that pair or git reads as configuration: pair's
// .pair.yml, and git's .gitignore, .gitattributes (which name the filters
// that run on checkout and commit), .gitmodules, .mailmap and git-lfs's
// .lfsconfig (which chooses where requests go). The name is matched at any
// level and in any case, as a case-insensitive file system would open it.
//
// An edit to such a file is never approved ahead: not by --yes, and not by
// a grant (the A key); the person decides it, each time.
func ConfigFile(p string) bool {
	switch strings.ToLower(path.Base(path.Clean("/" + p))) {
	case ".pair.yml", ".gitignore", ".gitattributes", ".gitmodules", ".mailmap", ".lfsconfig":
		return true
	}
	return false
}
