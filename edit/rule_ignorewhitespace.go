// rule_ignorewhitespace.go: the rule ignoreWhitespace, one rule of the placement table.

package edit

// ruleIgnoreWhitespace is the rule of that id; see its Statement.
var ruleIgnoreWhitespace = Rule{
	ID:        "ignoreWhitespace",
	Stage:     StageCandidates,
	Verdicts:  []Verdict{Certain},
	Statement: "With git apply --ignore-whitespace, lines that differ in whitespace only fit as well as lines that match letter for letter, and the added lines are written as the patch has them.",
}

// firstLevel is the strictest level of comparison the exact passes
// start from: with --ignore-whitespace (PlaceOptions.IgnoreWhitespace),
// runs of whitespace collapsed, as git apply compares lines then, so
// that a place matching letter for letter is no better than one that
// differs in whitespace, and the header's number chooses between them.
func (pl *placer) firstLevel() level {
	if pl.opts.IgnoreWhitespace {
		return levelWhitespace
	}
	return levelExact
}

// ignoreWhitespace gives each of the places cs, found at firstLevel
// with --ignore-whitespace, the strictest level its lines match at (its
// label), and keeps the added lines as the patch has them, as git apply
// writes them. It reports whether the option decided: some place's lines
// differ from the patch's in whitespace.
func (pl *placer) ignoreWhitespace(cs []candidate, pre []preLine) bool {
	if !pl.opts.IgnoreWhitespace {
		return false
	}
	differs := false
	for k := range cs {
		c := &cs[k]
		if c.level != levelWhitespace {
			continue
		}
		c.keepIndent = true
		lv := levelExact
		for ; lv < levelWhitespace; lv++ {
			fk, pk := pl.keysAt(lv), preKeys(pre, lv)
			same := true
			for j, a := range c.align {
				if fk[a] != pk[j] {
					same = false
					break
				}
			}
			if same {
				break
			}
		}
		c.level, c.pass = lv, levelPass[lv]
		differs = differs || lv != levelExact
	}
	return differs
}
