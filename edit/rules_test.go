package edit_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// ruleIDs returns the ids of edit.Rules, sorted.
func ruleIDs() []string {
	var ids []string
	for _, r := range edit.Rules() {
		ids = append(ids, string(r.ID))
	}
	slices.Sort(ids)
	return ids
}

// docRules returns the rule ids listed in doc.go, under "The rules, by
// stage": the words after each stage's name.
func docRules(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	_, list, ok := strings.Cut(string(b), "The rules, by")
	if ok {
		_, list, ok = strings.Cut(list, ":\n//\n")
	}
	if !ok {
		t.Fatal(`doc.go: no list after "The rules, by stage:"`)
	}
	list, _, _ = strings.Cut(list, "//\n")
	list = strings.ReplaceAll(list, "//", "")
	var ids []string
	for _, item := range strings.Split(list, "- ")[1:] {
		_, names, _ := strings.Cut(item, ":")
		for _, n := range strings.Split(names, ",") {
			ids = append(ids, strings.TrimSpace(n))
		}
	}
	slices.Sort(ids)
	return ids
}

// archRules returns the rule ids in the tables of the placement section
// of docs/ARCHITECTURE.md: the first cell of each row.
func archRules(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n### The rules\n")
	if !ok {
		t.Fatal("docs/ARCHITECTURE.md: no section \"The rules\"")
	}
	sec, _, _ = strings.Cut(sec, "\n### ")
	var ids []string
	for _, m := range regexp.MustCompile("(?m)^\\| `(\\w+)` \\|").FindAllStringSubmatch(sec, -1) {
		ids = append(ids, m[1])
	}
	slices.Sort(ids)
	return ids
}

// TestRulesDocumented checks that doc.go and docs/ARCHITECTURE.md list
// exactly the rules of the code, and the architecture's tables each
// rule's statement as the code has it.
func TestRulesDocumented(t *testing.T) {
	code := ruleIDs()
	for name, doc := range map[string][]string{"doc.go": docRules(t), "docs/ARCHITECTURE.md": archRules(t)} {
		for _, id := range code {
			if !slices.Contains(doc, id) {
				t.Errorf("%s: rule %s of the code is missing", name, id)
			}
		}
		for _, id := range doc {
			if !slices.Contains(code, id) {
				t.Errorf("%s: rule %s is no rule of the code", name, id)
			}
		}
	}
	b, _ := os.ReadFile("../docs/ARCHITECTURE.md")
	for _, r := range edit.Rules() {
		if !strings.Contains(string(b), "| `"+string(r.ID)+"` |") || !strings.Contains(string(b), strings.ReplaceAll(r.Statement, "|", `\|`)) {
			t.Errorf("docs/ARCHITECTURE.md: rule %s: want its statement %q", r.ID, r.Statement)
		}
	}
}

// TestRuleTable checks the table itself: ids unique, each with a
// statement and a verdict, and each rule of its own file (all but the
// cases of the indentation and lost-line tables) beside its test.
func TestRuleTable(t *testing.T) {
	seen := map[edit.RuleID]bool{}
	for _, r := range edit.Rules() {
		if seen[r.ID] {
			t.Errorf("rule %s listed twice", r.ID)
		}
		seen[r.ID] = true
		if r.Statement == "" || len(r.Verdicts) == 0 {
			t.Errorf("rule %s: want a statement and a verdict", r.ID)
		}
		if got, ok := edit.RuleByID(r.ID); !ok || got.ID != r.ID {
			t.Errorf("RuleByID(%s) = %v, %v", r.ID, got.ID, ok)
		}
		file := "rule_" + strings.ToLower(string(r.ID)) + ".go"
		if _, err := os.Stat(file); err != nil {
			if r.Stage == edit.StageReading {
				continue // a case of indentCases or orderCases
			}
			t.Errorf("rule %s: no file %s", r.ID, file)
			continue
		}
		if _, err := os.Stat(strings.TrimSuffix(file, ".go") + "_test.go"); err != nil {
			t.Errorf("rule %s: no test beside %s", r.ID, file)
		}
	}
	files, _ := os.ReadDir(".")
	for _, f := range files {
		id, ok := strings.CutPrefix(f.Name(), "rule_")
		if !ok || strings.HasSuffix(id, "_test.go") {
			continue
		}
		id = strings.TrimSuffix(id, ".go")
		if !slices.ContainsFunc(edit.Rules(), func(r edit.Rule) bool { return strings.ToLower(string(r.ID)) == id }) {
			t.Errorf("%s: no rule of that id", f.Name())
		}
	}
}
