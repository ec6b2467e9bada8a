// parse.go: Parse: unified diffs read leniently, with git's and traditional headers.

package edit

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ErrNoDiff is returned by Parse when the text holds no hunk and no file
// header at all.
var ErrNoDiff = errors.New("no unified diff found")

// ErrNoHunks is returned by Patch.CheckHunks for a file section without
// hunks that is no file operation either (headers followed by prose, say):
// applying it would do nothing while seeming to succeed. git apply says
// the same.
var ErrNoHunks = errors.New("no valid patches in input")

// ErrNameMismatch is returned by Parse when the ---/+++ lines of a git
// section name another file than its diff --git, rename or copy lines: git
// apply refuses such a patch ("inconsistent new filename").
var ErrNameMismatch = errors.New("file names disagree")

// ErrBadMode is returned by Parse for a git mode line whose mode is not an
// octal number, an empty "new mode " say: git apply refuses it ("invalid
// mode").
var ErrBadMode = errors.New("invalid file mode")

// ErrMixedHeader is returned by Parse for a git section whose header
// lines say two of: a creation, a deletion, a rename, a copy ("new file
// mode" with "rename from", say), which git apply refuses as
// inconsistent.
var ErrMixedHeader = errors.New("inconsistent git header: more than one of a creation, a deletion, a rename and a copy")

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
	return parseLines(splitPatchLines(text), lineEnds(text))
}

// parseLines is Parse of a text already split by splitPatchLines, with
// the lines' endings where they are content (see lineEnds).
func parseLines(lines, ends []string) (*Patch, error) {
	if blocks := fencedDiffs(lines); blocks != nil {
		lines, ends = blocks, nil
	}
	p := &parser{lines: lines, ends: ends}
	if err := p.run(); err != nil {
		return nil, err
	}
	if len(p.patch.Files) == 0 {
		return nil, ErrNoDiff
	}
	p.stripPrefixes()
	stripLikeOthers(&p.patch)
	return &p.patch, nil
}

// stripLikeOthers strips one directory from the name of a traditional
// section that creates or deletes a file against /dev/null, where another
// section of the patch showed that its names have a directory to strip:
// git apply decides -p once for a patch.
func stripLikeOthers(p *Patch) {
	strip := false
	for _, f := range p.Files {
		strip = strip || f.Names != nil && f.Stripped
	}
	if !strip {
		return
	}
	for _, f := range p.Files {
		if f.Names != nil && !f.Stripped && (f.Names.Old == "" || f.Names.New == "") {
			_ = f.StripNames(1) // a name with no directory keeps it
		}
	}
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

// lineEnds returns the ending of each line of text as splitPatchLines
// splits it, "\n" or "\r\n", when its carriage returns are content:
// some lines end with CRLF and others do not, as git diff writes a
// change to a CRLF file, or to a file's line endings. It returns nil
// when no line or every line ends with CRLF (a last line without a
// terminator aside): a patch whose whole text has CRLF endings (a model's reply, a mail client's) says nothing about
// the files' endings.
func lineEnds(text string) []string {
	n, crlf := strings.Count(text, "\n"), strings.Count(text, "\r\n")
	if crlf == n || crlf == 0 && !strings.HasSuffix(text, "\r") {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	ends := make([]string, len(lines))
	for i, l := range lines {
		ends[i] = "\n"
		if strings.HasSuffix(l, "\r") {
			ends[i] = "\r\n"
		}
	}
	return ends
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
	// ends are the lines' endings where they are content, else nil (see
	// lineEnds).
	ends  []string
	i     int
	patch Patch
	cur   *FileDiff
	// git is set while cur was opened by a "diff --git" line and has not
	// yet seen its ---/+++ pair or a hunk.
	git bool
	// prefixed holds the sections whose diff --git line named one file
	// with prefixes other than git's (git diff --src-prefix and
	// --dst-prefix), for stripPrefixes.
	prefixed map[*FileDiff]otherPrefixes
}

// otherPrefixes are the two first directories of a diff --git line that
// names one file with prefixes other than git's, "old/x new/x", and the
// name without them.
type otherPrefixes struct {
	old, new, name string
}

func (p *parser) run() error {
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		switch {
		case strings.HasPrefix(l, "diff --git "):
			p.startGit(l)
			p.i++
		case p.isFileHeader():
			if err := p.fileHeader(); err != nil {
				return err
			}
		case p.cur != nil && p.git && l == "GIT binary patch":
			if err := p.binaryPatch(); err != nil {
				return err
			}
		case strings.HasPrefix(l, "@@"):
			if err := p.hunk(); err != nil {
				return err
			}
		case p.cur != nil && p.git:
			if err := p.extendedHeader(l); err != nil {
				return err
			}
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
	names := strings.TrimPrefix(l, "diff --git ")
	if old, nw, ok := parseGitNames(names); ok {
		f.OldPath, f.NewPath, f.Stripped = old, nw, true
		return
	}
	if o, ok := parseOtherPrefixes(names); ok {
		if p.prefixed == nil {
			p.prefixed = map[*FileDiff]otherPrefixes{}
		}
		p.prefixed[f] = o
		return
	}
	// git diff --no-prefix: one name twice, kept as written for a section
	// that no ---/+++ pair names (an empty new file, a mode change).
	if n := len(names); n%2 == 1 && names[n/2] == ' ' && names[:n/2] == names[n/2+1:] {
		f.OldPath, f.NewPath = names[:n/2], names[:n/2]
	}
}

// parseOtherPrefixes splits the "old/x new/x" of a diff --git line whose
// two names are one file under two different first directories, as git
// diff --src-prefix=old/ --dst-prefix=new/ writes them.
func parseOtherPrefixes(s string) (otherPrefixes, bool) {
	for i := strings.IndexByte(s, ' '); i >= 0; {
		od, rest, ok1 := strings.Cut(s[:i], "/")
		nd, rest2, ok2 := strings.Cut(s[i+1:], "/")
		if ok1 && ok2 && rest != "" && rest == rest2 && od != "" && nd != "" && od != nd {
			return otherPrefixes{old: od + "/", new: nd + "/", name: rest}, true
		}
		j := strings.IndexByte(s[i+1:], ' ')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return otherPrefixes{}, false
}

// stripPrefixes removes the prefixes of the sections parseOtherPrefixes
// read from their names, as git apply removes the first directory of a
// git diff's names whatever it is: where the ---/+++ names are the diff
// --git line's, or there are none (a mode change, a binary file). A
// rename or copy is named by its own lines, from the top.
func (p *parser) stripPrefixes() {
	for f, o := range p.prefixed {
		if f.Stripped || f.Renamed || f.Copied ||
			f.OldPath != "" && f.OldPath != o.old+o.name || f.NewPath != "" && f.NewPath != o.new+o.name {
			continue
		}
		f.OldPath, f.NewPath, f.Stripped = o.name, o.name, true
		if f.New {
			f.OldPath = ""
		}
		if f.Deleted {
			f.NewPath = ""
		}
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

func (p *parser) extendedHeader(l string) error {
	f := p.cur
	word := func(prefix string) (string, bool) {
		if strings.HasPrefix(l, prefix) {
			return strings.TrimSpace(strings.TrimPrefix(l, prefix)), true
		}
		return "", false
	}
	for _, prefix := range []string{"old mode ", "new mode ", "new file mode ", "deleted file mode "} {
		if v, ok := word(prefix); ok {
			if _, err := strconv.ParseUint(v, 8, 32); err != nil {
				return fmt.Errorf("%w on line %d: %q", ErrBadMode, p.i+1, l)
			}
		}
	}
	if v, ok := word("old mode "); ok {
		f.OldMode = canonMode(v)
	} else if v, ok := word("new mode "); ok {
		f.NewMode = canonMode(v)
	} else if v, ok := word("new file mode "); ok {
		f.New, f.NewMode, f.OldPath = true, canonMode(v), ""
	} else if v, ok := word("deleted file mode "); ok {
		f.Deleted, f.OldMode, f.NewPath = true, canonMode(v), ""
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
			f.OldMode, f.NewMode = canonMode(mode), canonMode(mode)
		}
	} else if v, ok := word("similarity index "); ok {
		f.Score = percent(v)
	} else if v, ok := word("dissimilarity index "); ok {
		f.Score, f.Rewrite = percent(v), true
	} else if strings.HasPrefix(l, "Binary files ") || l == "GIT binary patch" {
		f.Binary = true
	}
	kinds := 0
	for _, k := range []bool{f.New, f.Deleted, f.Renamed, f.Copied} {
		if k {
			kinds++
		}
	}
	if kinds > 1 {
		return fmt.Errorf("%w on line %d: %q", ErrMixedHeader, p.i+1, l)
	}
	return nil
}

// percent reads the number of "similarity index 92%", 0 when it is none.
func percent(v string) int {
	n, err := strconv.Atoi(strings.TrimSuffix(v, "%"))
	if err != nil || n < 0 || n > 100 {
		return 0
	}
	return n
}

// fileHeader reads a "--- old" / "+++ new" pair.
func (p *parser) fileHeader() error {
	line := p.i + 1
	old, oldStamp := headerName(strings.TrimPrefix(p.lines[p.i], "--- "))
	nw, newStamp := headerName(strings.TrimPrefix(p.lines[p.i+1], "+++ "))
	p.i += 2
	if p.cur == nil || !p.git {
		traditional(p.open(), old, nw, epoch(oldStamp), epoch(newStamp))
		return nil
	}
	f := p.cur
	p.git = false
	oldNull, newNull := old == devNull, nw == devNull
	so, oldPfx := stripGitPrefix(old)
	sn, newPfx := stripGitPrefix(nw)
	if err := checkGitNames(f, old, so, nw, sn, line); err != nil {
		return err
	}
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
				return nil
			}
		}
		if f.Renamed || f.Copied {
			// The rename or copy lines named both sides, without prefixes
			// (git diff --src-prefix or --no-prefix).
			return nil
		}
		f.OldPath, f.NewPath, f.Stripped = old, nw, false
	}
	return nil
}

// checkGitNames returns an error wrapping ErrNameMismatch when the ---/+++
// pair at line (1-based) of a git section names another file than its
// headers did, as git apply refuses it: the diff --git line's name for a
// created or deleted file, the rename and copy lines' names. Each side is
// given as written and without git's prefix; either matches. /dev/null
// sides are not compared.
func checkGitNames(f *FileDiff, old, so, nw, sn string, line int) error {
	var wantOld, wantNew string
	switch {
	case f.Renamed || f.Copied:
		wantOld, wantNew = f.OldPath, f.NewPath
	case f.New && f.Stripped:
		wantNew = f.NewPath
	case f.Deleted && f.Stripped:
		wantOld = f.OldPath
	}
	if wantOld != "" && old != devNull && old != wantOld && so != wantOld && withoutDir(old) != wantOld {
		return fmt.Errorf("%w on line %d: --- names %s, the git header %s", ErrNameMismatch, line, old, wantOld)
	}
	if wantNew != "" && nw != devNull && nw != wantNew && sn != wantNew && withoutDir(nw) != wantNew {
		return fmt.Errorf("%w on line %d: +++ names %s, the git header %s", ErrNameMismatch, line+1, nw, wantNew)
	}
	return nil
}

const devNull = "/dev/null"

// withoutDir is name without its first directory, as git apply reads a
// git diff's ---/+++ names whatever their prefixes (git diff
// --src-prefix), or "" when it has none.
func withoutDir(name string) string {
	_, rest, _ := strings.Cut(name, "/")
	return rest
}

// traditional names the file of a ---/+++ pair that no "diff --git" line
// opened, as git apply and patch -p1 read such a pair (see Names and
// StripNames): a side that is /dev/null, or whose timestamp is the epoch
// (diff -N), creates or deletes the file, and the file has one name, the
// new side's unless the old side's is a shorter start of it (x.go for
// "--- x.go", "+++ x.go.new"). The names lose one leading directory where
// both sides show one to lose: git's a/ and b/, or two different
// directories ("--- old/x", "+++ new/x", as diff -r writes them). Otherwise
// they are kept as written, and the caller tries them without their first
// directory too (see Candidates).
func traditional(f *FileDiff, old, nw string, oldEpoch, newEpoch bool) {
	n := &Names{Old: old, New: nw}
	if old == devNull {
		n.Old = ""
	}
	if nw == devNull {
		n.New = ""
	}
	f.Names = n
	switch {
	case n.Old == "" && n.New == "":
		return
	case n.Old == "" || oldEpoch && n.New != "":
		f.New = true
	case n.New == "" || newEpoch:
		f.Deleted = true
	}
	strip := 0
	if n.prefixed() {
		strip = 1
	}
	if f.setNames(strip) != nil {
		f.setNames(0)
	}
	f.Stripped = strip > 0
}

// Names are the names of a ---/+++ pair without git's headers, as written:
// quotes undone, timestamps removed, "" for /dev/null.
type Names struct {
	Old, New string
}

// prefixed reports whether the names start with a directory to strip: git's
// a/ and b/ (on each side that is not /dev/null), or two different first
// directories.
func (n *Names) prefixed() bool {
	_, oldPfx := stripGitPrefix(n.Old)
	_, newPfx := stripGitPrefix(n.New)
	switch {
	case n.Old == "":
		return newPfx
	case n.New == "":
		return oldPfx
	case oldPfx && newPfx:
		return true
	}
	od, _, ok1 := strings.Cut(n.Old, "/")
	nd, _, ok2 := strings.Cut(n.New, "/")
	return ok1 && ok2 && od != nd
}

// ErrStrip is returned by StripNames when a name has fewer directories
// than it is asked to remove.
var ErrStrip = errors.New("cannot remove that many leading directories")

// StripNames names the file again with n leading directories removed from
// each name, as git apply -p N and patch -pN do, and sets Stripped. A
// traditional diff's names are read again from Names. A git diff's names
// lost their a/ and b/ already: n-1 more directories are removed, and n = 0
// cannot be undone. A name too short for n fails with ErrStrip.
func (f *FileDiff) StripNames(n int) error {
	if n < 0 {
		return fmt.Errorf("%w: -p %d", ErrStrip, n)
	}
	if f.Names != nil {
		if err := f.setNames(n); err != nil {
			return err
		}
		f.Stripped = true
		return nil
	}
	if f.Stripped {
		if n == 0 {
			return fmt.Errorf("%w: git's a/ and b/ are already removed from %s", ErrStrip, f.Path())
		}
		n--
	}
	old, ok1 := stripDirs(f.OldPath, n)
	nw, ok2 := stripDirs(f.NewPath, n)
	if !ok1 || !ok2 {
		return fmt.Errorf("%w: -p%d on %s", ErrStrip, n, f.Path())
	}
	f.OldPath, f.NewPath, f.Stripped = old, nw, true
	return nil
}

// setNames sets OldPath and NewPath from Names with n leading directories
// removed, as git apply names a traditional patch's file.
func (f *FileDiff) setNames(n int) error {
	old, ok1 := stripDirs(f.Names.Old, n)
	nw, ok2 := stripDirs(f.Names.New, n)
	name := nw
	switch {
	case !ok1 && !ok2:
		return fmt.Errorf("%w: -p%d on %q", ErrStrip, n, f.Names.Old+f.Names.New)
	case !ok2 || nw == "":
		name = old
	case ok1 && old != "" && len(old) < len(nw) && strings.HasPrefix(nw, old):
		name = old // "x.go" of x.go and x.go.orig: the shorter
	}
	if name == "" {
		return fmt.Errorf("%w: -p%d on %q", ErrStrip, n, f.Names.Old+f.Names.New)
	}
	switch {
	case f.New:
		f.OldPath, f.NewPath = "", name
	case f.Deleted:
		f.OldPath, f.NewPath = name, ""
	default:
		f.OldPath, f.NewPath = name, name
	}
	return nil
}

// Other returns the name of a traditional diff's modified file that was
// not taken (the old side's x.go.orig when the file is x.go), with the
// same directories removed, or "" when there is none. Candidates offers
// it after the name taken, as patch takes the name that exists.
func (f *FileDiff) Other() string {
	if f.Names == nil || f.New || f.Deleted || f.Names.Old == "" || f.Names.New == "" {
		return ""
	}
	n := strings.Count(f.Names.New, "/") - strings.Count(f.NewPath, "/")
	for _, s := range []string{f.Names.Old, f.Names.New} {
		if o, ok := stripDirs(s, n); ok && o != "" && o != f.NewPath {
			return o
		}
	}
	return ""
}

// stripDirs removes n leading directories from name; "" stays "". A ".."
// or the root is not a directory to remove: a name that leads out stays
// one, for the caller to refuse.
func stripDirs(name string, n int) (string, bool) {
	if name == "" {
		return "", true
	}
	for ; n > 0; n-- {
		dir, rest, ok := strings.Cut(name, "/")
		if !ok || dir == "" || dir == ".." {
			return "", false
		}
		name = strings.TrimLeft(rest, "/")
	}
	return name, name != ""
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

// diffDate matches a timestamp at the end of a ---/+++ line, after a tab or
// spaces, as GNU diff and POSIX write it ("2024-03-01 10:00:00.000000000
// +0100", "2024-03-01 10:00:00"), the way git apply finds it. It is
// compiled on first use.
var diffDate = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[\t ]+((?:\d\d)?\d\d-\d\d-\d\d(?: \d\d:\d\d:\d\d(?:\.\d+)?)?(?: [+-](?:\d\d:\d\d|\d+))?)$`)
})

// headerName extracts the file name from a ---/+++ header value, and the
// timestamp after it. A quoted name is unquoted, tabs and all. Otherwise a
// date at the end, after a tab or spaces, is the timestamp, and what comes
// before it is the name, tabs included; without a date, the name ends at
// the first tab.
func headerName(s string) (name, stamp string) {
	if strings.HasPrefix(s, `"`) {
		if name, rest, err := unquoteCPrefix(s); err == nil {
			if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
				// Quoted in part ("a/"sub/file): the rest goes on.
				more, stamp := headerName(rest)
				return name + more, stamp
			}
			return name, strings.TrimSpace(rest)
		}
	}
	if m := diffDate().FindStringSubmatchIndex(s); m != nil && m[0] > 0 {
		return strings.TrimRight(s[:m[0]], " "), s[m[2]:m[3]]
	}
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s, stamp = s[:i], strings.TrimSpace(s[i+1:])
	}
	return strings.TrimRight(s, " "), stamp
}

// epoch reports whether a ---/+++ line's timestamp is the epoch, which
// diff -N writes for the side where the file does not exist: 1970-01-01
// 00:00:00 UTC in any time zone ("1969-12-31 16:00:00.000000000 -0800").
func epoch(stamp string) bool {
	for _, layout := range []string{"2006-01-02 15:04:05 -0700", "2006-01-02 15:04:05 -07:00", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, stamp); err == nil {
			return t.Unix() == 0
		}
	}
	return false
}

// canonMode is a mode of an extended header as git reads it: a regular
// file's mode is 100755 when its owner may execute it, else 100644, as git
// keeps no other (100664, 100775); other modes are kept as written.
func canonMode(m string) string {
	v, err := strconv.ParseUint(m, 8, 32)
	if err != nil || v&0o170000 != 0o100000 {
		return m
	}
	if v&0o100 != 0 {
		return "100755"
	}
	return "100644"
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
	header := p.lines[p.i]
	h := parseHunkHeader(header)
	h.Header = header
	p.i++
	if p.cur == nil {
		p.open()
	}
	p.git = false
	f := p.cur
	// The header's counts bound the body, context lines counted twice;
	// the lines left bound it too, whatever the header says.
	body := make([]Line, 0, max(0, min(h.OldLines+h.NewLines, len(p.lines)-p.i)))
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
			body = append(body, Line{Kind: Context, EOL: p.end()})
			lastKind = Context
			bare++
			continue
		}
		if l[0] == '\\' {
			// "\ No newline at end of file" belongs to the line before it.
			// That line has no terminator: where the patch's endings are
			// content, a CR before its LF is the line's own, as git
			// reads it ("-x\r" then the marker is the file's "x\r").
			if n := len(body) - 1; n >= 0 && body[n].EOL == "\r\n" {
				body[n].Text += "\r"
				body[n].EOL = "\n"
			}
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
		body = append(body, Line{Kind: Kind(l[0]), Text: l[1:], EOL: p.end()})
		lastKind = Kind(l[0])
		bare = 0
	}
	body = trimTrailingBlanks(h, body, bare)
	h.Lines = body
	if f.Deleted && svnEmptyDeletion(header, body) {
		return nil // git reads no hunk there: the empty file is deleted
	}
	f.Hunks = append(f.Hunks, h)
	return nil
}

// svnEmptyDeletion reports whether a hunk of a deleted file is the one
// Subversion writes for an empty file: "@@ +1 0,0 @@", a header with a
// new range and no old one, over lines that only delete empty lines.
// git apply does not read it as a hunk (no "@@ -"); the deletion then
// holds no hunk, and is refused if the file is not empty.
func svnEmptyDeletion(header string, body []Line) bool {
	newRange, oldRange := false, false
	for _, f := range strings.Fields(strings.Trim(header, "@")) {
		oldRange = oldRange || strings.HasPrefix(f, "-")
		newRange = newRange || strings.HasPrefix(f, "+")
	}
	if oldRange || !newRange || len(body) == 0 {
		return false
	}
	for _, l := range body {
		if l.Kind != Delete || l.Text != "" {
			return false
		}
	}
	return true
}

// end returns the ending of the current line where the patch's endings
// are content, else "".
func (p *parser) end() string {
	if p.i < len(p.ends) {
		return p.ends[p.i]
	}
	return ""
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
