// rule_nonewlineatend.go: the rule noNewlineAtEnd, one rule of the placement table.

package edit

// ruleNoNewlineAtEnd is the rule of that id; see its Statement.
var ruleNoNewlineAtEnd = Rule{
	ID:        "noNewlineAtEnd",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Certain},
	Statement: "A hunk whose old side ends without a final newline goes at the end of the file.",
}

// noNewlineAtEnd returns the candidates whose old side ends at the end of
// the file, where a hunk's "\ No newline at end of file" marker after its
// old side puts it.
func (fx *fileIndex) noNewlineAtEnd(cands []candidate) []candidate {
	var atEnd []candidate
	for _, c := range cands {
		if c.end() == len(fx.file) {
			atEnd = append(atEnd, c)
		}
	}
	return atEnd
}
