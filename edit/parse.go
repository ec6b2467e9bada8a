package edit

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrNoDiff is returned by Parse when the text holds no hunk and no file
// header at all.
var ErrNoDiff = errors.New("no unified diff found")

// ErrNoHunks is returned by Patch.CheckHunks for a file section without
// hunks that is no file operation either (headers followed by prose, say):
// applying it would do nothing while seeming to succeed. git apply says
// the same.
var ErrNoHunks = errors.New("no valid patches in input")

// CheckHunks returns an error wrapping ErrNoHunks when a file section of p
// has no hunk and does not create, delete, rename, copy or change the mode
// of a file either. Parse accepts such sections (a rendered selection of
// hunks may be empty); a patch given to be applied must not have them.
func (p *Patch) CheckHunks() error {
	for _, f := range p.Files {
		if len(f.Hunks) > 0 || f.New || f.Deleted || f.Renamed || f.Copied || f.ModeChange() || f.Binary {
			continue
		}
		name := f.Path()
		if name == "" {
			name = "a file"
		}
		return fmt.Errorf("%w: the section for %s has file headers but no hunk, and creates, deletes, renames or changes the mode of nothing", ErrNoHunks, name)
	}
	return nil
}

// Parse reads a unified diff leniently. It accepts what git, GNU diff and
// language models write: git extended headers or none, "---"/"+++" with or
// without "a/" and "b/" prefixes, hunk headers with wrong, missing or no
// numbers, CRLF line endings, blank context lines that lost their leading
// space, "\ No newline at end of file" markers, and diffs inside fenced
// ```diff blocks of prose. Hunks that come before any file header belong to
// a FileDiff with empty paths, for the caller to name.
//
// Line counts in hunk headers are not trusted: a hunk ends where its lines
// stop looking like hunk lines.
func Parse(text string) (*Patch, error) {
	return parseLines(splitPatchLines(text))
}

// parseLines is Parse of a text already split by splitPatchLines.
func parseLines(lines []string) (*Patch, error) {
	if blocks := fencedDiffs(lines); blocks != nil {
		lines = blocks
	}
	p := &parser{lines: lines}
	if err := p.run(); err != nil {
		return nil, err
	}
	if len(p.patch.Files) == 0 {
		return nil, ErrNoDiff
	}
	return &p.patch, nil
}

// splitPatchLines splits text into lines without terminators, accepting
// LF, CRLF and a missing final newline.
func splitPatchLines(text string) []string {
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// fencedDiffs returns the contents of the fenced code blocks that hold a
// diff, joined, or nil when the text has no such block (and is then read
// as a bare diff).
func fencedDiffs(lines []string) []string {
	var out []string
	found := false
	for _, b := range diffFences(lines) {
		if looksLikeDiff(b.body) {
			found = true
			out = append(out, b.body...)
			out = append(out, "") // keep blocks apart
		}
	}
	if !found {
		return nil
	}
	return out
}

// diffFences returns the fenced blocks of a text as the unified form reads
// them. Fences must start at column 0: diff lines never do, while a
// context line " ```" (a Markdown file's own fence) is a diff line.
func diffFences(lines []string) []fencedBlock {
	var out []fencedBlock
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "```") {
			continue
		}
		end := i + 1
		for end < len(lines) && strings.TrimRight(lines[end], " \t") != "```" {
			end++
		}
		out = append(out, fencedBlock{open: i, end: end, info: strings.TrimSpace(strings.TrimLeft(lines[i], "`")), body: lines[i+1 : min(end, len(lines))]})
		i = end
	}
	return out
}

func looksLikeDiff(lines []string) bool {
	for i, l := range lines {
		if strings.HasPrefix(l, "@@") || strings.HasPrefix(l, "diff --git ") {
			return true
		}
		if strings.HasPrefix(l, "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "+++ ") {
			return true
		}
	}
	return false
}

type parser struct {
	lines []string
	i     int
	patch Patch
	cur   *FileDiff
	// git is set while cur was opened by a "diff --git" line and has not
	// yet seen its ---/+++ pair or a hunk.
	git bool
}

func (p *parser) run() error {
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		switch {
		case strings.HasPrefix(l, "diff --git "):
			p.startGit(l)
			p.i++
		case p.isFileHeader():
			p.fileHeader()
		case p.cur != nil && p.git && l == "GIT binary patch":
			if err := p.binaryPatch(); err != nil {
				return err
			}
		case strings.HasPrefix(l, "@@"):
			if err := p.hunk(); err != nil {
				return err
			}
		case p.cur != nil && p.git:
			p.extendedHeader(l)
			p.i++
		default:
			p.i++ // prose, "index" lines of plain diffs, junk: skip
		}
	}
	return nil
}

// isFileHeader reports whether the current line starts a "---"/"+++" pair.
func (p *parser) isFileHeader() bool {
	return strings.HasPrefix(p.lines[p.i], "--- ") && p.i+1 < len(p.lines) &&
		strings.HasPrefix(p.lines[p.i+1], "+++ ")
}

func (p *parser) open() *FileDiff {
	f := &FileDiff{}
	p.patch.Files = append(p.patch.Files, f)
	p.cur = f
	return f
}

func (p *parser) startGit(l string) {
	f := p.open()
	p.git = true
	old, nw, ok := parseGitNames(strings.TrimPrefix(l, "diff --git "))
	if ok {
		f.OldPath, f.NewPath, f.Stripped = old, nw, true
	}
}

// parseGitNames splits the "a/x b/x" of a diff --git line.
func parseGitNames(s string) (old, nw string, ok bool) {
	if strings.HasPrefix(s, `"`) {
		a, rest, err := unquoteCPrefix(s)
		if err != nil {
			return "", "", false
		}
		rest = strings.TrimLeft(rest, " ")
		b := rest
		if strings.HasPrefix(rest, `"`) {
			if b, _, err = unquoteCPrefix(rest); err != nil {
				return "", "", false
			}
		}
		a, aok := stripGitPrefix(a)
		b, bok := stripGitPrefix(b)
		return a, b, aok && bok
	}
	// Same name on both sides (the common case) even when it has spaces.
	if n := len(s); n%2 == 1 {
		a, b := s[:n/2], s[n/2+1:]
		if s[n/2] == ' ' {
			sa, aok := stripGitPrefix(a)
			sb, bok := stripGitPrefix(b)
			if aok && bok && sa == sb {
				return sa, sb, true
			}
		}
	}
	for _, pfx := range []string{" b/", " w/", " i/", " c/", " o/"} {
		if a, b, found := strings.Cut(s, pfx); found {
			sa, aok := stripGitPrefix(a)
			if aok {
				if strings.HasPrefix(b, `"`) {
					var err error
					if b, _, err = unquoteCPrefix(b); err != nil {
						return "", "", false
					}
					b, _ = stripGitPrefix(b)
				}
				return sa, b, true
			}
		}
	}
	return "", "", false
}

// stripGitPrefix removes one of git's source/destination prefixes (a/, b/,
// and the mnemonic i/, w/, c/, o/).
func stripGitPrefix(s string) (string, bool) {
	if len(s) > 2 && s[1] == '/' && strings.IndexByte("abiwco", s[0]) >= 0 {
		return s[2:], true
	}
	return s, false
}

func (p *parser) extendedHeader(l string) {
	f := p.cur
	word := func(prefix string) (string, bool) {
		if strings.HasPrefix(l, prefix) {
			return strings.TrimSpace(strings.TrimPrefix(l, prefix)), true
		}
		return "", false
	}
	if v, ok := word("old mode "); ok {
		f.OldMode = v
	} else if v, ok := word("new mode "); ok {
		f.NewMode = v
	} else if v, ok := word("new file mode "); ok {
		f.New, f.NewMode, f.OldPath = true, v, ""
	} else if v, ok := word("deleted file mode "); ok {
		f.Deleted, f.OldMode, f.NewPath = true, v, ""
	} else if v, ok := word("rename from "); ok {
		f.Renamed, f.OldPath = true, unquoteName(v)
	} else if v, ok := word("rename to "); ok {
		f.Renamed, f.NewPath = true, unquoteName(v)
	} else if v, ok := word("copy from "); ok {
		f.Copied, f.OldPath = true, unquoteName(v)
	} else if v, ok := word("copy to "); ok {
		f.Copied, f.NewPath = true, unquoteName(v)
	} else if v, ok := word("index "); ok {
		f.Indexed = true
		f.OldID, f.NewID = indexIDs(v)
		// "index abc..def 100644": the mode of an unchanged-mode file.
		if _, mode, found := strings.Cut(v, " "); found && f.OldMode == "" && f.NewMode == "" {
			f.OldMode, f.NewMode = mode, mode
		}
	} else if strings.HasPrefix(l, "Binary files ") || l == "GIT binary patch" {
		f.Binary = true
	}
}

// fileHeader reads a "--- old" / "+++ new" pair.
func (p *parser) fileHeader() {
	old := headerName(strings.TrimPrefix(p.lines[p.i], "--- "))
	nw := headerName(strings.TrimPrefix(p.lines[p.i+1], "+++ "))
	p.i += 2
	f := p.cur
	if f == nil || !p.git {
		f = p.open()
	}
	p.git = false
	oldNull, newNull := old == "/dev/null", nw == "/dev/null"
	so, oldPfx := stripGitPrefix(old)
	sn, newPfx := stripGitPrefix(nw)
	switch {
	case oldNull && newNull:
	case oldNull:
		f.New = true
		f.OldPath = ""
		f.NewPath, f.Stripped = pick(f, nw, sn, newPfx)
	case newNull:
		f.Deleted = true
		f.NewPath = ""
		f.OldPath, f.Stripped = pick(f, old, so, oldPfx)
	case oldPfx && newPfx:
		f.OldPath, f.NewPath, f.Stripped = so, sn, true
	default:
		if f.Stripped && f.OldPath != "" {
			// A diff --git line already named the file; trust it when the
			// ---/+++ names are the same file without prefixes.
			if old == f.OldPath || nw == f.NewPath {
				return
			}
		}
		f.OldPath, f.NewPath, f.Stripped = old, nw, false
	}
}

// pick chooses between a name and its prefix-stripped form for a header
// whose other side is /dev/null.
func pick(f *FileDiff, raw, stripped string, hadPrefix bool) (string, bool) {
	if f.Stripped && f.Path() != "" {
		return f.Path(), true
	}
	if hadPrefix {
		return stripped, true
	}
	return raw, false
}

// headerName extracts the file name from a ---/+++ header value: it drops
// a trailing timestamp (after a tab) and undoes C-style quoting.
func headerName(s string) string {
	if strings.HasPrefix(s, `"`) {
		if name, _, err := unquoteCPrefix(s); err == nil {
			return name
		}
	}
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimRight(s, " ")
}

func unquoteName(s string) string {
	if strings.HasPrefix(s, `"`) {
		if name, _, err := unquoteCPrefix(s); err == nil {
			return name
		}
	}
	return s
}

// unquoteCPrefix reads one C-quoted string (git's quoting of unusual
// names) from the start of s and returns it with the rest of s.
func unquoteCPrefix(s string) (string, string, error) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			return b.String(), s[i+1:], nil
		case '\\':
			i++
			if i >= len(s) {
				return "", "", errors.New("unterminated quoted name")
			}
			switch e := s[i]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'a':
				b.WriteByte('\a')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'v':
				b.WriteByte('\v')
			case '0', '1', '2', '3':
				if i+2 >= len(s) {
					return "", "", errors.New("bad octal escape in quoted name")
				}
				n, err := strconv.ParseUint(s[i:i+3], 8, 8)
				if err != nil {
					return "", "", fmt.Errorf("bad octal escape in quoted name: %w", err)
				}
				b.WriteByte(byte(n))
				i += 2
			default:
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", "", errors.New("unterminated quoted name")
}

// parseHunkHeader reads "@@ -a,b +c,d @@ section" and its damaged forms
// ("@@ ... @@", "@@", "@@ -a +c @@", numbers missing on one side).
func parseHunkHeader(l string) *Hunk {
	h := &Hunk{}
	rest := strings.TrimLeft(l, "@")
	body := rest
	if i := strings.Index(rest, "@@"); i >= 0 {
		body = rest[:i]
		h.Section = strings.TrimSpace(strings.TrimLeft(rest[i:], "@"))
	}
	fields := strings.Fields(body)
	for _, f := range fields {
		if len(f) < 2 || (f[0] != '-' && f[0] != '+') {
			continue
		}
		start, count, ok := parseRange(f[1:])
		if !ok {
			continue
		}
		if f[0] == '-' {
			h.OldStart, h.OldLines = start, count
			h.HasNumbers = true
		} else {
			h.NewStart, h.NewLines = start, count
			if !h.HasNumbers {
				h.HasNumbers = true
				h.OldStart = start // only a new-side number: use it as the hint
			}
		}
	}
	return h
}

func parseRange(s string) (start, count int, ok bool) {
	a, b, hasCount := strings.Cut(s, ",")
	start, err := strconv.Atoi(a)
	if err != nil || start < 0 {
		return 0, 0, false
	}
	count = 1
	if hasCount {
		if count, err = strconv.Atoi(b); err != nil || count < 0 {
			return 0, 0, false
		}
	}
	return start, count, true
}

// hunk reads one hunk: its header line and the body lines that follow.
func (p *parser) hunk() error {
	h := parseHunkHeader(p.lines[p.i])
	p.i++
	if p.cur == nil {
		p.open()
	}
	p.git = false
	f := p.cur
	var body []Line
	lastKind := Kind(0)
	bare := 0 // empty lines at the end of body, written without their space
	for ; p.i < len(p.lines); p.i++ {
		l := p.lines[p.i]
		if strings.HasPrefix(l, "@@") || strings.HasPrefix(l, "diff --git ") || p.isFileHeader() {
			break
		}
		if l == "-- " && p.i+1 < len(p.lines) && isVersion(p.lines[p.i+1]) {
			break // the signature of git format-patch mail: "-- " then git's version
		}
		if l == "" {
			body = append(body, Line{Kind: Context})
			lastKind = Context
			bare++
			continue
		}
		if l[0] == '\\' {
			// "\ No newline at end of file" belongs to the line before it.
			switch lastKind {
			case Delete:
				h.OldNoNewline = true
			case Add:
				h.NewNoNewline = true
			case Context:
				h.OldNoNewline, h.NewNoNewline = true, true
			}
			continue
		}
		if !isHunkLine(l) {
			break
		}
		body = append(body, Line{Kind: Kind(l[0]), Text: l[1:]})
		lastKind = Kind(l[0])
		bare = 0
	}
	body = trimTrailingBlanks(h, body, bare)
	h.Lines = body
	f.Hunks = append(f.Hunks, h)
	return nil
}

// isVersion reports whether l looks like the version line of a git
// format-patch signature ("2.39.5", "2.43.0.windows.1").
func isVersion(l string) bool {
	if l == "" || l[0] < '0' || l[0] > '9' || !strings.Contains(l, ".") {
		return false
	}
	for _, c := range l {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '-' || c == '+' || c == '_') {
			return false
		}
	}
	return true
}

func isHunkLine(l string) bool {
	return l == "" || l[0] == ' ' || l[0] == '+' || l[0] == '-' || l[0] == '\\'
}

// trimTrailingBlanks drops empty lines at the end of a hunk body: they are
// usually the blank line between a diff and the prose that follows. They
// are kept as blank context lines only when the header's counts ask for
// exactly that many more lines on both sides.
func trimTrailingBlanks(h *Hunk, body []Line, trailing int) []Line {
	n := len(body) - trailing
	if trailing == 0 || !h.HasNumbers {
		return body[:n]
	}
	oldN, newN := 0, 0
	for _, l := range body[:n] {
		if l.Kind != Add {
			oldN++
		}
		if l.Kind != Delete {
			newN++
		}
	}
	want := h.OldLines - oldN
	if want > 0 && want == h.NewLines-newN && want <= trailing {
		return body[:n+want]
	}
	return body[:n]
}
