package edit_test

import (
	"strings"
	"testing"
)

// gitHeader is the header git writes for a change to path.
func gitHeader(path string) string {
	return text("diff --git a/"+path+" b/"+path, "index 1111111..2222222 100644", "--- a/"+path, "+++ b/"+path)
}

// TestLostLeadLineNotStale places a git hunk that lost the middle line of
// its leading context, where that line's neighbour looks like it: read as
// a changed copy of the lost line, the neighbour leaves the hunk a line
// short of git's shape before its added line; read as itself, with the
// lost line after it, the shape is whole. Both readings change the file
// the same way, and the whole one is taken.
func TestLostLeadLineNotStale(t *testing.T) {
	old := text("exports.EVENT_CREATED = 'created';", "exports.EVENT_DELETED = 'deleted';", "exports.EVENT_MOVED = 'moved';",
		"exports.EVENT_CLONED = 'cloned';", "exports.EVENT_UNKNOWN = 'unknown';", "exports.TYPE_FILE = 'file';",
		"exports.TYPE_DIRECTORY = 'directory';", "exports.TYPE_SYMLINK = 'symlink';", "", "exports.KEY_LISTENERS = 'listeners';")
	patch := gitHeader("lib/constants.js") + text("@@ -3,5 +3,6 @@", " exports.EVENT_MOVED = 'moved';", " exports.EVENT_UNKNOWN = 'unknown';",
		"+exports.FLAG_MUST_SCAN_SUBDIRS = 1;", " exports.TYPE_FILE = 'file';", " exports.TYPE_DIRECTORY = 'directory';", " exports.TYPE_SYMLINK = 'symlink';")
	rs := mustPlace(t, old, patch)
	want := strings.Replace(old, "'unknown';\n", "'unknown';\nexports.FLAG_MUST_SCAN_SUBDIRS = 1;\n", 1)
	wantApplied(t, old, rs, want)
}
