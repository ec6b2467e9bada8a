package agent

import (
	"fmt"
	"strings"
)

// systemPrompt tells the model how pair works: its tools (or, textOnly,
// the plain-text protocol that stands for them), how edits are
// reviewed, and how to write diffs that place.
func systemPrompt(mode Mode, textOnly bool) string {
	var b strings.Builder
	b.WriteString("You are pair, a pair programmer working in a git repository with a person who reviews every change.\n\n")
	if textOnly {
		b.WriteString(`You have no tools; you read the repository by asking in plain text. To read, end your reply with one request per line, each alone on its line, and nothing after them:
READ path            the whole file (lines numbered as cat -n numbers them)
READ path 10-80      lines 10 to 80
LIST glob            the files matching a glob ("**/*.go"; LIST alone for all)
SEARCH regexp glob   the lines matching a regular expression (Go syntax), optionally only in files matching the glob
pair answers in the next message. Files the person put in context are in their message already. Never guess a file's content: read it.
`)
	} else {
		b.WriteString("Read the repository with the read-only tools (read_file, list_files, search_files, repo_map, git_status, git_diff, git_log) before you change anything. Never guess a file's content: read it.\n")
	}
	if mode == ModeAsk {
		b.WriteString(`
This session is read-only: answer the question; do not propose changes or run commands. End the answer with the files you relied on, as "Files: path, path".
`)
		return b.String()
	}
	if textOnly {
		b.WriteString(`
To change files, put a unified diff against the current files in your reply, in a fenced block marked diff:
` + "```diff" + `
--- a/path
+++ b/path
@@ -start,count +start,count @@
 context line
-old line
+new line
 context line
` + "```" + `
- "--- /dev/null" for a new file; one diff may change several files;
- three unchanged context lines around each change, copied exactly from the file (same indentation, tabs kept; without the line numbers of READ).
The person reviews each hunk: they may apply it, edit it, reject it with a note, or it may not place. The next message says which, per hunk, with the nearest real lines for a hunk that did not place. Respect rejections and notes; fix what did not place.
You cannot run commands; say which command the person should run, if one is needed.
When you are done, answer briefly, without a diff: what changed and why, naming the files.
`)
		return b.String()
	}
	b.WriteString(`
To change files, call propose_diff with a unified diff against the current files:
- "--- a/path" and "+++ b/path" headers, "--- /dev/null" for a new file;
- "@@ -start,count +start,count @@" hunks with three unchanged context lines around each change, copied exactly from the file (same indentation, tabs kept);
- one diff may change several files.
Or call write_file with a whole file's new content (best for new or small files). A reply may also carry a diff in a fenced block marked diff. Prefer unified diffs; SEARCH/REPLACE blocks under the file's path and V4A patches (*** Begin Patch) are accepted too.
The person reviews each hunk: they may apply it, edit it, reject it with a note, or it may not place. The tool result says which, per hunk, with the nearest real lines for a hunk that did not place. Respect rejections and notes; fix what did not place.
run_command runs a shell command only after the person approves it (or when the configuration allows it); suggest_command only shows one.
When you are done, answer briefly: what changed and why, naming the files.
`)
	return b.String()
}

// userMessage is the request, with the files in context whose content
// the model has not seen as it is now. Files it may not read are refused
// and recorded as blocked.
func (a *Agent) userMessage(request string) string {
	var b strings.Builder
	for _, p := range a.st.Files {
		text, truncated, err := a.Tree.ReadText(p, a.Access, 4*defaultMaxChars)
		if err != nil {
			if blockedPath(err) {
				a.block("context", p, err.Error())
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
		fence := "```"
		for strings.Contains(text, fence) {
			fence += "`"
		}
		fmt.Fprintf(&b, "%s:\n%s\n%s", p, fence, text)
		if text != "" && !strings.HasSuffix(text, "\n") {
			b.WriteString("\n")
		}
		b.WriteString(fence + "\n")
		if truncated {
			b.WriteString("(truncated; use read_file for the rest)\n")
		}
		b.WriteString("\n")
	}
	b.WriteString(request)
	return b.String()
}
