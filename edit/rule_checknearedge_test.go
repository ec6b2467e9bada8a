package edit_test

import (
	"testing"
)

// TestRuleCheckNearEdge: the rule checkNearEdge refuses this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleCheckNearEdge(t *testing.T) {
	old := text(
		"exports.a = (function () {",
		"  return function () {",
		"    return {};",
		"  };",
		"})();",
		"",
		"",
	)
	patch := text(
		"--- a/a.js",
		"+++ b/a.js",
		"@@ @@",
		"   };",
		" })();",
		"+exports.b = 1;",
		" ",
	)
	wantRefused(t, old, patch, "checkNearEdge")
}
