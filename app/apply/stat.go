// stat.go: git apply's --stat, --numstat and --summary, printed as git
// prints them so that scripts read them alike.

package apply

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/pair-cli/pair/edit"
)

// Reports are git apply's reports of what a patch changes, printed
// instead of applying it unless Apply (or Check) is set too.
type Reports struct {
	// Stat is --stat: a line per file with its changed lines drawn as
	// + and -, and the totals.
	Stat bool
	// Numstat is --numstat: added and deleted lines and the name, with
	// tabs; NUL ends each name instead of a newline with Z (-z).
	Numstat, Z bool
	// Summary is --summary: creations, deletions, renames, copies and
	// mode changes.
	Summary bool
	// Apply is --apply: apply the patch as well.
	Apply bool
}

// any reports whether a report was asked for.
func (r Reports) any() bool { return r.Stat || r.Numstat || r.Summary }

// only reports whether the reports replace applying the patch.
func (r Reports) only(check bool) bool { return r.any() && !r.Apply && !check }

// FileStat is what --stat, --numstat and --summary say of one file of
// the patch, in the --json report: the lines added and deleted (none for
// a binary file), and the file's --summary lines as git prints them.
type FileStat struct {
	Path    string   `json:"path"`
	OldPath string   `json:"old_path,omitempty"` // a rename's or copy's source
	Added   int      `json:"added"`
	Deleted int      `json:"deleted"`
	Binary  bool     `json:"binary,omitempty"`
	Summary []string `json:"summary,omitempty"`
}

// stats is what the reports say of files, for --json: every field,
// whichever of --stat, --numstat and --summary was given.
func (r Reports) stats(files []*edit.FileDiff, reversed bool) []FileStat {
	if !r.any() {
		return nil
	}
	st := statsOf(files)
	if reversed {
		slices.Reverse(st)
	}
	out := make([]FileStat, 0, len(st))
	for _, s := range st {
		f := FileStat{Path: s.fd.Path(), Added: s.added, Deleted: s.deleted, Binary: s.fd.Binary}
		if s.fd.OldPath != "" && s.fd.OldPath != f.Path && (s.fd.Renamed || s.fd.Copied) {
			f.OldPath = s.fd.OldPath
		}
		var b strings.Builder
		writeSummary(&b, s.fd)
		for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				f.Summary = append(f.Summary, l)
			}
		}
		out = append(out, f)
	}
	return out
}

// fileStat is what the reports say about one file of the patch.
type fileStat struct {
	fd             *edit.FileDiff
	added, deleted int
}

func statsOf(files []*edit.FileDiff) []fileStat {
	var out []fileStat
	for _, fd := range files {
		s := fileStat{fd: fd}
		for _, h := range fd.Hunks {
			for _, l := range h.Lines {
				switch l.Kind {
				case edit.Add:
					s.added++
				case edit.Delete:
					s.deleted++
				}
			}
		}
		out = append(out, s)
	}
	return out
}

// write prints the reports r asks for, in git's order; reversed
// lists the files last first, as git apply -R does.
func (r Reports) write(w io.Writer, files []*edit.FileDiff, reversed bool) {
	if !r.any() {
		return
	}
	stats := statsOf(files)
	if reversed {
		slices.Reverse(stats)
	}
	if r.Stat {
		writeStat(w, stats)
	}
	if r.Numstat {
		end := "\n"
		if r.Z {
			end = "\x00"
		}
		for _, s := range stats {
			if s.fd.Binary {
				fmt.Fprint(w, "-\t-\t")
			} else {
				fmt.Fprintf(w, "%d\t%d\t", s.added, s.deleted)
			}
			name := s.fd.Path()
			if !r.Z {
				name = edit.QuotePath(name)
			}
			fmt.Fprint(w, name+end)
		}
	}
	if r.Summary {
		for _, s := range stats {
			writeSummary(w, s.fd)
		}
	}
}

// The widths of --stat: a name takes at most statName columns, and the
// name and the graph together statLine.
const (
	statName = 50
	statLine = 70
)

// writeStat prints git apply --stat: the names padded to the longest
// (old or new, quoted), cut from the left at a directory when longer than
// 50 columns, and each file's graph scaled to the largest change.
func writeStat(w io.Writer, stats []fileStat) {
	width, most := 0, 0
	for _, s := range stats {
		most = max(most, s.added+s.deleted)
		for _, n := range []string{s.fd.OldPath, s.fd.NewPath} {
			if n != "" {
				width = max(width, len(edit.QuotePath(n)))
			}
		}
	}
	width = min(width, statName)
	graph := most
	if width+most > statLine {
		graph = statLine - width
	}
	files, adds, dels := 0, 0, 0
	for _, s := range stats {
		files++
		adds += s.added
		dels += s.deleted
		name := edit.QuotePath(s.fd.Path())
		if len(name) > width {
			from := len(name) + 3 - width
			if i := strings.IndexByte(name[from:], '/'); i >= 0 {
				from += i
			}
			name = "..." + name[from:]
		}
		if s.fd.Binary {
			fmt.Fprintf(w, " %-*s |  Bin\n", width, name)
			continue
		}
		plus, minus := s.added, s.deleted
		if most > 0 {
			total := ((s.added+s.deleted)*graph + most/2) / most
			plus = (s.added*graph + most/2) / most
			minus = total - plus
		}
		fmt.Fprintf(w, " %-*s |%5d %s%s\n", width, name, s.added+s.deleted, strings.Repeat("+", plus), strings.Repeat("-", minus))
	}
	fmt.Fprintln(w, statTotals(files, adds, dels))
}

// statTotals is the last line of --stat, as git words it.
func statTotals(files, adds, dels int) string {
	if files == 0 {
		return " 0 files changed"
	}
	var b strings.Builder
	fmt.Fprintf(&b, " %d %s changed", files, plural(files, "file", "files"))
	if adds > 0 || dels == 0 {
		fmt.Fprintf(&b, ", %d %s(+)", adds, plural(adds, "insertion", "insertions"))
	}
	if dels > 0 || adds == 0 {
		fmt.Fprintf(&b, ", %d %s(-)", dels, plural(dels, "deletion", "deletions"))
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// writeSummary prints git apply --summary's lines for one file.
func writeSummary(w io.Writer, fd *edit.FileDiff) {
	switch {
	case fd.New:
		modeName(w, "create", fd.NewMode, fd.NewPath)
	case fd.Deleted:
		modeName(w, "delete", fd.OldMode, fd.OldPath)
	case fd.Renamed || fd.Copied:
		what := "copy"
		if fd.Renamed {
			what = "rename"
		}
		// The directories both names share are written once, the rest
		// between braces.
		common := 0
		for {
			i := strings.IndexByte(fd.OldPath[common:], '/')
			j := strings.IndexByte(fd.NewPath[common:], '/')
			if i < 0 || i != j || fd.OldPath[common:common+i] != fd.NewPath[common:common+j] {
				break
			}
			common += i + 1
		}
		if common > 0 {
			fmt.Fprintf(w, " %s %s{%s => %s} (%d%%)\n", what, fd.OldPath[:common], fd.OldPath[common:], fd.NewPath[common:], fd.Score)
		} else {
			fmt.Fprintf(w, " %s %s => %s (%d%%)\n", what, fd.OldPath, fd.NewPath, fd.Score)
		}
		modeChange(w, fd, false)
	case fd.Rewrite && fd.Score > 0:
		fmt.Fprintf(w, " rewrite %s (%d%%)\n", fd.NewPath, fd.Score)
		modeChange(w, fd, false)
	default:
		modeChange(w, fd, true)
	}
}

func modeName(w io.Writer, what, mode, name string) {
	if m, err := strconv.ParseUint(mode, 8, 32); err == nil && m != 0 {
		fmt.Fprintf(w, " %s mode %06o %s\n", what, m, name)
		return
	}
	fmt.Fprintf(w, " %s %s\n", what, name)
}

func modeChange(w io.Writer, fd *edit.FileDiff, named bool) {
	if !fd.ModeChange() {
		return
	}
	old, _ := strconv.ParseUint(fd.OldMode, 8, 32)
	nw, _ := strconv.ParseUint(fd.NewMode, 8, 32)
	if named {
		fmt.Fprintf(w, " mode change %06o => %06o %s\n", old, nw, fd.NewPath)
	} else {
		fmt.Fprintf(w, " mode change %06o => %06o\n", old, nw)
	}
}
