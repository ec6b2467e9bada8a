package edit

import (
	"slices"
	"strings"
	"testing"
)

// markerFree reports whether lines can stand inside a block of the forms
// without being read as their markers or as fences.
func markerFree(lines []string) bool {
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if isSearch(l) || isDivider(l) || isReplace(l) || strings.HasPrefix(t, "```") ||
			strings.HasPrefix(l, "***") || strings.ContainsAny(l, "\r") {
			return false
		}
	}
	return true
}

// anyEdits runs text through every step a patch from a model goes
// through, with files read from content: none may panic, and what they
// return must be consistent.
func anyEdits(t *testing.T, text, content string) {
	e, err := ParseEdits(text)
	if err != nil {
		return
	}
	p, err := e.Patch(func(string) (string, error) { return content, nil })
	if err != nil {
		return
	}
	for _, fd := range p.Files {
		rs, errs := Place(content, fd)
		if len(errs) > 0 {
			continue
		}
		if _, err := Apply(content, rs); err != nil {
			t.Errorf("placed hunks do not apply: %v", err)
		}
	}
}

// FuzzSearchReplace checks that a SEARCH/REPLACE block becomes a hunk
// whose old side is the SEARCH lines and whose new side is the REPLACE
// lines, and that, placed exactly in a file holding the SEARCH lines once,
// it gives the file with them replaced. Any text, as a reply, must parse,
// complete and place without panicking.
func FuzzSearchReplace(f *testing.F) {
	f.Add("a\nb\n", "a\nc\n", "file.go", "")
	f.Add("", "new\n", "dir/new file.txt", "x.go\n<<<<<<< SEARCH\n=======\n>>>>>>> REPLACE\n")
	f.Add("\tx := 1\n", "\tx := 2\n\ty := 3\n", "`a b.go`", "```\n<<<<<<< SEARCH\nz\n=======\nw\n")
	f.Add("same\n", "same\n", "Makefile", "a.go\r\n<<<<<<< SEARCH\r\n\r\n=======\r\n>>>>>>> REPLACE")
	f.Fuzz(func(t *testing.T, search, replace, pathLn, text string) {
		anyEdits(t, text, search)
		p, ok := pathLine(pathLn, false)
		sl, rl := splitPatchLines(search), splitPatchLines(replace)
		if !ok || !markerFree(sl) || !markerFree(rl) || strings.Contains(pathLn, "\n") {
			return
		}
		body := func(lines []string) string {
			if len(lines) == 0 {
				return ""
			}
			return strings.Join(lines, "\n") + "\n"
		}
		reply := pathLn + "\n```\n<<<<<<< SEARCH\n" + body(sl) + "=======\n" + body(rl) + ">>>>>>> REPLACE\n```\n"
		e, err := ParseEdits(reply)
		if err != nil {
			t.Fatalf("%q: %v", reply, err)
		}
		if e.Form != FormSearchReplace || len(e.Files) != 1 || len(e.Files[0].Hunks) != 1 {
			t.Fatalf("%q: form %s, %d files", reply, e.Form, len(e.Files))
		}
		fd := e.Files[0]
		if fd.OldPath != p || fd.NewPath != p {
			t.Errorf("paths %q %q, want %q", fd.OldPath, fd.NewPath, p)
		}
		h := fd.Hunks[0]
		if pre := h.Pre(); !slices.Equal(pre, sl) && len(pre)+len(sl) > 0 {
			t.Errorf("old side %q, want %q", pre, sl)
		}
		if post := h.Post(); !slices.Equal(post, rl) && len(post)+len(rl) > 0 {
			t.Errorf("new side %q, want %q", post, rl)
		}
		if len(sl) == 0 {
			return
		}
		const before, after = "\x00before\n", "\x00after\n"
		old := before + body(sl) + after
		rs, errs := Place(old, fd)
		if len(errs) > 0 || slices.ContainsFunc(rs, func(r Resolved) bool { return r.Pass != PassExact }) {
			return // refused, or placed by a tolerant pass: not a plain replacement
		}
		got, err := Apply(old, rs)
		if err != nil {
			t.Fatal(err)
		}
		if want := before + body(rl) + after; got != want {
			t.Errorf("applied %q, want %q", got, want)
		}
	})
}

// FuzzV4A checks that an update hunk written in the V4A form, with an
// anchor and context taken from a file, changes exactly the lines it
// marks when it places exactly, that an Add File section holds the added
// lines, and that any text parses, completes and places without panics.
func FuzzV4A(f *testing.F) {
	f.Add("def f():\n    return 1\n\ndef g():\n    return 1\n", uint8(4), "    return 2", "*** Begin Patch\n*** Update File: a\n@@ def g():\n-    return 1\n*** End Patch\n")
	f.Add("a\nb\nc\n", uint8(2), "", "*** Add File: x\n+1\n\n+2\n*** End of File\n")
	f.Add("x\n", uint8(0), "y", "```\n*** Begin Patch\n*** Delete File: x\n```\n*** Update File: y\n*** Move to: z\n@@\n x\n*** End of File\n")
	f.Fuzz(func(t *testing.T, old string, at uint8, added, text string) {
		anyEdits(t, text, old)
		ol := splitPatchLines(old)
		if len(ol) == 0 || !markerFree(ol) || !markerFree([]string{added}) || strings.Contains(added, "\n") ||
			strings.Contains(old, "\r") || !strings.HasSuffix(old, "\n") || slices.Contains(ol, "") {
			return
		}
		k := int(at) % len(ol)
		from, to := max(0, k-3), min(len(ol), k+4)
		if windows(ol, ol[from:to]) > 1 {
			return // the hunk fits more than one place: nothing to check
		}
		var b strings.Builder
		b.WriteString("*** Begin Patch\n*** Update File: f.txt\n")
		if k >= 4 {
			b.WriteString("@@ " + strings.TrimSpace(ol[k-4]) + "\n")
		}
		for _, l := range ol[max(0, k-3):k] {
			b.WriteString(" " + l + "\n")
		}
		b.WriteString("-" + ol[k] + "\n+" + added + "\n")
		for _, l := range ol[k+1 : min(len(ol), k+4)] {
			b.WriteString(" " + l + "\n")
		}
		if k+4 >= len(ol) {
			b.WriteString("*** End of File\n")
		}
		b.WriteString("*** Add File: n.txt\n")
		for _, l := range ol {
			b.WriteString("+" + l + "\n")
		}
		b.WriteString("*** End Patch\n")
		e, err := ParseEdits(b.String())
		if err != nil {
			t.Fatalf("%q: %v", b.String(), err)
		}
		if e.Form != FormV4A || len(e.Files) != 2 {
			t.Fatalf("form %s, %d files", e.Form, len(e.Files))
		}
		if add := e.Files[1]; !add.New || len(add.Hunks) != 1 || !slices.Equal(add.Hunks[0].Post(), ol) {
			t.Errorf("added file %+v, want the lines %q", add, ol)
		}
		p, err := e.Patch(func(string) (string, error) { return old, nil })
		if err != nil {
			t.Fatal(err)
		}
		rs, errs := Place(old, p.Files[0])
		if len(errs) > 0 || slices.ContainsFunc(rs, func(r Resolved) bool { return r.Pass != PassExact }) {
			return
		}
		got, err := Apply(old, rs)
		if err != nil {
			t.Fatal(err)
		}
		nl := slices.Clone(ol)
		nl[k] = added
		if want := strings.Join(nl, "\n") + "\n"; got != want {
			t.Errorf("applied %q, want %q", got, want)
		}
	})
}

// windows counts the places where w occurs in lines.
func windows(lines, w []string) int {
	n := 0
	for i := 0; i+len(w) <= len(lines); i++ {
		if slices.Equal(lines[i:i+len(w)], w) {
			n++
		}
	}
	return n
}
