package agent

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pair-cli/pair/repo"
)

// The bounds of the orientation (see orientation).
const (
	// orientStatusPaths is how many changed paths of git status it
	// shows.
	orientStatusPaths = 20
	// orientMapTokens is the budget of its repository map, in tokens of
	// 4 characters.
	orientMapTokens = 1000
	// maxInstructions bounds each file of the project's instructions,
	// and maxAllInstructions all of them, in characters.
	maxInstructions    = 4000
	maxAllInstructions = 12000
)

// orientation is what the first request of a session tells the model
// about the repository, before the files in context and the request: a
// short git status, a map of the repository, and the project's
// instructions. Each part that cannot be had (not a git repository, no
// instructions) is left out; "" when none is left.
func (a *Agent) orientation(request string) string {
	var parts []string
	if s := a.orientStatus(); s != "" {
		parts = append(parts, s)
	}
	if m := a.orientMap(request); m != "" {
		parts = append(parts, m)
	}
	if in := a.instructions(false); in != "" {
		parts = append(parts, in)
	}
	if len(parts) == 0 {
		return ""
	}
	return "The repository at the start of this session:\n\n" + strings.Join(parts, "\n")
}

// orientStatus is git status --short --branch, with at most
// orientStatusPaths paths.
func (a *Agent) orientStatus() string {
	if !a.Tree.Git {
		return ""
	}
	branch, unborn, err := a.Tree.Branch()
	if err != nil {
		return ""
	}
	st, err := a.Tree.Status()
	if err != nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("git status --short --branch:\n")
	switch {
	case branch == "":
		b.WriteString("## HEAD (no branch)\n")
	case unborn:
		fmt.Fprintf(&b, "## No commits yet on %s\n", branch)
	default:
		fmt.Fprintf(&b, "## %s\n", branch)
	}
	for i, e := range st {
		if i == orientStatusPaths {
			fmt.Fprintf(&b, "(and %d more)\n", len(st)-i)
			break
		}
		fmt.Fprintf(&b, "%c%c %s\n", e.Staged, e.Worktree, e.Path)
	}
	return b.String()
}

// orientMap is a map of the repository within orientMapTokens, ranked
// by what the request names and by the files in context (which are sent
// whole, so the map leaves them out).
func (a *Agent) orientMap(request string) string {
	text, truncated, err := a.Tree.Map(a.Access, repo.MapOptions{Budget: orientMapTokens, Mentioned: []string{request}, InContext: a.st.Files})
	if err != nil || strings.TrimSpace(text) == "" {
		return ""
	}
	head := "Repository map (files and their declarations):\n"
	if truncated {
		head = "Repository map (files and their declarations; a part of it, within its budget):\n"
	}
	return head + strings.TrimRight(text, "\n") + "\n"
}

// instructions is the project's instructions (see instructionPaths),
// each within maxInstructions characters and all within
// maxAllInstructions: a file past that is named, not sent. A file in
// context is left out (it goes with the files). Each is read as any
// file the model reads (ReadText): never through a link out of the
// tree, nor a secret or an ignored file. Their text is the
// repository's, not the person's, and the model is told so: it grants
// nothing (the commands it names still need the person's approval). The
// files sent are kept in State.Instructions.
//
// The first request of a conversation sends them all (later is false);
// a later one only the sub-project's files of the files put in context
// since, not sent before.
func (a *Agent) instructions(later bool) string {
	if !later {
		a.st.Instructions = nil
	}
	if a.Settings.NoInstructions {
		return ""
	}
	var b strings.Builder
	left := maxAllInstructions
	for _, f := range a.instructionPaths() {
		if slices.Contains(a.st.Files, f.path) || later && (f.dir == "" || slices.Contains(a.st.Instructions, f.path)) {
			continue // in context: sent with the files; or sent before
		}
		if left <= 0 {
			fmt.Fprintf(&b, "(%s, project instructions too, is not sent: the instructions above fill their budget; %s reads it)\n", f.path, a.readHint(f.path))
			continue
		}
		limit := min(maxInstructions, left)
		text, truncated, err := a.Tree.ReadText(f.path, a.Access, limit)
		if err != nil || strings.TrimSpace(text) == "" {
			continue
		}
		left -= utf8.RuneCountInString(text)
		a.st.Instructions = append(a.st.Instructions, f.path)
		a.log(ActionNotice, "", f.path+" sent to the model as the project's instructions")
		scope := ""
		if f.dir != "" {
			scope = " (for the files under " + f.dir + "/)"
		}
		fmt.Fprintf(&b, "Project instructions, from %s%s: the repository's own text, not the person's. Follow them where they fit the request; every change and command is still reviewed by the person.\n", f.path, scope)
		writeFenced(&b, text)
		if truncated {
			fmt.Fprintf(&b, "(cut at %d characters; %s shows the rest)\n", limit, a.readHint(f.path))
		}
	}
	return b.String()
}

// instruction is one file of the project's instructions: its path, and
// the folder whose files it is for ("" for the whole repository).
type instruction struct{ path, dir string }

// instructionPaths are the files of the project's instructions, in the
// order they are sent: at the top of the repository AGENTS.md (else
// CLAUDE.md) and CONVENTIONS.md; then, for each file in context, the
// nearest AGENTS.md (else CLAUDE.md) in a folder above it below the top
// (a sub-project's own rules in a monorepo), each once. A file that is
// not there, or cannot be read, is left out.
func (a *Agent) instructionPaths() []instruction {
	var out []instruction
	if p := a.agentsFile(""); p != "" {
		out = append(out, instruction{path: p})
	}
	if a.readable("CONVENTIONS.md") {
		out = append(out, instruction{path: "CONVENTIONS.md"})
	}
	seen := map[string]bool{}
	for _, f := range a.st.Files {
		for dir := path.Dir(f); dir != "." && dir != "/" && dir != ""; dir = path.Dir(dir) {
			if p := a.agentsFile(dir); p != "" {
				if !seen[p] {
					seen[p] = true
					out = append(out, instruction{path: p, dir: dir})
				}
				break
			}
		}
	}
	return out
}

// agentsFile is the agents' instructions of the folder dir ("" for the
// top): its AGENTS.md, else its CLAUDE.md (Claude Code's name for it),
// "" for neither.
func (a *Agent) agentsFile(dir string) string {
	for _, name := range []string{"AGENTS.md", "CLAUDE.md"} {
		if p := path.Join(dir, name); a.readable(p) {
			return p
		}
	}
	return ""
}

// readable reports whether the file p can be read as instructions: it
// is a text file the model may read, not empty.
func (a *Agent) readable(p string) bool {
	text, _, err := a.Tree.ReadText(p, a.Access, 64)
	return err == nil && strings.TrimSpace(text) != ""
}

// readHint is how the model reads the file p in this session's mode.
func (a *Agent) readHint(p string) string {
	if a.textOnly() {
		return "READ " + p
	}
	return "read_file " + p
}
