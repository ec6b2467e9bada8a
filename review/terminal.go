// terminal.go: Terminal, the review driven by single key presses, as git add -p does.

package review

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/internal/audit"
	"github.com/pair-cli/pair/internal/console"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/safetext"
)

// Terminal runs a review from single key presses, as git add -p does.
// The caller puts the terminal in raw mode (so that keys arrive one at a
// time and Ctrl-C arrives as a byte) and restores it afterwards.
type Terminal struct {
	// In delivers the keys; Out shows the hunks. In raw mode a line ends
	// with "\r\n": set CRLF.
	In   io.Reader
	Out  io.Writer
	CRLF bool
	// Color turns on ANSI colours (only on a terminal, never with
	// NO_COLOR set: the caller decides); Palette colours the diff (the
	// zero value: git's default colours).
	Color   bool
	Palette console.Palette
	// Editor runs the person's editor on a file, with the terminal back
	// in its normal mode; nil means hunks cannot be edited.
	Editor func(ctx context.Context, path string) error
	// Pager shows a hunk longer than the screen (Rows lines) in the
	// person's pager, with the terminal in its normal mode; nil means
	// every hunk is printed as it is.
	Pager func(text string) error
	Rows  int
	// Verb says what happens to approved hunks at the end, for the
	// summary's question ("write and commit"); "" means "write".
	Verb string
	// Verifier runs the tests on the candidate from the summary (the v
	// key; see verify.go); nil: no v key. VerifyFirst runs it when the
	// person goes ahead, and goes ahead only when the tests pass
	// (--verify).
	Verifier    Verifier
	VerifyFirst bool

	verified *verified
	ahead    []byte

	keys    chan keyRead
	req     chan struct{}
	pending bool
	ended   bool
}

type keyRead struct {
	b   byte
	err error
}

// Errors that end a terminal review without anything to write.
var (
	// ErrInterrupted means the person pressed Ctrl-C (or the context was
	// canceled): nothing may be written.
	ErrInterrupted = errors.New("review interrupted; nothing was written")
	// ErrAbandoned means the person answered no at the summary.
	ErrAbandoned = errors.New("review abandoned at the summary; nothing was written")
	// ErrInputEnded means the keys stopped before the review was done.
	ErrInputEnded = errors.New("the terminal input ended before the review was done; nothing was written")
)

// Key codes read in raw mode.
const (
	keyCtrlC     = 0x03
	keyCtrlD     = 0x04
	keyCtrlU     = 0x15
	keyBackspace = 0x7f
	keyCtrlH     = 0x08
	keyEsc       = 0x1b
)

// ANSI colours, as git colours a diff.
const (
	cReset  = "\x1b[m"
	cBold   = "\x1b[1m"
	cRed    = "\x1b[31m"
	cGreen  = "\x1b[32m"
	cYellow = "\x1b[33m"
	cPrompt = "\x1b[1;34m"
	cFaint  = "\x1b[2m"
)

// diffColors is the palette in use.
func (t *Terminal) diffColors() console.Palette {
	if t.Palette == (console.Palette{}) {
		return console.DefaultPalette
	}
	return t.Palette
}

func (t *Terminal) paint(color, s string) string {
	if !t.Color || s == "" {
		return s
	}
	return color + s + cReset
}

// printf writes to Out, turning "\n" into "\r\n" in raw mode.
func (t *Terminal) printf(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if t.CRLF {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	_, _ = io.WriteString(t.Out, s)
}

// Run asks for every undecided item of r, then shows the summary and asks
// whether to go ahead. It returns nil when the person confirmed (r then
// holds the decisions), ErrAbandoned, ErrInterrupted or ErrInputEnded.
// Going back (K, k, g, /) changes earlier decisions, also from the
// summary.
func (t *Terminal) Run(ctx context.Context, r *Review) error {
	if len(r.Items) == 0 {
		return ErrNoItem
	}
	show, decided := true, true
	for {
		if err := ctx.Err(); err != nil {
			return ErrInterrupted
		}
		// The summary comes when a decision leaves nothing undecided, not
		// while the person looks around after going back.
		if decided && r.Done() {
			ok, err := t.summary(ctx, r)
			if err != nil || ok {
				return err
			}
			show = true
		}
		if show {
			t.show(r)
		}
		t.prompt(r)
		k, err := t.key(ctx)
		if err != nil {
			t.printf("\n") // leave the prompt's line
			return err
		}
		t.printf("%s\n", keyName(k))
		show, err = t.press(ctx, r, k)
		if err != nil {
			return err
		}
		decided = show && strings.ContainsRune("ynradAqe", k)
	}
}

// press applies one key; it returns whether the hunk under the cursor
// should be shown again.
func (t *Terminal) press(ctx context.Context, r *Review, k rune) (bool, error) {
	var err error
	switch k {
	case 'y':
		err = r.Approve()
	case 'n':
		err = r.Reject("")
	case 'r':
		note, ok, lerr := t.line(ctx, "Note (why you reject this hunk): ")
		if lerr != nil {
			return false, lerr
		}
		if !ok {
			t.printf("no note; the hunk is still %s\n", r.Current().Decision)
			return false, nil
		}
		err = r.Reject(note)
	case 'a':
		err = r.ApproveFile()
	case 'd':
		err = r.RejectFile("")
	case 'A':
		p := safetext.Name(r.FileOf(r.Current()).Path())
		err = r.AlwaysApprove()
		if err == nil {
			t.printf("%s\n", t.paint(cYellow, "approving every hunk of "+p+", and later edits of its content for the rest of this session"))
		}
	case 'q':
		r.QuitReview()
	case 's':
		n := len(r.Items)
		err = r.Split()
		if err == nil {
			t.printf("%s\n", t.paint(cYellow, fmt.Sprintf("split into %d hunks", len(r.Items)-n+1)))
		}
	case 'e':
		err = t.edit(ctx, r)
	case 'j':
		err = r.NextUndecided()
	case 'k':
		err = r.PrevUndecided()
	case 'J', keyDown:
		err = r.Next()
	case 'K', keyUp:
		err = r.Prev()
	case 'g':
		t.list(r)
		s, ok, lerr := t.line(ctx, "go to which hunk? ")
		if lerr != nil {
			return false, lerr
		}
		if !ok {
			return true, nil
		}
		n, cerr := strconv.Atoi(strings.TrimSpace(s))
		if cerr != nil {
			err = fmt.Errorf("%q is not a hunk number", s)
		} else {
			err = r.Goto(n)
		}
	case '/':
		s, ok, lerr := t.line(ctx, "search for regex? ")
		if lerr != nil {
			return false, lerr
		}
		if !ok || s == "" {
			return true, nil
		}
		err = r.Search(s)
	case 'p':
		return true, nil
	case '?':
		t.help(r)
		return false, nil
	case '\r', '\n', ' ':
		return false, nil // a stray Enter: ask again
	default:
		t.printf("%s\n", t.paint(cRed, fmt.Sprintf("unknown key %s; press ? for help", keyName(k))))
		return false, nil
	}
	if err != nil {
		if errors.Is(err, ErrInterrupted) || errors.Is(err, ErrInputEnded) {
			return false, err
		}
		t.printf("%s\n", t.paint(cRed, err.Error()))
		return false, nil
	}
	return true, nil
}

// edit runs the editor on the current hunk until the edit is valid, the
// person cancels it, or the editor fails. A refused edit is explained and
// the hunk is offered again, unchanged.
func (t *Terminal) edit(ctx context.Context, r *Review) error {
	if t.Editor == nil {
		return errors.New("no editor is available to edit hunks")
	}
	text, err := r.EditText()
	if err != nil {
		return err
	}
	f, err := os.CreateTemp("", "pair-hunk-*.diff")
	if err != nil {
		return fmt.Errorf("cannot edit: %w", err)
	}
	name := f.Name()
	defer os.Remove(name)
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("cannot edit: %w", err)
	}
	if err := t.Editor(ctx, name); err != nil {
		if ctx.Err() != nil {
			return ErrInterrupted
		}
		return fmt.Errorf("the editor failed (%v); the hunk is unchanged", err)
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return fmt.Errorf("cannot read the edit: %w", err)
	}
	idx := r.Cursor
	if err := r.Edit(string(b)); err != nil {
		if errors.Is(err, ErrEditCanceled) {
			return err
		}
		return fmt.Errorf("edit refused, the hunk is unchanged: %w", err)
	}
	if r.Items[idx].Decision == audit.Approved {
		t.printf("%s\n", t.paint(cGreen, "the hunk was saved unchanged: approved as it is"))
		return nil
	}
	t.printf("%s\n", t.paint(cGreen, "edited and approved"))
	return nil
}

// show prints the item under the cursor: where it goes, how it was
// placed, and its lines.
func (t *Terminal) show(r *Review) {
	it := r.Current()
	if it == nil {
		return
	}
	f := r.FileOf(it)
	n, total := r.Position()
	t.printf("\n%s %s\n", t.paint(cBold, fmt.Sprintf("[%d/%d]", n, total)), t.paint(cBold, r.Where(it)))
	if it.Whole {
		t.printf("%s\n", t.paint(cYellow, wholeChange(f)))
		t.notCovered(r, it)
		return
	}
	switch f.Action() {
	case "create":
		t.printf("%s\n", t.paint(t.diffColors().Meta, "new file "+safetext.Name(f.Path())))
	case "delete":
		t.printf("%s\n", t.paint(t.diffColors().Meta, "deleted file "+safetext.Name(f.Path())))
	case "rename":
		t.printf("%s\n", t.paint(t.diffColors().Meta, "renamed from "+safetext.Name(f.OldPath)))
	case "copy":
		t.printf("%s\n", t.paint(t.diffColors().Meta, "copied from "+safetext.Name(f.OldPath)))
	}
	if m := f.modeChange(); m != "" {
		t.printf("%s\n", t.paint(cYellow, m))
	}
	t.notCovered(r, it)
	if f.Action() != "create" { // a new file has nowhere else to go
		t.printf("%s\n", t.placement(it))
	}
	body := t.hunkLines(r, it)
	// Longer than the screen: through the pager, as git shows a long diff,
	// so that its start is not scrolled away; the prompt names the file
	// and lines again.
	paged := t.Pager != nil && t.Rows > 0 && len(body)+8 > t.Rows && t.Pager(strings.Join(body, "\n")+"\n") == nil
	if !paged {
		for _, l := range body {
			t.printf("%s\n", l)
		}
	}
	if it.Decision != audit.Undecided {
		t.printf("%s\n", t.paint(cYellow, "currently "+t.decisionText(it)))
	}
}

// hunkLines is the hunk as shown: its header, its lines (escaped, marked
// and coloured) and what becomes of the file's last newline.
func (t *Terminal) hunkLines(r *Review, it *Item) []string {
	pal := t.diffColors()
	out := []string{t.paint(pal.Frag, safetext.Line(r.Header(it)))}
	for _, l := range it.Hunk.Lines {
		// Escape sequences, bidi controls, invisible and lookalike
		// letters in a line could hide it or another line, or pass for
		// what they are not: they are shown, and the line is marked.
		shown, marker := safetext.EscapeMarked(l.Text)
		text := string(l.Kind) + shown
		switch l.Kind {
		case edit.Add:
			text = t.paint(pal.New, text)
			if body := strings.TrimRight(shown, " \t"); t.Color && len(body) < len(shown) {
				// Trailing whitespace an added line brings, as git shows it.
				text = t.paint(pal.New, "+"+body) + t.paint(pal.Whitespace, shown[len(body):])
			}
		case edit.Delete:
			text = t.paint(pal.Old, text)
		}
		if marker != "" {
			text += t.paint(cYellow, marker)
		}
		out = append(out, text)
	}
	if it.Hunk.FinalNewline == edit.NewlineRemove {
		out = append(out, t.paint(cFaint, `\ the file will end without a newline`))
	}
	return out
}

// notCovered says why an undecided item of a granted file is asked.
func (t *Terminal) notCovered(r *Review, it *Item) {
	if why := r.NotCovered(it); why != "" && it.Decision == audit.Undecided {
		t.printf("%s\n", t.paint(cYellow, why))
	}
}

// Where names the file and the lines an item covers ("a.go lines 3-7").
// The file name is escaped for display (see internal/safetext).
func (r *Review) Where(it *Item) string {
	f := r.FileOf(it)
	path := safetext.Name(f.Path())
	if it.Whole {
		return path
	}
	oc := it.Hunk.OldCount()
	switch {
	case f.Action() == "create":
		return fmt.Sprintf("%s (new, %d %s)", path, it.Hunk.NewCount(), output.Plural(it.Hunk.NewCount(), "line"))
	case oc == 0:
		return fmt.Sprintf("%s after line %d", path, it.Hunk.Start)
	case oc == 1:
		return fmt.Sprintf("%s line %d", path, it.Hunk.Start+1)
	}
	return fmt.Sprintf("%s lines %d-%d", path, it.Hunk.Start+1, it.Hunk.Start+oc)
}

// placement says how the hunk was placed, with its notes.
func (t *Terminal) placement(it *Item) string {
	h := &it.Hunk
	label := h.Label()
	s := "placed: " + label
	if h.Offset != 0 {
		s += fmt.Sprintf(" (%+d %s from where the patch said)", h.Offset, output.Plural(abs(h.Offset), "line"))
	}
	color := cFaint
	if label != "exact" && label != "offset" {
		color = cYellow
	}
	out := t.paint(color, s)
	for _, n := range h.Notes {
		out += "\n" + t.paint(color, "  "+safetext.Line(n))
	}
	return out
}

func (t *Terminal) decisionText(it *Item) string {
	s := it.Decision.String()
	if it.Granted {
		s += " (always approved in this session)"
	}
	if it.Note != "" {
		s += ": " + safetext.Line(it.Note)
	}
	return s
}

func wholeChange(f *File) string {
	if s := f.special(); s != "" {
		return s
	}
	d := f.Diff
	switch f.Action() {
	case "create":
		return "create empty file " + safetext.Name(f.Path())
	case "delete":
		return "delete empty file " + safetext.Name(f.Path())
	case "rename", "copy":
		s := f.Action() + " " + safetext.Name(f.OldPath) + " -> " + safetext.Name(f.NewPath)
		if d != nil && d.ModeChange() {
			s += ", mode " + d.OldMode + " -> " + d.NewMode
		}
		return s
	}
	if d != nil && d.ModeChange() {
		return "change mode " + d.OldMode + " -> " + d.NewMode
	}
	return "change " + safetext.Name(f.Path())
}

// keysFor lists the keys that do something here, for the prompt.
func (t *Terminal) keysFor(r *Review) string {
	return strings.Join(t.keyList(r), ",")
}

// keyList is the keys that do something on the current hunk, in the
// prompt's order; the prompt and the help both list exactly these.
func (t *Terminal) keyList(r *Review) []string {
	ks := []string{"y", "n", "r"}
	it := r.Current()
	later := false
	for i := r.Cursor + 1; i < len(r.Items) && r.Items[i].File == it.File; i++ {
		later = true
	}
	if later {
		ks = append(ks, "a", "d")
	}
	ks = append(ks, "A", "q")
	if r.CanSplit() {
		ks = append(ks, "s")
	}
	if t.Editor != nil && r.CanEdit() {
		ks = append(ks, "e")
	}
	for i := r.Cursor + 1; i < len(r.Items); i++ {
		if r.Items[i].Decision == audit.Undecided {
			ks = append(ks, "j")
			break
		}
	}
	for i := r.Cursor - 1; i >= 0; i-- {
		if r.Items[i].Decision == audit.Undecided {
			ks = append(ks, "k")
			break
		}
	}
	if r.Cursor+1 < len(r.Items) {
		ks = append(ks, "J")
	}
	if r.Cursor > 0 {
		ks = append(ks, "K")
	}
	if len(r.Items) > 1 {
		ks = append(ks, "g", "/")
	}
	return append(ks, "p", "?")
}

func (t *Terminal) prompt(r *Review) {
	n, total := r.Position()
	what := "hunk"
	if r.Current().Whole {
		what = "change"
	}
	// The prompt names the file and lines: a long hunk has scrolled its
	// heading off the screen.
	t.printf("%s ", t.paint(cPrompt, fmt.Sprintf("[%d/%d] Approve this %s (%s) [%s]?", n, total, what, r.Where(r.Current()), t.keysFor(r))))
}

// keyHelp says what each review key does, for ?.
var keyHelp = map[string]string{
	"y": "approve this hunk",
	"n": "reject this hunk",
	"r": "reject this hunk with a note for the model",
	"a": "approve this hunk and the rest of this file's undecided hunks",
	"d": "reject this hunk and the rest of this file's undecided hunks",
	"A": "approve this file's hunks now, and later edits of its content for the rest of the session",
	"q": "quit: reject every undecided hunk, then see the summary",
	"s": "split this hunk into smaller hunks",
	"e": "edit this hunk in your editor",
	"j": "leave this hunk undecided, go to the next undecided hunk",
	"k": "leave this hunk undecided, go to the previous undecided hunk",
	"J": "go to the next hunk (down arrow)",
	"K": "go to the previous hunk (up arrow)",
	"g": "go to a hunk by number",
	"/": "search for a hunk matching a regular expression",
	"p": "print the hunk again",
	"?": "this help",
}

// help lists only the keys the prompt offers for this hunk, as git add -p
// does.
func (t *Terminal) help(r *Review) {
	var lines []string
	for _, k := range t.keyList(r) {
		lines = append(lines, k+" - "+keyHelp[k])
	}
	lines = append(lines, "Ctrl-C stops the review and writes nothing.")
	if it := r.Current(); it != nil && it.Hunk.Pass.Help() != "" {
		lines = append(lines, "", it.Hunk.Pass.Help())
	}
	if it := r.Current(); it != nil && !it.Whole && len(it.Hunk.Rules) > 0 {
		// The rules that placed the hunk, as pair apply --check --explain
		// lists them.
		var b strings.Builder
		PrintRules(&b, "  ", it.Hunk.Rules)
		lines = append(lines, "", "placed by:", strings.TrimRight(b.String(), "\n"))
	}
	t.printf("%s\n", t.paint(cFaint, strings.Join(lines, "\n")))
}

// list shows every item with its decision, for g.
func (t *Terminal) list(r *Review) {
	for i := range r.Items {
		it := &r.Items[i]
		mark := " "
		if i == r.Cursor {
			mark = ">"
		}
		first, marker := "", ""
		for _, l := range it.Hunk.Lines {
			if l.Kind != edit.Context {
				var shown string
				shown, marker = safetext.EscapeMarked(l.Text)
				first = string(l.Kind) + shown
				break
			}
		}
		if it.Whole {
			first = wholeChange(r.FileOf(it))
		}
		t.printf("%s%3d: %-10s %s  %s%s\n", mark, i+1, it.Decision.String(), r.Where(it), clip(first), marker)
	}
}

// summary shows the decisions per file and asks whether to go ahead. It
// returns true when confirmed; false when the person went back to a hunk.
func (t *Terminal) summary(ctx context.Context, r *Review) (bool, error) {
	t.printf("\n%s\n", t.paint(cBold, "Review summary:"))
	files, hunks := 0, 0
	for _, s := range r.Summary() {
		text := s.Text()
		if text == "" {
			continue
		}
		t.printf("  %-40s %s\n", safetext.Name(s.Path), text)
		if s.Applies() {
			files++
			hunks += s.Approved + s.Edited
		}
	}
	verb := t.Verb
	if verb == "" {
		verb = "write"
	}
	t.showVerified(r)
	for {
		keys := "y,n,K,g" + t.verifyKeys(r, hunks) + ",?"
		if hunks == 0 {
			t.printf("%s ", t.paint(cPrompt, "Nothing is approved. Finish without writing anything ["+strings.Replace(keys, "n,", "", 1)+"]?"))
		} else {
			t.printf("%s ", t.paint(cPrompt, fmt.Sprintf("%s %d %s in %d %s [%s]?", capitalize(verb), hunks, output.Plural(hunks, "hunk"), files, output.Plural(files, "file"), keys)))
		}
		k, err := t.key(ctx)
		if err != nil {
			t.printf("\n")
			return false, err
		}
		t.printf("%s\n", keyName(k))
		switch k {
		case 'y':
			if hunks > 0 && t.VerifyFirst && t.Verifier != nil {
				if pass, err := t.verifyFirst(ctx, r); err != nil || !pass {
					if err != nil {
						return false, err
					}
					continue
				}
			}
			return true, nil
		case 'v', 'x':
			if t.Verifier == nil || hunks == 0 || k == 'x' && len(t.culprits(r)) == 0 {
				t.printf("%s\n", t.paint(cRed, fmt.Sprintf("unknown key %s; press ? for help", keyName(k))))
				continue
			}
			if k == 'x' {
				// The culprits rejected, the summary changes: shown again.
				if err := t.rejectCulprits(ctx, r); err != nil {
					return false, err
				}
				return t.summary(ctx, r)
			}
			if err := t.runVerify(ctx, r); err != nil {
				return false, err
			}
		case 'n', 'q':
			if hunks == 0 {
				return true, nil
			}
			return false, ErrAbandoned
		case 'K', keyUp:
			r.Cursor = len(r.Items) - 1
			return false, nil
		case 'g':
			if _, err := t.press(ctx, r, 'g'); err != nil {
				return false, err
			}
			return false, nil
		case '?':
			t.printf("%s\n", t.paint(cFaint, "y - go ahead\nn - write nothing\nK - go back to the last hunk\ng - go back to a hunk by number"+t.verifyHelp(r, hunks)+"\nCtrl-C - stop and write nothing"))
			t.showOutput(r)
		case '\r', '\n', ' ':
		default:
			t.printf("%s\n", t.paint(cRed, fmt.Sprintf("unknown key %s; press ? for help", keyName(k))))
		}
	}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Pseudo keys for the arrow keys.
const (
	keyUp   rune = -1
	keyDown rune = -2
)

func keyName(k rune) string {
	switch k {
	case keyUp:
		return "up"
	case keyDown:
		return "down"
	case '\r', '\n':
		return "Enter"
	}
	if k < ' ' {
		return fmt.Sprintf("Ctrl-%c", k+'@')
	}
	return string(k)
}

// readKeys reads one byte from In each time it is asked to. It never
// reads ahead: while the editor runs, no read is pending that could take
// the keys meant for it.
func (t *Terminal) readKeys() {
	var b [1]byte
	for range t.req {
		for {
			n, err := t.In.Read(b[:])
			if n == 1 {
				t.keys <- keyRead{b: b[0]}
				break
			}
			if err != nil {
				t.keys <- keyRead{err: err}
				return
			}
		}
	}
}

func (t *Terminal) byte(ctx context.Context) (byte, error) {
	if t.keys == nil {
		t.keys, t.req = make(chan keyRead, 1), make(chan struct{}, 1)
		go t.readKeys()
	}
	if len(t.ahead) > 0 { // typed while the tests ran
		b := t.ahead[0]
		t.ahead = t.ahead[1:]
		return b, nil
	}
	if t.ended {
		return 0, ErrInputEnded
	}
	if !t.pending {
		t.req <- struct{}{}
		t.pending = true
	}
	select {
	case <-ctx.Done():
		return 0, ErrInterrupted
	case k := <-t.keys:
		t.pending = false
		if k.err != nil {
			t.ended = true
			return 0, ErrInputEnded
		}
		if k.b == keyCtrlC {
			return 0, ErrInterrupted
		}
		return k.b, nil
	}
}

// key reads one key press. An escape sequence (an arrow key) is read
// whole, so that its letters are never taken for keys.
func (t *Terminal) key(ctx context.Context) (rune, error) {
	b, err := t.byte(ctx)
	if err != nil {
		return 0, err
	}
	switch b {
	case keyCtrlD:
		return 0, ErrInputEnded
	case keyEsc:
		return t.escape(ctx)
	}
	if b >= utf8.RuneSelf {
		// A multi-byte character is never a key; read the rest of it.
		for n := utf8LeadLen(b) - 1; n > 0; n-- {
			if _, err := t.byte(ctx); err != nil {
				return 0, err
			}
		}
		return utf8.RuneError, nil
	}
	return rune(b), nil
}

// escape reads the rest of an escape sequence after ESC. Up and down
// arrows move between hunks; anything else is ignored.
func (t *Terminal) escape(ctx context.Context) (rune, error) {
	b, err := t.byte(ctx)
	if err != nil {
		return 0, err
	}
	if b != '[' && b != 'O' {
		return ' ', nil // ESC then a key: both ignored
	}
	for {
		c, err := t.byte(ctx)
		if err != nil {
			return 0, err
		}
		if c >= 0x40 && c <= 0x7e {
			switch c {
			case 'A':
				return keyUp, nil
			case 'B':
				return keyDown, nil
			}
			return ' ', nil
		}
	}
}

func utf8LeadLen(b byte) int {
	switch {
	case b&0xe0 == 0xc0:
		return 2
	case b&0xf0 == 0xe0:
		return 3
	case b&0xf8 == 0xf0:
		return 4
	}
	return 1
}

// line reads a line of text in raw mode, echoing it: Backspace erases,
// Ctrl-U clears, Enter ends, Esc cancels (ok false).
func (t *Terminal) line(ctx context.Context, prompt string) (string, bool, error) {
	t.printf("%s", t.paint(cPrompt, prompt))
	var buf []byte
	for {
		b, err := t.byte(ctx)
		if err != nil {
			return "", false, err
		}
		switch b {
		case '\r', '\n':
			t.printf("\n")
			return string(buf), true, nil
		case keyEsc:
			t.printf("\n")
			return "", false, nil
		case keyCtrlD:
			return "", false, ErrInputEnded
		case keyBackspace, keyCtrlH:
			if len(buf) > 0 {
				_, size := utf8.DecodeLastRune(buf)
				buf = buf[:len(buf)-size]
				t.printf("\b \b")
			}
		case keyCtrlU:
			for range utf8.RuneCount(buf) {
				t.printf("\b \b")
			}
			buf = buf[:0]
		default:
			if b < ' ' {
				continue
			}
			buf = append(buf, b)
			_, _ = t.Out.Write([]byte{b})
		}
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// InTerminal runs t on the terminal in with single key presses: the
// terminal is in raw mode until it returns, and in its usual mode while
// t.Editor runs. t.In is set to in; with colours and no Palette, the
// diff gets the person's colours of git (color.diff.*).
func InTerminal(ctx context.Context, in *os.File, t *Terminal, r *Review) error {
	fd := int(in.Fd())
	state, err := term.MakeRaw(fd)
	if err != nil {
		return fmt.Errorf("cannot read single keys from the terminal: %w", err)
	}
	defer term.Restore(fd, state)
	t.In, t.CRLF = in, true
	// cooked runs f with the terminal in its usual mode, then raw again.
	cooked := func(f func() error) error {
		if err := term.Restore(fd, state); err != nil {
			return err
		}
		defer func() {
			if s, err := term.MakeRaw(fd); err == nil {
				state = s
			}
		}()
		return f()
	}
	if page := t.Pager; page != nil {
		if _, rows, err := term.GetSize(fd); err == nil && t.Rows == 0 {
			t.Rows = rows
		}
		t.Pager = func(text string) error { return cooked(func() error { return page(text) }) }
	}
	if t.Color && t.Palette == (console.Palette{}) {
		t.Palette = console.GitPalette() // the person's color.diff.*
	}
	if edit := t.Editor; edit != nil {
		t.Editor = func(ctx context.Context, path string) error {
			return cooked(func() error { return edit(ctx, path) })
		}
	}
	return t.Run(ctx, r)
}
