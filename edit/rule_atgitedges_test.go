package edit_test

import (
	"testing"
)

// TestRuleAtGitEdges: the rule atGitEdges decides this hunk (a case of the tests that
// first showed it, at its smallest).
func TestRuleAtGitEdges(t *testing.T) {
	old := text(
		"# Hooks",
		"",
		"```go",
		"func main() {",
		"  run()",
		"  }",
		"}",
		"```",
		"",
		"Or locally:",
		"",
		"```go",
		"func main() {",
		"  run()",
		"  }",
		"}",
		"```",
	)
	patch := text(
		"diff --git a/README.md b/README.md",
		"index 1111111..2222222 100644",
		"--- a/README.md",
		"+++ b/README.md",
		"@@ @@",
		"   }",
		" }",
		" ```",
		"+",
		"+## More",
		"+Text.",
	)
	wantTrace(t, old, patch, "atGitEdges")
}
