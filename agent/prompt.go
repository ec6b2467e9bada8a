package agent

import (
	"fmt"
	"strconv"
	"strings"
)

// systemPrompt tells the model how pair works: its tools (or, textOnly,
// the plain-text protocol that stands for them), the one edit format it
// teaches (a unified diff, with a worked example, and write_file for
// whole files), how edits are reviewed, the command policy and the test
// command (s.TestCmd), and when the task is done.
func systemPrompt(mode Mode, textOnly bool, s Settings) string {
	reader := "read_file"
	if textOnly {
		reader = "READ"
	}
	var b strings.Builder
	b.WriteString("You are pair, a pair programmer working in a git repository with a person who reviews every change.\n\n")
	if textOnly {
		b.WriteString("You have no tools; you read the repository by asking in plain text. To read, end your reply with one request per line, each alone on its line, and nothing after them:\n" +
			textCommands +
			"pair answers in the next message.")
	} else {
		b.WriteString("Read the repository with the read-only tools (read_file, list_files, search_files, repo_map, git_status, git_diff, git_log) before you change anything.")
	}
	b.WriteString(" Never guess a file's content: read it. " + reader + " shows each line as its number, a tab, then the line: the number and the tab are not part of the file; never copy them into a diff.\n")
	if mode == ModeAsk {
		b.WriteString(`
This session is read-only: answer the question; do not propose changes or run commands. End the answer with the files you relied on, as "Files: path, path".
`)
		return b.String()
	}
	diff := exampleDiff
	if textOnly {
		b.WriteString("\nTo change a file, put a unified diff against the file as it is now in your reply, in a fenced block marked diff, after a line \"Commit: SUBJECT\", the commit subject: imperative (\"Guard Upper against the empty string\"), under 72 characters.")
		diff = "```diff\n" + diff + "```\n"
	} else {
		b.WriteString("\nTo change a file, call propose_diff with a unified diff against the file as it is now and, as message, the commit subject: imperative, under 72 characters.")
	}
	b.WriteString(" Example: hello.py, as " + reader + " shows it:\n" + exampleRead + "Asked to end the greeting with \"!\", you send:\n" + diff)
	b.WriteString(`Each hunk has up to three unchanged context lines around its change, each starting with a space and copied exactly from the file (same indentation, tabs kept); "-" starts a line removed, "+" a line added. The @@ numbers are hints: pair finds the place by the lines, so approximate line numbers and counts are fine. One diff may change several files. `)
	if textOnly {
		b.WriteString(`A new file is a diff from "--- /dev/null" with every line added.` + "\n")
	} else {
		b.WriteString("For a new file, or to rewrite a whole file, call write_file with its complete content.\n")
	}
	outcome := "The tool result"
	if textOnly {
		outcome = "The next message"
	}
	b.WriteString(`
Change only what was asked, in small hunks. The person reviews each hunk: they may apply it, edit it, or reject it, with or without a note. ` + outcome + ` says which, per hunk, and gives the nearest real lines for a hunk that did not place: fix it from those lines. Follow the person's notes. After a rejection without a note, do not propose that change again: go on with the rest, or ask the person.
`)
	if textOnly {
		b.WriteString("You cannot run commands; say which command the person should run, if one is needed.\n")
	} else {
		b.WriteString("run_command runs a shell command only after the person approves it, unless the configuration allows it")
		if ok := allowedCommands(s); len(ok) > 0 {
			b.WriteString(" (it allows " + strings.Join(ok, ", ") + ")")
		}
		b.WriteString("; a command chained with &&, ; or | always needs their approval, as a whole. suggest_command only shows a command.\n")
	}
	if t := strings.TrimSpace(s.TestCmd); t != "" {
		fmt.Fprintf(&b, "The test command is %q: pair runs it after each edit that is applied and tells you the result. Fix what fails.\n", t)
	}
	tool := "tool call"
	if textOnly {
		tool = "diff"
	}
	b.WriteString("When the task is done, answer without a " + tool + ": a short summary of what changed and why, naming the files.\n")
	return b.String()
}

// allowedCommands are the commands that run without asking (see
// allowed), quoted.
func allowedCommands(s Settings) []string {
	var out []string
	for _, c := range append([]string{s.TestCmd}, s.AllowCommands...) {
		if c = strings.TrimSpace(c); c != "" {
			out = append(out, strconv.Quote(c))
		}
	}
	return out
}

// textCommands are the plain-text requests of text-only mode, one a
// line, with what each reads (see parseTextRequest).
const textCommands = `READ path            the whole file
READ path 10-80      lines 10 to 80
LIST glob            the files matching a glob ("**/*.go"; LIST alone for all)
SEARCH regexp glob   the lines matching a regular expression (Go syntax), optionally only in files matching the glob
MAP [focus]          the repository map: files and their declarations (MAP alone for all)
STATUS               git status, as git status --porcelain shows it
DIFF [path]          the uncommitted changes as a unified diff, of all files or only of path
LOG [path]           the last 10 commits, of all files or only those that change path
`

// exampleRead and exampleDiff are the worked example of the system
// prompt: a small file as read_file shows it, and the unified diff of a
// change to it.
const (
	exampleRead = "hello.py: lines 1-6 of 6\n" +
		"1\tdef greet(name):\n" +
		"2\t    if not name:\n" +
		"3\t        name = \"world\"\n" +
		"4\t    message = \"Hello, \" + name\n" +
		"5\t    print(message)\n" +
		"6\t    return message\n"
	exampleDiff = `--- a/hello.py
+++ b/hello.py
@@ -1,6 +1,6 @@
 def greet(name):
     if not name:
         name = "world"
-    message = "Hello, " + name
+    message = "Hello, " + name + "!"
     print(message)
     return message
`
)

// userMessage is the request, with the files in context whose content
// the model has not seen as it is now, and, for the first request of a
// session, the orientation before them. Files it may not read are
// refused and recorded as blocked.
func (a *Agent) userMessage(request string, first bool) string {
	var b strings.Builder
	if first {
		if o := a.orientation(request); o != "" {
			b.WriteString(o + "\n")
		}
	} else if in := a.instructions(true); in != "" {
		// Files put in context since (/add) may bring their
		// sub-project's instructions.
		b.WriteString(in + "\n")
	}
	said := false
	for _, p := range a.st.Files {
		text, truncated, err := a.Tree.ReadText(p, a.Access, 4*defaultMaxChars)
		if err != nil {
			if blockedPath(err) {
				a.blockErr("context", p, err)
			}
			fmt.Fprintf(&b, "(%s is in context but cannot be read: %v)\n\n", p, err)
			continue
		}
		h := hashOf(text)
		if a.st.Sent[p] == h {
			continue
		}
		a.st.Sent[p] = h
		a.noteFile(p)
		a.sawContext(p, text, truncated)
		if !said {
			b.WriteString(inContext)
			said = true
		}
		b.WriteString(p + ":\n")
		writeFenced(&b, text)
		if truncated {
			fmt.Fprintf(&b, "(truncated; %s shows the rest)\n", a.readHint(p))
		}
		b.WriteString("\n")
	}
	b.WriteString(request)
	return b.String()
}

// inContext introduces the files in context in a request.
const inContext = "The files in context are below, as they are now: you need not read them again.\n\n"

// writeFenced writes text in a fenced block, with a fence longer than
// any run of backquotes in it.
func writeFenced(b *strings.Builder, text string) {
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	b.WriteString(fence + "\n" + text)
	if text != "" && !strings.HasSuffix(text, "\n") {
		b.WriteString("\n")
	}
	b.WriteString(fence + "\n")
}
