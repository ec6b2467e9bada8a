// split.go: Split: a hunk cut at its unchanged lines into smaller ones.

package edit

// CanSplit reports whether Split would return more than one hunk.
func CanSplit(r Resolved) bool { return len(groups(r.Lines)) > 1 }

// groups returns the [from, to) index ranges of r's runs of changed lines.
func groups(lines []Line) [][2]int {
	var out [][2]int
	for i := 0; i < len(lines); {
		if lines[i].Kind == Context {
			i++
			continue
		}
		j := i
		for j < len(lines) && lines[j].Kind != Context {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}

// Split cuts a resolved hunk into one hunk per run of changed lines, as the
// "s" of git add -p does. Each piece keeps the context lines before and
// after its run; the context between two runs appears in both pieces.
// A hunk with one run comes back unchanged. The pieces keep the hunk's
// pass and notes and are numbered by Part from r.Part.
func Split(r Resolved) []Resolved {
	gs := groups(r.Lines)
	if len(gs) < 2 {
		return []Resolved{r}
	}
	out := make([]Resolved, 0, len(gs))
	for k := range gs {
		from, to := 0, len(r.Lines)
		if k > 0 {
			from = gs[k-1][1]
		}
		if k < len(gs)-1 {
			to = gs[k+1][0]
		}
		// Old lines before this piece.
		start := r.Start
		for _, l := range r.Lines[:from] {
			if l.Kind != Add {
				start++
			}
		}
		p := r
		p.Part = r.Part + k
		p.Start = start
		p.Lines = append([]Line(nil), r.Lines[from:to]...)
		p.Notes = append([]string(nil), r.Notes...)
		if k < len(gs)-1 {
			p.FinalNewline = NewlineKeep
		}
		out = append(out, p)
	}
	return out
}
