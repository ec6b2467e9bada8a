// rule_guard.go: the rule guard, one rule of the placement table.

package edit

import (
	"errors"
	"fmt"
	"slices"
)

// ruleGuard is the rule of that id; see its Statement.
var ruleGuard = Rule{
	ID:        "guard",
	Stage:     StageFile,
	Verdicts:  []Verdict{Refuse},
	Statement: "A hunk placed tolerantly that makes a file which passed its syntax check fail it is read with its added lines as written if that passes, else refused and offered for review.",
}

// ErrSyntax means that a hunk placed by a tolerant pass would leave a file
// that passed its language's syntax check failing it.
var ErrSyntax = errors.New("hunk would break the file's syntax")

// guardMax is how many tolerant hunks of one file the guard blames one
// by one; past it, all are refused when the result fails its check.
const guardMax = 32

// guard checks the file's syntax after hunks placed by a tolerant pass,
// where the file's language has a cheap check and the file passed it
// before: an exact placement is never second-guessed (a series of hunks
// may leave a file unbalanced half-way). A hunk that breaks the file is
// read the other way (its added lines as written, not re-indented) if
// that passes, else refused. The check that ran is noted on the hunks.
func (fp *filePlaces) guard(rs []Resolved) []Resolved {
	tolerant := func(r Resolved) bool { return r.Pass != PassExact }
	if !slices.ContainsFunc(rs, tolerant) {
		return rs
	}
	sc, ok := syntaxFor(fp.fd.Path())
	if !ok {
		return rs
	}
	note := func(rs []Resolved, msg string) {
		for i := range rs {
			if tolerant(rs[i]) {
				rs[i].Notes = append(rs[i].Notes, msg)
			}
		}
	}
	result := func(rs []Resolved) string {
		out, err := Apply(fp.old, rs)
		if err != nil {
			return "the hunks do not apply: " + err.Error()
		}
		return sc.check(out)
	}
	if sc.quick != nil {
		// Check only the parts of the result that tolerant hunks changed:
		// if they pass, the file does (a first look; a failure is judged
		// on the whole file).
		if out, err := Apply(fp.old, rs); err == nil {
			var ranges [][2]int
			delta := 0 // lines the hunks before add to the file
			for _, r := range rs {
				if tolerant(r) {
					ranges = append(ranges, [2]int{r.Start + delta, r.Start + delta + r.NewCount()})
				}
				delta += r.NewCount() - r.OldCount()
			}
			if lines, _ := splitLines(out); sc.quick(lines, ranges) {
				note(rs, "syntax check ("+sc.name+") passed")
				return rs
			}
		}
	}
	problem := result(rs)
	if problem == "" {
		note(rs, "syntax check ("+sc.name+") passed")
		return rs
	}
	// Only a file that passed before is held to it (checked second: most
	// results pass, and then the file before does not matter).
	if sc.check(fp.old) != "" {
		note(rs, "syntax check ("+sc.name+") not held to: the file did not pass it before either")
		return rs
	}
	// Blame: the tolerant hunks whose removal (or other reading) mends it.
	var blamed []int // indexes in rs
	for i, r := range rs {
		if tolerant(r) {
			blamed = append(blamed, i)
		}
	}
	refuse := map[int]bool{} // source hunk indexes
	if len(blamed) <= guardMax {
		var culprits []int
		for _, i := range blamed {
			if result(slices.Delete(slices.Clone(rs), i, i+1)) == "" {
				culprits = append(culprits, i)
			}
		}
		if len(culprits) > 0 {
			blamed = culprits
		}
	}
	for _, i := range blamed {
		if alt, ok := fp.otherReading(rs[i]); ok {
			try := slices.Clone(rs)
			try[i] = alt
			if result(try) == "" {
				alt.Rules = append(alt.Rules, ruleGuard.ID)
				alt.Notes = append(alt.Notes, "added lines kept as written: re-indented, they would fail the syntax check ("+sc.name+")")
				rs[i] = alt
				continue
			}
		}
		refuse[rs[i].Hunk] = true
	}
	// A refused hunk of one part is offered as uncertain, with what its
	// placement alone does to the file when that fails too.
	refused := func(r Resolved, problem string) {
		if r.Part != 0 {
			return
		}
		why := problem
		if p := result([]Resolved{r}); p != "" {
			why = p
		}
		e := fp.failTraced(r.Hunk, traced(r.Rules, ruleGuard.ID), ErrSyntax, fmt.Sprintf("placed loosely (%s), it makes the file fail the syntax check (%s) that it passed: %s", r.Label(), sc.name, why), nil)
		if c := fp.hunks[r.Hunk].chosen; c != nil && c.split == 0 && e.Interpreted == nil {
			e.Interpreted = uncertain(r, fmt.Sprintf("placed loosely (%s), the file no longer passes its syntax check (%s: %s)", r.Label(), sc.name, why))
		}
	}
	kept := rs[:0]
	for _, r := range rs {
		if refuse[r.Hunk] {
			refused(r, problem)
			continue
		}
		kept = append(kept, r)
	}
	if problem = result(kept); problem != "" {
		// The hunks break it together: refuse every tolerant one.
		for _, r := range kept {
			if tolerant(r) && !refuse[r.Hunk] {
				refuse[r.Hunk] = true
				refused(r, problem)
			}
		}
		kept = slices.DeleteFunc(kept, func(r Resolved) bool { return refuse[r.Hunk] })
		return kept
	}
	note(kept, "syntax check ("+sc.name+") passed")
	return kept
}

// otherReading resolves r's hunk again with its added lines as written,
// when its placement re-indented them.
func (fp *filePlaces) otherReading(r Resolved) (Resolved, bool) {
	c := fp.hunks[r.Hunk].chosen
	if c == nil || c.split > 0 {
		return Resolved{}, false
	}
	alt := *c
	alt.keepIndent = true
	out, err := fp.resolve(r.Hunk, &alt)
	if err != nil || len(out) != 1 || slices.Equal(out[0].Lines, r.Lines) {
		return Resolved{}, false
	}
	return out[0], true
}
