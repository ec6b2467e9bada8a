package blame

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/pair-cli/pair/internal/console"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/safetext"
	"github.com/pair-cli/pair/repo"
)

// Options are the options of pair blame.
type Options struct {
	Dir string
	// Paths are the files to blame: one without Stats; with Stats, any
	// number of files and folders, none meaning the whole tree.
	Paths  []string
	Copies bool // follow lines moved or copied between files (git blame -C)
	Stats  bool
	JSON   bool
	IO     console.IO
	// OpenTree opens the working tree that holds a directory.
	OpenTree func(dir string) (*repo.Tree, error)
}

// Report is the --json output of pair blame: the lines of Path, or with
// --stats, Files and Total.
type Report struct {
	Status string  `json:"status"` // ok | failed
	Path   string  `json:"path,omitempty"`
	Lines  []Line  `json:"lines,omitempty"`
	Files  []Stats `json:"files,omitempty"`
	Total  *Stats  `json:"total,omitempty"`
	// Skipped are the files --stats left out, with why (binary).
	Skipped []Skipped `json:"skipped,omitempty"`
	Error   string    `json:"error,omitempty"`
}

// Line is one line of the blamed file.
type Line struct {
	Line     int    `json:"line"`
	Commit   string `json:"commit"` // "" for a line not committed yet
	Author   string `json:"author"`
	Date     string `json:"date,omitempty"` // RFC 3339, the author date
	Path     string `json:"path"`           // the file in that commit
	OrigLine int    `json:"orig_line"`      // the line's number there
	Pair     *Pair  `json:"pair"`           // null unless this pair made the commit
	Text     string `json:"text"`
}

// Pair is what pair's record says of a line it wrote.
type Pair struct {
	Model    string `json:"model"`
	Decision string `json:"decision"` // approved | edited | interpreted | "" (no hunk record names the file)
	Session  string `json:"session"`
	Hunk     *Hunk  `json:"hunk,omitempty"`
}

// Hunk is the record of the hunk that wrote a line.
type Hunk struct {
	Path  string `json:"path"`
	Start int    `json:"start"`
	Hash  string `json:"hash"`
}

// Stats are one file's lines by who wrote them.
type Stats struct {
	Path  string `json:"path,omitempty"`
	Lines int    `json:"lines"`
	// Model are the lines a model wrote (pair commits made here whose
	// model is not "none"), of which Approved, Edited and Interpreted
	// by the decision of their hunk; Share is Model over Lines.
	Model       int     `json:"model"`
	Approved    int     `json:"approved"`
	Edited      int     `json:"edited"`
	Interpreted int     `json:"interpreted"`
	Share       float64 `json:"share"`
	// Applied are the lines of pair apply's commits (model "none").
	Applied int `json:"applied"`
}

// Skipped is a file --stats left out.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Run runs pair blame on o.IO.Out.
func Run(ctx context.Context, o Options) error {
	report := Report{}
	fail := func(err error) error {
		if o.JSON {
			report = Report{Status: "failed", Error: err.Error()}
			output.WriteJSON(o.IO.Out, report)
			return &output.ExitError{Code: output.Failure, Msg: "blame: " + err.Error()}
		}
		return fmt.Errorf("blame: %w", err)
	}
	tree, err := o.OpenTree(o.Dir)
	if err != nil {
		return fail(err)
	}
	defer tree.Close()
	if o.Stats {
		if err := stats(ctx, tree, o, &report); err != nil {
			return fail(err)
		}
	} else {
		if len(o.Paths) != 1 {
			return output.Usagef("blame: name one file (or use --stats)")
		}
		b, err := tree.Blame(argPath(tree, o.Dir, o.Paths[0]), repo.Access{}, repo.BlameOptions{Copies: o.Copies})
		if err != nil {
			return fail(err)
		}
		report.Path = b.Path
		report.Lines = make([]Line, 0, len(b.Lines))
		for _, l := range b.Lines {
			report.Lines = append(report.Lines, lineOf(l))
		}
	}
	report.Status = "ok"
	if o.JSON {
		output.WriteJSON(o.IO.Out, report)
		return nil
	}
	screen, pager := console.StartPager(ctx, o.IO)
	defer pager.Close()
	if o.Stats {
		printStats(screen.Out, report)
	} else {
		printLines(screen.Out, report.Lines)
	}
	return nil
}

// argPath is a path the person named, relative to the directory pair
// runs in (dir, else the current one), as Tree.Clean takes it: absolute,
// or "" for the tree's root.
func argPath(tree *repo.Tree, dir, p string) string {
	if !filepath.IsAbs(p) {
		base, err := filepath.Abs(dir)
		if err != nil {
			return p
		}
		p = filepath.Join(base, p)
	}
	if rel, err := filepath.Rel(tree.Dir, p); err == nil && rel == "." {
		return ""
	}
	return p
}

func lineOf(l repo.BlameLine) Line {
	out := Line{Line: l.Line, Commit: l.Commit, Author: l.Author, Path: l.Path, OrigLine: l.OrigLine, Text: l.Text}
	if !l.When.IsZero() {
		out.Date = l.When.Format(time.RFC3339)
	}
	if p := l.Pair; p != nil {
		out.Pair = &Pair{Model: p.Model, Decision: p.Decision, Session: p.Session}
		if h := p.Hunk; h != nil {
			out.Pair.Hunk = &Hunk{Path: h.Path, Start: h.Start, Hash: h.Hash}
		}
	}
	return out
}

// stats blames each file of o.Paths (every file of HEAD under a folder,
// the whole tree without paths) and sums up its lines.
func stats(ctx context.Context, tree *repo.Tree, o Options, report *Report) error {
	paths := o.Paths
	if len(paths) == 0 {
		paths = []string{tree.Dir} // the whole tree, wherever pair runs
	}
	report.Files = []Stats{}
	total := Stats{}
	for _, p := range paths {
		files, err := tree.HeadFiles(argPath(tree, o.Dir, p), repo.Access{})
		if err != nil {
			return err
		}
		if len(files) == 0 {
			return fmt.Errorf("%s: %w", p, repo.ErrNotInHead)
		}
		for _, f := range files {
			if err := ctx.Err(); err != nil {
				return err
			}
			b, err := tree.Blame(f, repo.Access{}, repo.BlameOptions{Copies: o.Copies})
			if errors.Is(err, repo.ErrBinary) {
				report.Skipped = append(report.Skipped, Skipped{Path: f, Reason: "binary"})
				continue
			}
			if err != nil {
				return err
			}
			s := statsOf(b)
			report.Files = append(report.Files, s)
			total.add(s)
		}
	}
	total.Share = share(total.Model, total.Lines)
	report.Total = &total
	return nil
}

func statsOf(b *repo.Blame) Stats {
	s := Stats{Path: b.Path, Lines: len(b.Lines)}
	for _, l := range b.Lines {
		p := l.Pair
		switch {
		case p == nil:
		case p.Model == "none" || p.Model == "":
			s.Applied++
		default:
			s.Model++
			switch p.Decision {
			case "approved":
				s.Approved++
			case "edited":
				s.Edited++
			case repo.DecisionInterpreted:
				s.Interpreted++
			}
		}
	}
	s.Share = share(s.Model, s.Lines)
	return s
}

func (s *Stats) add(o Stats) {
	s.Lines += o.Lines
	s.Model += o.Model
	s.Approved += o.Approved
	s.Edited += o.Edited
	s.Interpreted += o.Interpreted
	s.Applied += o.Applied
}

func share(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) / float64(of)
}

// shortLen is the length of the abbreviated hashes blame prints, as git
// blame's.
const shortLen = 8

// printLines prints the lines as git blame does: the commit, who wrote
// the line and when, its number and its text. A line of pair's commits
// names the model (the author for pair apply's) and the decision for
// its hunk in brackets. Names and lines are anyone's text: escaped (see
// internal/safetext).
func printLines(w io.Writer, lines []Line) {
	who := make([]string, len(lines))
	width, digits := 0, len(fmt.Sprint(len(lines)))
	for i, l := range lines {
		who[i] = whoOf(l)
		width = max(width, len([]rune(who[i])))
	}
	for i, l := range lines {
		hash := strings.Repeat("0", shortLen)
		if len(l.Commit) >= shortLen {
			hash = l.Commit[:shortLen]
		}
		date := "          "
		if len(l.Date) >= 10 {
			date = l.Date[:10]
		}
		pad := strings.Repeat(" ", width-len([]rune(who[i])))
		fmt.Fprintf(w, "%s (%s%s %s %*d) %s\n", hash, who[i], pad, date, digits, l.Line, safetext.Line(l.Text))
	}
}

// whoOf is who wrote a line, as printLines shows it.
func whoOf(l Line) string {
	name := l.Author
	if i := strings.Index(name, " <"); i >= 0 {
		name = name[:i]
	}
	name = safetext.Name(name)
	p := l.Pair
	if p == nil {
		return name
	}
	if p.Model != "none" && p.Model != "" {
		name = safetext.Name(p.Model)
	}
	d := p.Decision
	if d == "" {
		d = "pair"
	}
	return name + " [" + safetext.Name(d) + "]"
}

// printStats prints a table of the files and the total.
func printStats(w io.Writer, r Report) {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "LINES\tMODEL\tSHARE\tAPPROVED\tEDITED\tINTERPRETED\tAPPLIED\t  FILE")
	row := func(s Stats, name string) {
		fmt.Fprintf(tw, "%d\t%d\t%.1f%%\t%d\t%d\t%d\t%d\t  %s\n", s.Lines, s.Model, 100*s.Share, s.Approved, s.Edited, s.Interpreted, s.Applied, name)
	}
	for _, s := range r.Files {
		row(s, safetext.Name(s.Path))
	}
	if len(r.Files) != 1 && r.Total != nil {
		row(*r.Total, "(total)")
	}
	tw.Flush()
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "skipped %s: %s\n", safetext.Name(s.Path), s.Reason)
	}
}
