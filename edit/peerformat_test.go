package edit

import (
	"testing"
)

// TestPeerFormatCases: the format cases of Codex's apply_patch scenarios
// and Aider's SEARCH/REPLACE tests that are about reading the edit, each
// applied to its file.
func TestPeerFormatCases(t *testing.T) {
	tests := []struct {
		name, text  string
		files       map[string]string
		path, want  string
		wantDeleted string
	}{{
		name:  "codex: whitespace before a file marker",
		text:  "*** Begin Patch\n  *** Update File: foo.txt\n@@\n-old\n+new\n*** End Patch\n",
		files: map[string]string{"foo.txt": "old\n"}, path: "foo.txt", want: "new\n",
	}, {
		name:  "codex: whitespace around the Begin and End markers",
		text:  " *** Begin Patch\n*** Update File: file.txt\n@@\n-one\n+two\n*** End Patch \n",
		files: map[string]string{"file.txt": "one\n"}, path: "file.txt", want: "two\n",
	}, {
		name:  "codex: trailing space on Begin, leading space on the last End",
		text:  "*** Begin Patch \n*** Update File: file.txt\n@@\n-one\n+two\n *** End Patch\n",
		files: map[string]string{"file.txt": "one\n"}, path: "file.txt", want: "two\n",
	}, {
		name:  "whitespace around an @@ line",
		text:  "*** Begin Patch\n*** Update File: f.py\n  @@ def g():  \n-    return 1\n+    return 2\n*** End Patch\n",
		files: map[string]string{"f.py": "def f():\n    return 1\n\ndef g():\n    return 1\n"}, path: "f.py",
		want: "def f():\n    return 1\n\ndef g():\n    return 2\n",
	}, {
		name:  "whitespace before Add and Delete markers, in a fence",
		text:  "```\n *** Begin Patch\n  *** Add File: n.txt\n+n\n  *** Delete File: gone.txt\n *** End Patch\n```\n",
		files: map[string]string{"gone.txt": "x\n"}, path: "n.txt", want: "n\n", wantDeleted: "gone.txt",
	}, {
		name:  "codex: a pure-addition chunk with no context appends at the end of the file",
		text:  "*** Begin Patch\n*** Update File: input.txt\n@@\n+added line 1\n+added line 2\n*** End Patch\n",
		files: map[string]string{"input.txt": "line1\nline2\n"}, path: "input.txt", want: "line1\nline2\nadded line 1\nadded line 2\n",
	}, {
		name:  "codex: a pure-addition chunk, the file's last line repeated above",
		text:  "*** Begin Patch\n*** Update File: input.txt\n@@\n+added\n*** End Patch\n",
		files: map[string]string{"input.txt": "}\nx\n}\n"}, path: "input.txt", want: "}\nx\n}\nadded\n",
	}, {
		name:  "aider: a SEARCH block missing its leading whitespace",
		text:  "foo.txt\n```\n<<<<<<< SEARCH\nline1\nline2\n=======\nnew_line1\nnew_line2\n>>>>>>> REPLACE\n```\n",
		files: map[string]string{"foo.txt": "    line1\n    line2\n    line3\n"}, path: "foo.txt", want: "    new_line1\n    new_line2\n    line3\n",
	}, {
		name:  "aider: a SEARCH block missing some of its leading whitespace",
		text:  "foo.txt\n```\n<<<<<<< SEARCH\n line1\n line2\n=======\n new_line1\n     new_line2\n>>>>>>> REPLACE\n```\n",
		files: map[string]string{"foo.txt": "    line1\n    line2\n    line3\n"}, path: "foo.txt", want: "    new_line1\n        new_line2\n    line3\n",
	}, {
		name:  "aider: a SEARCH block missing its leading whitespace, including on a blank line",
		text:  "foo.txt\n```\n<<<<<<< SEARCH\n\n  line1\n  line2\n=======\n  new_line1\n  new_line2\n>>>>>>> REPLACE\n```\n",
		files: map[string]string{"foo.txt": "    line1\n    line2\n    line3\n"}, path: "foo.txt", want: "    new_line1\n    new_line2\n    line3\n",
	}, {
		name:  "aider: deepseek-coder's path in a fence of its own",
		text:  "Here's the change:\n\n ```python\nfoo.txt\n```\n```python\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n```\n\nHope you like it!\n",
		files: map[string]string{"foo.txt": "one\n"}, path: "foo.txt", want: "two\n",
	}, {
		name:  "aider: the path in the fence's info string",
		text:  "```python path/x.py\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n```\n",
		files: map[string]string{"path/x.py": "zero\none\n"}, path: "path/x.py", want: "zero\ntwo\n",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := ParseEdits(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if len(e.Ignored) > 0 {
				t.Errorf("ignored %v, want none", e.Ignored)
			}
			p, err := e.Patch(mapReader(tt.files))
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, fd := range p.Files {
				switch {
				case fd.Path() == tt.path && !fd.Deleted:
					found = true
					if got := applyAll(t, tt.files[fd.Source()], fd); got != tt.want {
						t.Errorf("%s: got %q, want %q", tt.path, got, tt.want)
					}
				case fd.Deleted && fd.OldPath == tt.wantDeleted:
				default:
					t.Errorf("unexpected file section %q -> %q", fd.OldPath, fd.NewPath)
				}
			}
			if !found {
				t.Errorf("no section for %s:\n%s", tt.path, formShape(p.Files))
			}
		})
	}
}

// TestV4APaddedMarkerInHunk: a line with a space before "***" inside an
// update hunk is a context line, as Codex reads it, unless it is the
// patch's last line "*** End Patch".
func TestV4APaddedMarkerInHunk(t *testing.T) {
	e, err := ParseEdits("*** Begin Patch\n*** Update File: doc.md\n@@\n *** Update File: x\n-a\n+b\n*** End Patch\n")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := formShape(e.Files), "file \"doc.md\" -> \"doc.md\"\n@@\n *** Update File: x\n-a\n+b\n"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// A unified diff whose context line is " *** Begin Patch" stays unified.
	e, err = ParseEdits("--- a/doc.md\n+++ b/doc.md\n@@ -1,2 +1,2 @@\n x\n *** Begin Patch\n-a\n+b\n")
	if err != nil {
		t.Fatal(err)
	}
	if e.Form != FormUnified {
		t.Errorf("form %q, want unified", e.Form)
	}
}
