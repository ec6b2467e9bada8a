package main

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// tiers is the architecture drawn by top-level folder, lowest first: a
// package may import its own folder's packages and those of a lower tier,
// never one of a higher tier or another folder of its own tier (agent and
// review do not know each other). docs/ARCHITECTURE.md draws the same
// table.
var tiers = [][]string{
	{"internal"},        // leaves everything uses: output, safetext, proc, console, audit, config, replay
	{"edit"},            // diffs as pure text
	{"repo"},            // the working tree and git
	{"agent", "review"}, // the model loop; the decisions and their front ends
	{"app"},             // the orchestration of apply, chat, demo, bench and verify
	{"cmd", "scripts"},  // the command line, and tools of the checkout
}

const module = "github.com/pair-cli/pair"

// TestLayers checks every package's imports, its tests' included, against
// tiers, so that no import points up and the graph of folders has no
// cycle.
func TestLayers(t *testing.T) {
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports,TestImports,XTestImports", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	tierOf := map[string]int{}
	for i, folders := range tiers {
		for _, f := range folders {
			tierOf[f] = i
		}
	}
	folder := func(p string) string {
		rest, _ := strings.CutPrefix(p, module+"/")
		f, _, _ := strings.Cut(rest, "/")
		return f
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	seen := 0
	for dec.More() {
		var p struct {
			ImportPath                         string
			Imports, TestImports, XTestImports []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		seen++
		from := folder(p.ImportPath)
		ft, ok := tierOf[from]
		if !ok {
			t.Errorf("%s: the folder %s/ is in no tier; add it to tiers and to docs/ARCHITECTURE.md", p.ImportPath, from)
			continue
		}
		for _, imp := range append(append(p.Imports, p.TestImports...), p.XTestImports...) {
			if !strings.HasPrefix(imp, module+"/") || imp == p.ImportPath {
				continue
			}
			to := folder(imp)
			if to == from {
				continue
			}
			if tt, ok := tierOf[to]; !ok || tt >= ft {
				t.Errorf("%s imports %s: %s/ may import only folders of a lower tier", p.ImportPath, imp, from)
			}
		}
	}
	if seen < 10 {
		t.Fatalf("go list gave %d packages; want them all", seen)
	}
}
