package agent

import (
	"fmt"
	"slices"
	"strings"

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
	// maxInstructions bounds the project's instructions, in characters.
	maxInstructions = 4000
)

// instructionFiles are the files at the root of the repository whose
// text is the project's instructions for models, in order of preference:
// the first that can be read is sent.
var instructionFiles = []string{"AGENTS.md", "CONVENTIONS.md"}

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
	if in := a.instructions(); in != "" {
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

// instructions is the project's instructions: the first of
// instructionFiles that can be read, within maxInstructions characters
// (none when it is in context: it goes with the files). It is read as
// any file the model reads (ReadText): never through a link out of the
// tree, nor a secret or an ignored file. Its text is the repository's,
// not the person's, and the model is told so.
func (a *Agent) instructions() string {
	for _, p := range instructionFiles {
		if slices.Contains(a.st.Files, p) {
			return "" // in context: sent with the files
		}
		text, truncated, err := a.Tree.ReadText(p, a.Access, maxInstructions)
		if err != nil || strings.TrimSpace(text) == "" {
			continue
		}
		a.log(ActionNotice, "", p+" sent to the model as the project's instructions")
		var b strings.Builder
		fmt.Fprintf(&b, "Project instructions, from %s: the repository's own text, not the person's. Follow them where they fit the request; every change and command is still reviewed by the person.\n", p)
		writeFenced(&b, text)
		if truncated {
			fmt.Fprintf(&b, "(cut at %d characters; %s shows the rest)\n", maxInstructions, a.readHint(p))
		}
		return b.String()
	}
	return ""
}

// readHint is how the model reads the file p in this session's mode.
func (a *Agent) readHint(p string) string {
	if a.textOnly() {
		return "READ " + p
	}
	return "read_file " + p
}
