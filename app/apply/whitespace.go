// whitespace.go: git apply --whitespace and the whitespace rules it
// checks added lines against (core.whitespace, the whitespace
// attribute): warn about them, refuse them, or fix them.

package apply

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/safetext"
)

// wsRules is the set of whitespace errors looked for in added lines, as
// core.whitespace names them, and the width of a tab.
type wsRules struct {
	blankAtEOL, blankAtEOF, spaceBeforeTab, indentWithNonTab, tabInIndent, crAtEOL bool
	tabWidth                                                                       int
}

// defaultWS is git's default: trailing-space (blank-at-eol and
// blank-at-eof) and space-before-tab, with tabs 8 wide.
var defaultWS = wsRules{blankAtEOL: true, blankAtEOF: true, spaceBeforeTab: true, tabWidth: 8}

// ErrWhitespace is returned by --whitespace=error and error-all when an
// added line has a whitespace error.
var ErrWhitespace = errors.New("added lines have whitespace errors")

// wsRuleNames are core.whitespace's rule names in git's order: a word
// names the first of them it begins (git reads "trailing" as
// trailing-space, "space" as space-before-tab).
var wsRuleNames = []string{"trailing-space", "space-before-tab", "indent-with-non-tab", "tab-in-indent", "cr-at-eol", "blank-at-eol", "blank-at-eof"}

// parseWSRules reads a core.whitespace value (or a whitespace attribute's
// value) as git does: from git's default, a comma-separated list of
// rules each turned on, or off with a leading "-", and tabwidth=N.
func parseWSRules(v string) (wsRules, error) {
	r := defaultWS
	for _, word := range strings.Split(v, ",") {
		word = strings.TrimSpace(word)
		on := !strings.HasPrefix(word, "-")
		word = strings.TrimPrefix(word, "-")
		if word == "" {
			continue
		}
		name := ""
		for _, n := range wsRuleNames {
			if strings.HasPrefix(n, word) {
				name = n
				break
			}
		}
		switch name {
		case "trailing-space":
			r.blankAtEOL, r.blankAtEOF = on, on
		case "blank-at-eol":
			r.blankAtEOL = on
		case "blank-at-eof":
			r.blankAtEOF = on
		case "space-before-tab":
			r.spaceBeforeTab = on
		case "indent-with-non-tab":
			r.indentWithNonTab = on
		case "tab-in-indent":
			r.tabInIndent = on
		case "cr-at-eol":
			r.crAtEOL = on
		default:
			if n, ok := strings.CutPrefix(word, "tabwidth="); ok && on {
				w, err := strconv.Atoi(n)
				if err != nil || w < 1 || w > 63 {
					return r, fmt.Errorf("core.whitespace: tabwidth=%s: not a tab width from 1 to 63", n)
				}
				r.tabWidth = w
			}
			// git ignores a rule it does not know.
		}
	}
	if r.tabInIndent && r.indentWithNonTab {
		return r, fmt.Errorf("core.whitespace: tab-in-indent and indent-with-non-tab cannot both be set")
	}
	return r, nil
}

// attrRules applies a whitespace attribute to the configured rules: set
// turns every rule on but tab-in-indent and cr-at-eol, unset turns them
// all off, a value is a list of rules.
func attrRules(base wsRules, attr string) (wsRules, error) {
	switch attr {
	case "":
		return base, nil
	case "set":
		return wsRules{blankAtEOL: true, blankAtEOF: true, spaceBeforeTab: true, indentWithNonTab: true, tabWidth: base.tabWidth}, nil
	case "unset":
		return wsRules{tabWidth: base.tabWidth}, nil
	}
	return parseWSRules(attr)
}

// wsLine is one added line's whitespace errors: where it is and what
// they are, in a person's words.
type wsLine struct {
	path string
	line int // in the file after the change, from the hunk's header
	what []string
}

// check returns the whitespace errors of an added line, in words.
func (r wsRules) check(text string) []string {
	var what []string
	body := text
	if r.crAtEOL {
		body = strings.TrimSuffix(body, "\r")
	}
	if r.blankAtEOL && len(strings.TrimRight(body, " \t\r\v\f")) != len(body) {
		what = append(what, "trailing whitespace")
	}
	indent := len(body) - len(strings.TrimLeft(body, " \t"))
	lastTab := strings.LastIndexByte(body[:indent], '\t')
	if r.spaceBeforeTab && lastTab > 0 && strings.Contains(body[:lastTab], " ") {
		what = append(what, "space before a tab in the indent")
	}
	if r.indentWithNonTab && indent-(lastTab+1) >= r.tabWidth {
		what = append(what, "indent with spaces")
	}
	if r.tabInIndent && lastTab >= 0 {
		what = append(what, "tab in the indent")
	}
	return what
}

// fix returns text with its whitespace errors fixed as git apply
// --whitespace=fix fixes them: trailing whitespace removed, the indent
// written with tabs where spaces come before a tab or make a tab's
// width, or with spaces only where tabs are an error.
func (r wsRules) fix(text string) string {
	cr := ""
	if r.crAtEOL && strings.HasSuffix(text, "\r") {
		text, cr = text[:len(text)-1], "\r"
	}
	if r.blankAtEOL {
		text = strings.TrimRight(text, " \t\r\v\f")
	}
	n := len(text) - len(strings.TrimLeft(text, " \t"))
	indent, rest := text[:n], text[n:]
	lastTab, lastSpace := strings.LastIndexByte(indent, '\t'), strings.LastIndexByte(indent, ' ')
	tabs := r.spaceBeforeTab && lastTab > 0 && strings.Contains(indent[:lastTab], " ")
	if r.indentWithNonTab {
		// A run of spaces a tab wide, anywhere in the indent.
		tabs = tabs || strings.Contains(indent, strings.Repeat(" ", r.tabWidth))
	}
	switch {
	case tabs:
		// The indent up to its last tab, or all of it when spaces
		// should be tabs, rewritten: each tab kept, each run of spaces
		// a tab wide becomes a tab, shorter runs before a tab go.
		end := lastTab + 1
		if r.indentWithNonTab {
			end = max(lastTab, lastSpace) + 1
		}
		var b strings.Builder
		spaces := 0
		for i := 0; i < end; i++ {
			if indent[i] != ' ' {
				spaces = 0
				b.WriteByte(indent[i])
				continue
			}
			if spaces++; spaces == r.tabWidth {
				b.WriteByte('\t')
				spaces = 0
			}
		}
		b.WriteString(strings.Repeat(" ", spaces))
		indent = b.String() + indent[end:]
	case r.tabInIndent && lastTab >= 0:
		// Tabs expanded to the next multiple of the tab width.
		var b strings.Builder
		for i := 0; i <= lastTab; i++ {
			if indent[i] != '\t' {
				b.WriteByte(indent[i])
				continue
			}
			b.WriteByte(' ')
			for b.Len()%r.tabWidth != 0 {
				b.WriteByte(' ')
			}
		}
		indent = b.String() + indent[lastTab+1:]
	}
	return indent + rest + cr
}

// blank reports whether an added line is blank, for blank-at-eof.
func blank(text string) bool { return strings.TrimSpace(text) == "" }

// whitespaceAction returns what --whitespace (or apply.whitespace) asks
// for: nowarn, warn, fix, error or error-all.
func (a *applier) whitespaceAction() (action, core string, err error) {
	cfgAction, core, err := a.tree.WhitespaceConfig()
	if err != nil {
		return "", "", err
	}
	action, from := a.o.Whitespace, "--whitespace"
	if action == "" {
		action, from = cfgAction, "apply.whitespace"
	}
	switch action {
	case "", "nowarn":
		// git warns by default; pair's review shows each added line, and
		// says nothing of whitespace unless asked.
		return "nowarn", core, nil
	case "strip":
		return "fix", core, nil
	case "warn", "fix", "error", "error-all":
		return action, core, nil
	}
	return "", "", output.Usagef("apply: %s=%s: not one of nowarn, warn, fix, error, error-all", from, safetext.Text(action))
}

// whitespace checks the added lines of the patch against the whitespace
// rules of their files, as --whitespace asks: warns, refuses the patch,
// or fixes them in the patch before it is placed.
func (a *applier) whitespace(p *edit.Patch) error {
	action, core, err := a.whitespaceAction()
	if err != nil || action == "nowarn" {
		return err
	}
	base, err := parseWSRules(core)
	if err != nil {
		return err
	}
	// Each file's rules; git fixes every added line of a patch that has
	// any whitespace error, by its file's rules.
	rules := make([]wsRules, len(p.Files))
	for i, f := range p.Files {
		if f.Binary || f.NewPath == "" {
			continue
		}
		attr, err := a.tree.WhitespaceAttr(f.NewPath)
		if err != nil {
			return err
		}
		if rules[i], err = attrRules(base, attr); err != nil {
			return err
		}
	}
	var past map[*edit.Hunk]pastEnd
	if action == "fix" {
		if past, err = a.pastEOF(p, rules); err != nil {
			return err
		}
	}
	var found []wsLine
	eof := map[*edit.Hunk]int{} // the blank lines a hunk adds at the end of the file
	for i, f := range p.Files {
		if f.Binary || f.NewPath == "" {
			continue
		}
		for hi, h := range f.Hunks {
			at := h.NewStart
			for _, l := range h.Lines {
				if l.Kind == edit.Delete {
					continue
				}
				if what := rules[i].check(l.Text); l.Kind == edit.Add && len(what) > 0 {
					found = append(found, wsLine{path: f.NewPath, line: at, what: what})
				}
				at++
			}
			if n := a.blankAtEOF(f, hi, rules[i], past[h].n > 0); n > 0 {
				eof[h] = n
				found = append(found, wsLine{path: f.NewPath, line: at - n, what: []string{"blank lines at the end of the file"}})
			}
		}
	}
	if action == "fix" {
		fixWhitespace(p, rules, eof, past, len(found) > 0)
		a.wsFixed = map[*edit.FileDiff]wsRules{}
		for i, f := range p.Files {
			if i < len(rules) {
				a.wsFixed[f] = rules[i]
			}
		}
	}
	if len(found) == 0 {
		return nil
	}
	return a.reportWhitespace(action, found)
}

// fixWhitespace fixes the context and deleted lines of p by their
// file's rules, so that they match a file whose whitespace was fixed (git
// compares them fixed), and, when the patch has whitespace errors
// (added), every added line; it gives the old lines that past counts at
// the end of their hunks to the file (see pastEOF), takes the blank lines
// eof counts off the end of their hunks, and leaves out the hunks that
// then change nothing, and the files left with none.
func fixWhitespace(p *edit.Patch, rules []wsRules, eof map[*edit.Hunk]int, past map[*edit.Hunk]pastEnd, added bool) {
	var files []*edit.FileDiff
	for i, f := range p.Files {
		if f.Binary || f.NewPath == "" {
			files = append(files, f)
			continue
		}
		var hunks []*edit.Hunk
		for _, h := range f.Hunks {
			for j := range h.Lines {
				if l := &h.Lines[j]; l.Kind != edit.Add || added {
					l.Text = rules[i].fix(l.Text)
				}
			}
			if e := past[h]; e.n > 0 {
				e.give(h)
			}
			if n := eof[h]; n > 0 {
				// The last n added lines, all blank, go.
				for j := len(h.Lines) - 1; j >= 0 && n > 0; j-- {
					if h.Lines[j].Kind == edit.Add {
						h.Lines = slices.Delete(h.Lines, j, j+1)
						h.NewLines--
						n--
					}
				}
			}
			if h.Changes() {
				hunks = append(hunks, h)
			}
		}
		emptied := len(hunks) == 0 && len(f.Hunks) > 0
		f.Hunks = hunks
		if !emptied || f.New || f.Renamed || f.Copied || f.ModeChange() {
			files = append(files, f)
		}
	}
	p.Files = files
}

// fixContext gives the file's context lines their whitespace fixed
// where a hunk matched only with whitespace fixed, as git apply
// --whitespace=fix writes them: such a context line becomes the file's
// line deleted and its fixed form added, so that the review shows it. A
// hunk that matched the file exactly leaves its context as it is.
func (a *applier) fixContext(plans []*edit.FilePlan) {
	for _, p := range plans {
		r, ok := a.wsFixed[p.Diff]
		if !ok || p.Old == "" {
			continue
		}
		old := strings.Split(p.Old, "\n")
		for hi := range p.Hunks {
			h := &p.Hunks[hi]
			if h.Pass == edit.PassExact {
				continue
			}
			var lines []edit.Line
			k := h.Start
			for _, l := range h.Lines {
				if l.Kind == edit.Add {
					lines = append(lines, l)
					continue
				}
				if l.Kind == edit.Context && k < len(old) {
					file := strings.TrimSuffix(old[k], "\r")
					if fixed := r.fix(file); fixed != file {
						lines = append(lines, edit.Line{Kind: edit.Delete, Text: file, EOL: l.EOL}, edit.Line{Kind: edit.Add, Text: fixed, EOL: l.EOL})
						k++
						continue
					}
				}
				lines = append(lines, l)
				k++
			}
			h.Lines = lines
		}
	}
}

// pastEnd is a hunk whose last n old lines lie past the end of the
// file, whose lines (without their CR) are file.
type pastEnd struct {
	n    int
	file []string
}

// pastEOF finds the last hunk of each file that fits the file only with
// blank old lines past its end. With --whitespace=fix and blank-at-eof,
// git apply lets the blank old lines at the end of a hunk stand for
// blank lines the file no longer has: the hunk's other old lines must be
// the file's last lines, one of them not blank, compared with their
// whitespace fixed (or ignored, with --ignore-whitespace), and the hunk
// must fit nowhere within the file.
func (a *applier) pastEOF(p *edit.Patch, rules []wsRules) (map[*edit.Hunk]pastEnd, error) {
	ignore := a.o.Placing.IgnoreWhitespace
	if !ignore && a.tree.Git {
		var err error
		if ignore, err = a.tree.ApplyIgnoresWhitespace(); err != nil {
			return nil, err
		}
	}
	past := map[*edit.Hunk]pastEnd{}
	for i, f := range p.Files {
		if f.Binary || f.NewPath == "" || f.New || len(f.Hunks) == 0 || !rules[i].blankAtEOF {
			continue
		}
		h, r := f.Hunks[len(f.Hunks)-1], rules[i]
		key := func(s string) string {
			s = r.fix(s)
			if ignore {
				lead := ""
				if strings.TrimLeft(s, " \t") != s {
					lead = " "
				}
				s = lead + strings.Join(strings.Fields(s), " ")
			}
			return s
		}
		var pre []string
		for _, t := range h.Pre() {
			pre = append(pre, key(t))
		}
		if len(pre) == 0 || !blank(pre[len(pre)-1]) || h.OldNoNewline {
			continue
		}
		old, err := a.tree.ReadEditTarget(f.Source(), a.o.Access)
		if err != nil || old == "" {
			continue // placing the file says what is wrong with it
		}
		var file, keys []string
		for _, t := range strings.Split(strings.TrimSuffix(old, "\n"), "\n") {
			t = strings.TrimSuffix(t, "\r")
			file, keys = append(file, t), append(keys, key(t))
		}
		if n := pastLines(pre, keys); n > 0 {
			past[h] = pastEnd{n: n, file: file}
		}
	}
	return past, nil
}

// pastLines returns how many of the old lines pre at their end lie past
// the end of file, as pastEOF reads them; 0 when pre fits within file,
// or its lines are not the file's so.
func pastLines(pre, file []string) int {
	for at := 0; at+len(pre) <= len(file); at++ {
		if slices.Equal(pre, file[at:at+len(pre)]) {
			return 0
		}
	}
	for k := 1; k < len(pre) && blank(pre[len(pre)-k]); k++ {
		keep := pre[:len(pre)-k]
		if len(keep) > len(file) || !slices.Equal(keep, file[len(file)-len(keep):]) {
			continue
		}
		if slices.ContainsFunc(keep, func(s string) bool { return !blank(s) }) {
			return k
		}
	}
	return 0
}

// give makes h, whose whitespace fixWhitespace fixed, write its old
// lines past the end of the file: a context line there becomes an added
// line, a deleted one goes. A hunk that then changes nothing among the
// file's lines only adds at the end of the file, and is written so, as
// diff -U0 writes it, since its few context lines left would not say
// where its lines go; its first context line whose whitespace is fixed
// is written as that change, which places it.
func (e pastEnd) give(h *edit.Hunk) {
	k := e.n
	j := len(h.Lines) - 1
	for ; j >= 0 && k > 0; j-- {
		switch h.Lines[j].Kind {
		case edit.Context:
			h.Lines[j].Kind = edit.Add
		case edit.Delete:
			h.Lines = slices.Delete(h.Lines, j, j+1)
		default:
			continue
		}
		h.OldLines--
		k--
	}
	keep := h.Lines[:j+1] // the lines over the file's last ones
	if slices.ContainsFunc(keep, func(l edit.Line) bool { return l.Kind != edit.Context }) {
		return
	}
	at := len(e.file) - len(keep)
	for i, l := range keep {
		if l.Text != e.file[at+i] {
			h.Lines = slices.Insert(h.Lines, i, edit.Line{Kind: edit.Delete, Text: e.file[at+i], EOL: l.EOL})
			h.Lines[i+1].Kind = edit.Add
			return
		}
	}
	h.Lines = h.Lines[len(keep):]
	h.NewStart, h.NewLines = h.NewStart+len(keep), h.NewLines-len(keep)
	h.OldStart, h.OldLines = len(e.file), 0
}

// blankAtEOF returns how many blank lines the hunk hi of f adds at the
// end of its file: the added lines after its last line that is not
// blank, when it reaches the end of the file (it creates it, its old
// side ends at the file's last line, or past it: pastEOF).
func (a *applier) blankAtEOF(f *edit.FileDiff, hi int, r wsRules, past bool) int {
	h := f.Hunks[hi]
	if !r.blankAtEOF || hi != len(f.Hunks)-1 {
		return 0
	}
	// The blank lines at the hunk's end: added ones count, blank
	// context among them does not.
	n := 0
	for i := len(h.Lines) - 1; i >= 0; i-- {
		l := h.Lines[i]
		if l.Kind == edit.Delete {
			continue
		}
		if !blank(l.Text) {
			break
		}
		if l.Kind == edit.Add {
			n++
		}
	}
	if n == 0 {
		return 0
	}
	if f.New || past {
		return n
	}
	old, err := a.tree.ReadEditTarget(f.Source(), a.o.Access)
	if err != nil {
		return 0
	}
	lines := strings.Count(old, "\n")
	if old != "" && !strings.HasSuffix(old, "\n") {
		lines++
	}
	if h.OldStart+h.OldLines-1 != lines && !(h.OldLines == 0 && h.OldStart == lines) {
		return 0
	}
	return n
}

// reportWhitespace tells the person of the whitespace errors found, in
// short sentences, and fails for error and error-all.
func (a *applier) reportWhitespace(action string, found []wsLine) error {
	show := found
	if action != "error-all" && len(show) > 5 {
		show = show[:5]
	}
	var where []string
	for _, w := range show {
		where = append(where, fmt.Sprintf("%s line %d: %s", safetext.Name(w.path), w.line, strings.Join(w.what, ", ")))
	}
	if len(show) < len(found) {
		where = append(where, fmt.Sprintf("and %d more", len(found)-len(show)))
	}
	n := len(found)
	lines := fmt.Sprintf("%d added %s", n, output.Plural(n, "line"))
	switch action {
	case "fix":
		fmt.Fprintf(a.o.IO.Err, "pair: apply: fixed the whitespace of %s (%s)\n", lines, strings.Join(where, "; "))
		return nil
	case "warn":
		fmt.Fprintf(a.o.IO.Err, "pair: apply: warning: %s %s whitespace errors (%s)\n", lines, map[bool]string{true: "has", false: "have"}[n == 1], strings.Join(where, "; "))
		return nil
	}
	return fmt.Errorf("%w: %s (%s); nothing was written; --whitespace=fix fixes them, --whitespace=nowarn applies them as they are",
		ErrWhitespace, lines, strings.Join(where, "; "))
}
