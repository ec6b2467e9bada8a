// rule_alreadyapplied.go: the rule alreadyApplied, one rule of the placement table.

package edit

// ruleAlreadyApplied is the rule of that id; see its Statement.
var ruleAlreadyApplied = Rule{
	ID:        "alreadyApplied",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Refuse},
	Statement: "A hunk whose result is already in the file, while its old lines are not, was applied before: it is refused, never applied twice.",
}

// alreadyApplied reports whether h's post-image is in the file while its
// pre-image is not: the patch was probably applied before.
func (fx *fileIndex) alreadyApplied(h *Hunk) bool {
	post := h.Post()
	if len(post) == 0 {
		return false
	}
	pk := make([]string, len(post))
	for i, l := range post {
		pk[i] = key(levelWhitespace, l)
	}
	return len(fx.exact(pk, levelWhitespace)) > 0
}
