package main

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/repo"
)

func applyCommand(io stdio) *cli.Command {
	return &cli.Command{
		Name:      "apply",
		Usage:     "place and apply a unified diff, all or nothing",
		ArgsUsage: "[PATCH|-]",
		Description: `Reads a unified diff from PATCH, or from standard input when PATCH is "-"
or missing, and applies it to the working tree (the top of the git repository
that holds the current directory, or the current directory itself).

Each hunk is placed by its content, with its line numbers used only to choose
between equally good places. Placement tolerates what models get wrong: line
numbers and counts, trailing whitespace, indentation, curly quotes, a missing
or slightly changed context line, two hunks run together. A hunk that matches
two places equally well is refused, never guessed.

If any hunk cannot be placed, nothing is written and each failure is explained
with the nearest lines of the real file.

Exit status: 0 applied (or, with --check, every hunk placed); 1 a hunk could
not be placed or a file could not be written; 2 usage error; 130 interrupted.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "check", Usage: "change nothing; show where each hunk goes and how it was placed"},
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "approve every hunk without asking"},
			&cli.BoolFlag{Name: "json", Usage: "print the placements and the outcome as one JSON object"},
			&cli.StringFlag{Name: "directory", Aliases: []string{"C"}, Usage: "run as if pair was started in `DIR`"},
			&cli.BoolFlag{Name: "no-commit", Usage: "write the files but do not commit them (in a git repository, pair commits by default)"},
			&cli.StringFlag{Name: "message", Aliases: []string{"m"}, Usage: "the commit's subject `TEXT` (default: what the patch changes)"},
			&cli.BoolFlag{Name: "no-verify", Usage: "do not run the pre-commit and commit-msg hooks"},
			&cli.BoolFlag{Name: "allow-ignored", Usage: "let the patch read and write files git ignores"},
			&cli.BoolFlag{Name: "allow-secrets", Usage: "let the patch read and write files that look like secrets (.env, keys, credentials)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usagef("apply: one patch at a time (got %d arguments)", c.NArg())
			}
			opts := applyOptions{
				Patch: c.Args().First(),
				Dir:   c.String("directory"),
				Check: c.Bool("check"),
				Yes:   c.Bool("yes"),
				JSON:  c.Bool("json"),
				IO:    io,

				NoCommit: c.Bool("no-commit"),
				Message:  c.String("message"),
				NoVerify: c.Bool("no-verify"),
				Access:   repo.Access{Ignored: c.Bool("allow-ignored"), Secrets: c.Bool("allow-secrets")},
			}
			return runApply(c, opts)
		},
	}
}

type applyOptions struct {
	Patch string // file name, "-" or "" for standard input
	Dir   string
	Check bool
	Yes   bool
	JSON  bool
	IO    stdio

	NoCommit bool   // write but do not commit
	Message  string // commit subject
	NoVerify bool   // skip hooks
	Access   repo.Access
}

// applyReport is the --json output of pair apply.
type applyReport struct {
	Status  string         `json:"status"` // ok | failed
	Check   bool           `json:"check"`
	Applied bool           `json:"applied"`
	Files   []fileReport   `json:"files"`
	Errors  []hunkFailure  `json:"errors"`
	Error   string         `json:"error,omitempty"`
	Summary map[string]int `json:"summary"`
	// Commit is the pair commit made, if any; Uncommitted lists files
	// written but left out of it, with why.
	Commit      string            `json:"commit,omitempty"`
	Uncommitted []uncommittedFile `json:"uncommitted,omitempty"`
}

type uncommittedFile struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

type fileReport struct {
	Path    string       `json:"path"`
	OldPath string       `json:"old_path,omitempty"`
	Action  string       `json:"action"` // modify | create | delete | rename
	Mode    string       `json:"mode,omitempty"`
	Hunks   []hunkReport `json:"hunks"`
}

type hunkReport struct {
	Hunk      int      `json:"hunk"` // 1-based, as in the patch
	Part      int      `json:"part,omitempty"`
	Start     int      `json:"start"` // 1-based first old line
	End       int      `json:"end"`
	OldLines  int      `json:"old_lines"`
	NewLines  int      `json:"new_lines"`
	Placement string   `json:"placement"`
	Offset    int      `json:"offset"`
	Notes     []string `json:"notes,omitempty"`
}

type hunkFailure struct {
	Path    string              `json:"path"`
	Hunk    int                 `json:"hunk"`
	Reason  string              `json:"reason"`
	Detail  string              `json:"detail,omitempty"`
	Nearest []edit.NumberedLine `json:"nearest,omitempty"`
}

func runApply(c *cli.Context, o applyOptions) error {
	if !o.Check && !o.Yes {
		return usagef("apply: approving hunks needs --yes (interactive review is not available yet); --check shows the placements without changing anything")
	}
	text, err := readPatch(o)
	if err != nil {
		return err
	}
	tree, err := openTree(o.Dir, o.IO.Err)
	if err != nil {
		return fmt.Errorf("apply: %w", err)
	}
	defer tree.Close()

	report := applyReport{Check: o.Check, Files: []fileReport{}, Errors: []hunkFailure{}}
	fail := func(err error) error {
		if o.JSON {
			report.Status, report.Error = "failed", err.Error()
			writeJSON(o.IO.Out, report)
			return &exitError{code: exitFailure, msg: "apply: " + err.Error()}
		}
		return fmt.Errorf("apply: %w", err)
	}
	patch, err := edit.Parse(text)
	if err != nil {
		return fail(err)
	}
	plans, err := tree.PlaceWith(patch, o.Access)
	if err != nil {
		return fail(err)
	}
	placed, failed := 0, 0
	for _, p := range plans {
		report.Files = append(report.Files, fileReportOf(p))
		placed += len(p.Hunks)
		for _, e := range p.Errors {
			failed++
			report.Errors = append(report.Errors, hunkFailure{
				Path: e.Path, Hunk: e.Hunk + 1, Reason: e.Err.Error(), Detail: e.Detail, Nearest: e.Nearest,
			})
		}
	}
	report.Summary = map[string]int{"files": len(plans), "placed": placed, "failed": failed}

	if failed > 0 || o.Check {
		report.Status = "ok"
		if failed > 0 {
			report.Status = "failed"
		}
		if o.JSON {
			writeJSON(o.IO.Out, report)
		} else {
			printPlacements(o.IO.Out, report)
		}
		if failed > 0 {
			what := "nothing was written"
			if o.Check {
				what = "nothing would be written"
			}
			return &exitError{code: exitFailure, msg: fmt.Sprintf("apply: %d of %d %s could not be placed; %s", failed, failed+placed, plural(failed+placed, "hunk"), what)}
		}
		return nil
	}

	commit := tree.Git && !o.NoCommit
	if commit {
		// Know who commits before writing anything.
		if _, _, err := tree.Identity(); err != nil {
			return fail(fmt.Errorf("%w (or use --no-commit)", err))
		}
	}
	// The files may have changed while the hunks were placed (or, later,
	// reviewed): place them again, or refuse.
	changed, err := tree.Refresh(plans)
	if err != nil {
		return fail(err)
	}
	for _, p := range changed {
		fmt.Fprintf(o.IO.Err, "pair: %s changed since the patch was placed; its hunks were placed again\n", p)
	}
	if len(changed) > 0 { // report where the hunks go now
		report.Files = report.Files[:0]
		for _, p := range plans {
			report.Files = append(report.Files, fileReportOf(p))
		}
	}
	changes, err := changesOf(plans)
	if err != nil {
		return fail(err)
	}
	if err := c.Context.Err(); err != nil {
		return err
	}
	if err := tree.Write(changes); err != nil {
		return fail(err)
	}
	report.Status, report.Applied = "ok", true
	var commitErr error
	if commit {
		res, err := tree.Commit(commitsOf(plans, changes), repo.CommitOptions{
			Record:     recordOf(plans, o),
			NoVerify:   o.NoVerify,
			HookOutput: o.IO.Err,
		})
		if err != nil {
			report.Status = "failed"
			report.Error = "the files are written but not committed: " + err.Error()
			commitErr = fmt.Errorf("apply: the files are written but not committed: %w", err)
		} else {
			report.Commit = res.Hash
			for _, u := range res.Uncommitted {
				report.Uncommitted = append(report.Uncommitted, uncommittedFile{Path: u.Path, Reason: u.Reason})
			}
		}
	}
	if o.JSON {
		writeJSON(o.IO.Out, report)
	} else {
		printPlacements(o.IO.Out, report)
		fmt.Fprintf(o.IO.Out, "applied %d %s to %d %s\n", placed, plural(placed, "hunk"), len(plans), plural(len(plans), "file"))
		if report.Commit != "" {
			fmt.Fprintf(o.IO.Out, "committed %s\n", report.Commit[:12])
		}
		for _, u := range report.Uncommitted {
			fmt.Fprintf(o.IO.Out, "not committed: %s: %s\n", u.Path, u.Reason)
		}
	}
	if commitErr != nil {
		return &exitError{code: exitFailure, msg: commitErr.Error()}
	}
	return nil
}

// commitsOf describes the written plans for the commit.
func commitsOf(plans []*edit.FilePlan, changes []repo.Change) []repo.FileCommit {
	content := map[string]repo.Change{}
	for _, c := range changes {
		content[c.Path] = c
	}
	var out []repo.FileCommit
	for _, p := range plans {
		fc := repo.FileCommit{Path: p.Path(), Before: p.Old, Hunks: p.Hunks}
		switch {
		case p.NewPath == "":
			fc.Delete = true
		case p.OldPath == "":
			fc.Create = true
		case p.OldPath != p.NewPath:
			fc.OldPath = p.OldPath
		}
		if c, ok := content[p.NewPath]; ok && !fc.Delete {
			fc.After, fc.Mode = string(c.Content), c.Mode
		}
		out = append(out, fc)
	}
	return out
}

// recordOf writes the commit record of a plain pair apply: every hunk
// approved (apply writes all or nothing), no model.
func recordOf(plans []*edit.FilePlan, o applyOptions) repo.Record {
	r := repo.Record{Subject: o.Message, Session: newSessionID("apply"), Model: "none"}
	var paths []string
	for _, p := range plans {
		paths = append(paths, p.Path())
		for _, h := range p.Hunks {
			r.Hunks = append(r.Hunks, repo.HunkRecord{Path: p.Path(), Start: h.Start + 1, Hash: repo.HunkHash(h), Decision: repo.Approved})
		}
	}
	if r.Subject == "" {
		r.Subject = "pair apply: " + summarizePaths(paths)
	}
	src := o.Patch
	if src == "" || src == "-" {
		src = "standard input"
	}
	r.Body = fmt.Sprintf("Applied with pair apply from %s: %d %s in %d %s, all approved.",
		src, len(r.Hunks), plural(len(r.Hunks), "hunk"), len(plans), plural(len(plans), "file"))
	return r
}

// summarizePaths names up to three paths and counts the rest.
func summarizePaths(paths []string) string {
	if len(paths) <= 3 {
		return strings.Join(paths, ", ")
	}
	return fmt.Sprintf("%s and %d more files", strings.Join(paths[:2], ", "), len(paths)-2)
}

// newSessionID returns a fresh session name: the kind, the time and random
// digits ("apply-20261129-212730-1a2b3c").
func newSessionID(kind string) string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s-%s-%x", kind, time.Now().UTC().Format("20060102-150405"), b)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func readPatch(o applyOptions) (string, error) {
	if o.Patch != "" && o.Patch != "-" {
		b, err := os.ReadFile(o.Patch)
		if err != nil {
			return "", fmt.Errorf("apply: read patch: %w", err)
		}
		return string(b), nil
	}
	if f, ok := o.IO.In.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			return "", usagef("apply: give a patch file, or pipe the patch to standard input")
		}
	}
	b, err := io.ReadAll(o.IO.In)
	if err != nil {
		return "", fmt.Errorf("apply: read standard input: %w", err)
	}
	return string(b), nil
}

func fileReportOf(p *edit.FilePlan) fileReport {
	fr := fileReport{Path: p.Path(), Hunks: []hunkReport{}}
	switch {
	case p.OldPath == "":
		fr.Action = "create"
	case p.NewPath == "":
		fr.Action = "delete"
	case p.OldPath != p.NewPath:
		fr.Action, fr.OldPath = "rename", p.OldPath
	default:
		fr.Action = "modify"
	}
	if p.Diff.ModeChange() || (fr.Action == "create" && p.Diff.NewMode != "") {
		fr.Mode = p.Diff.NewMode
	}
	for _, h := range p.Hunks {
		oc := h.OldCount()
		fr.Hunks = append(fr.Hunks, hunkReport{
			Hunk: h.Hunk + 1, Part: h.Part,
			Start: h.Start + 1, End: h.Start + max(oc, 1),
			OldLines: oc, NewLines: h.NewCount(),
			Placement: h.Label(), Offset: h.Offset, Notes: h.Notes,
		})
	}
	return fr
}

// changesOf computes the write set of fully placed plans.
func changesOf(plans []*edit.FilePlan) ([]repo.Change, error) {
	var out []repo.Change
	for _, p := range plans {
		content, err := p.Result(nil)
		if err != nil {
			return nil, err
		}
		mode, err := modeOf(p.Diff)
		if err != nil {
			return nil, err
		}
		switch {
		case p.NewPath == "":
			out = append(out, repo.Change{Path: p.OldPath, Delete: true})
		default:
			out = append(out, repo.Change{Path: p.NewPath, Content: []byte(content), Mode: mode})
			if p.OldPath != "" && p.OldPath != p.NewPath && p.Diff.Renamed {
				out = append(out, repo.Change{Path: p.OldPath, Delete: true})
			}
		}
	}
	return out, nil
}

// modeOf turns a git mode from the patch into permission bits to set, or
// 0 to keep the file's own mode.
func modeOf(fd *edit.FileDiff) (fs.FileMode, error) {
	if !fd.ModeChange() && !(fd.New && fd.NewMode != "") {
		return 0, nil
	}
	switch fd.NewMode {
	case "100644":
		return 0o644, nil
	case "100755":
		return 0o755, nil
	}
	if _, err := strconv.ParseUint(fd.NewMode, 8, 32); err != nil {
		return 0, fmt.Errorf("%s: bad file mode %q", fd.Path(), fd.NewMode)
	}
	return 0, errors.New(fd.Path() + ": only regular files (mode 100644 or 100755) can be written, not mode " + fd.NewMode)
}

func printPlacements(w io.Writer, r applyReport) {
	for _, f := range r.Files {
		lines := 0
		for _, h := range f.Hunks {
			lines += max(h.NewLines, h.OldLines)
		}
		switch f.Action {
		case "create":
			fmt.Fprintf(w, "create %s (%d %s)\n", f.Path, lines, plural(lines, "line"))
		case "delete":
			fmt.Fprintf(w, "delete %s (%d %s)\n", f.Path, lines, plural(lines, "line"))
		case "rename":
			fmt.Fprintf(w, "rename %s -> %s\n", f.OldPath, f.Path)
		}
		if f.Mode != "" && f.Action != "create" {
			fmt.Fprintf(w, "mode %s %s\n", f.Mode, f.Path)
		}
		if f.Action == "create" || f.Action == "delete" {
			continue // the whole file is the hunk
		}
		for _, h := range f.Hunks {
			label := h.Placement
			if h.Offset != 0 {
				label += fmt.Sprintf(" (%+d %s)", h.Offset, plural(abs(h.Offset), "line"))
			}
			fmt.Fprintf(w, "%s:%d-%d\t%s\n", f.Path, h.Start, h.End, label)
			for _, n := range h.Notes {
				fmt.Fprintf(w, "\t%s\n", n)
			}
		}
	}
	for _, e := range r.Errors {
		fmt.Fprintf(w, "%s: hunk %d: FAILED: %s", e.Path, e.Hunk, e.Reason)
		if e.Detail != "" {
			fmt.Fprintf(w, ": %s", e.Detail)
		}
		fmt.Fprintln(w)
		if len(e.Nearest) > 0 {
			fmt.Fprintf(w, "\tnearest lines of %s:\n", e.Path)
			prev := 0
			for _, l := range e.Nearest {
				if prev != 0 && l.N != prev+1 {
					fmt.Fprintf(w, "\t%6s |\n", "...")
				}
				fmt.Fprintf(w, "\t%6d | %s\n", l.N, strings.ReplaceAll(l.Text, "\t", "    "))
				prev = l.N
			}
		}
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}
