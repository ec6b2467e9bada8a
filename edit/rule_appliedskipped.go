// rule_appliedskipped.go: the rule appliedSkipped, one rule of the placement table.

package edit

// ruleAppliedSkipped is the rule of that id; see its Statement.
var ruleAppliedSkipped = Rule{
	ID:        "appliedSkipped",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Certain},
	Statement: "A hunk whose result is in the file letter for letter at one place only, while its old lines are nowhere, was applied before: it is skipped and reported.",
}

// appliedOnce reports whether h's post-image is in the file letter for
// letter at exactly one place (its pre-image is known to be nowhere).
func (fx *fileIndex) appliedOnce(h *Hunk) bool {
	post := h.Post()
	if len(post) == 0 {
		return false
	}
	return len(fx.exact(post, levelExact)) == 1
}
