package edit_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
	"github.com/pair-cli/pair/edit/edittest"
)

// pyModule is a Python test module indented by four spaces, with a class
// whose method body is eight spaces in.
var pyModule = text(
	"import pytest",
	"",
	"",
	"class TestCli:",
	"    def test_run(self):",
	"        result = runner.invoke(cli, [\"run\"])",
	"        assert result.exit_code == 0",
	"",
	"",
	"def test_version():",
	"    result = runner.invoke(cli, [\"--version\"])",
	"    assert result.output",
)

// newTest is a top-level test function the hunks below add after the
// class, as the file means it: column 0, a four-space body.
var newTest = []string{
	"",
	"",
	"def test_help():",
	"    result = runner.invoke(cli, [\"--help\"])",
	"    if result.output:",
	"        assert \"Usage\" in result.output",
}

// pyPatch returns a hunk without line numbers: the context lines ctx,
// then newTest added.
func pyPatch(ctx ...string) string {
	var b strings.Builder
	b.WriteString("--- a/test_cli.py\n+++ b/test_cli.py\n@@ ... @@\n")
	for _, l := range ctx {
		b.WriteString(" " + l + "\n")
	}
	for _, l := range newTest {
		b.WriteString("+" + l + "\n")
	}
	return b.String()
}

// withNewTest is pyModule with newTest after the class.
var withNewTest = strings.Replace(pyModule, "== 0\n", "== 0\n"+strings.Join(newTest, "\n")+"\n", 1)

// TestReindentInconsistentWitnesses places hunks with one context line
// whose indentation the patch got wrong, the others as in the file: the
// added lines stay as written, where once a mapping learned from the one
// damaged line moved them (and broke the module).
func TestReindentInconsistentWitnesses(t *testing.T) {
	tests := []struct {
		name string
		ctx  []string
	}{
		{
			// Rescaling two spaces to four and then removing eight
			// "explained" every line: a fit of two points, not evidence.
			name: "method line lost two spaces",
			ctx: []string{
				"  def test_run(self):",
				"        result = runner.invoke(cli, [\"run\"])",
				"        assert result.exit_code == 0",
			},
		},
		{
			name: "body line lost two spaces",
			ctx: []string{
				"    def test_run(self):",
				"      result = runner.invoke(cli, [\"run\"])",
				"        assert result.exit_code == 0",
			},
		},
		{
			name: "body line gained two spaces",
			ctx: []string{
				"          result = runner.invoke(cli, [\"run\"])",
				"        assert result.exit_code == 0",
			},
		},
		{
			// Every context line agrees on two spaces less, but the added
			// lines are in the file's four-space style: moving them by two
			// would put them at indentations the module never uses.
			name: "context lines all two spaces short",
			ctx: []string{
				"  def test_run(self):",
				"      result = runner.invoke(cli, [\"run\"])",
				"      assert result.exit_code == 0",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fd := onlyFile(t, pyPatch(tt.ctx...))
			rs, errs := edit.Place(pyModule, fd)
			if len(errs) > 0 {
				t.Fatalf("Place: got errors %v, want none", errs)
			}
			if got := mustApply(t, pyModule, rs); got != withNewTest {
				t.Errorf("got\n%s\nwant\n%s\nresolved:\n%s", got, withNewTest, describe(rs))
			}
		})
	}
}

// TestReindentAgreeingWitnesses is the control: a hunk written four spaces
// short throughout, added lines included, is moved as a whole.
func TestReindentAgreeingWitnesses(t *testing.T) {
	patch := text(
		"--- a/test_cli.py",
		"+++ b/test_cli.py",
		"@@ ... @@",
		" def test_run(self):",
		"     result = runner.invoke(cli, [\"run\"])",
		"+    assert not result.exception",
		"     assert result.exit_code == 0",
	)
	rs := mustPlace(t, pyModule, patch)
	want := strings.Replace(pyModule, "        assert result.exit_code", "        assert not result.exception\n        assert result.exit_code", 1)
	if got := mustApply(t, pyModule, rs); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestReindentOutdentedSpacesInTabs: a hunk written without the four
// spaces that a Go file of tabs indents its doc comment's lines by (every
// line of it, added ones too) is moved back as a whole, where once the
// added lines were kept at column 0 because four spaces are not the
// file's style: the lines the hunk covers use them.
func TestReindentOutdentedSpacesInTabs(t *testing.T) {
	old := text(
		"/*",
		"The commands are:",
		"",
		"  - wait [command]",
		"    Wait for background commands to exit.",
		"    If an argument is given, it waits for just that command.",
		"",
		"    Its output is shown.",
		"*/",
		"package doc",
		"",
		"func f() {",
		"\tif x {",
		"\t\ty()",
		"\t}",
		"\tfor range 3 {",
		"\t\tz()",
		"\t}",
		"}",
	)
	patch := text(
		"--- a/doc.go",
		"+++ b/doc.go",
		"@@ -5,4 +5,5 @@",
		"Wait for background commands to exit.",
		"-If an argument is given, it waits for just that command.",
		"+If an argument is given, it waits for just that command,",
		"+which must have been named.",
		"",
		"Its output is shown.",
	)
	patch = strings.ReplaceAll(patch, "\nWait", "\n Wait")
	patch = strings.ReplaceAll(patch, "\n\nIts", "\n \n Its")
	rs := mustPlace(t, old, patch)
	want := strings.Replace(old, "just that command.\n", "just that command,\n    which must have been named.\n", 1)
	wantApplied(t, old, rs, want)
}

// TestReindentOffStyleWitnesses places a hunk whose context lines
// disagree (one as in the file, others two spaces short, at an
// indentation the file never uses) and whose added lines are in the
// file's four-space style: they are kept as written, where once the hunk
// was refused as not saying how to indent them.
func TestReindentOffStyleWitnesses(t *testing.T) {
	old := text("class Handler:", "    def write(self):", "        return self.out", "",
		"    def convert(self, value):", "        \"\"\"Convert value.\"\"\"", "        if type(value) is str:", "            return value")
	patch := text("--- a/h.py", "+++ b/h.py", "@@ ... @@", "       return self.out", " ",
		"+    def validate(self, status):", "+        if len(status) < 4:", "+            raise AssertionError(status)", "+",
		"     def convert(self, value):", "       \"\"\"Convert value.\"\"\"", "       if type(value) is str:")
	rs := mustPlace(t, old, patch)
	want := strings.Replace(old, "\n\n    def convert", "\n\n    def validate(self, status):\n        if len(status) < 4:\n            raise AssertionError(status)\n\n    def convert", 1)
	wantApplied(t, old, rs, want)
}

// TestReindentDeletedAtColumnZero re-indents the added lines of a hunk
// written with spaces against a file indented with tabs, where the only
// deleted line is at column 0: a line with no indentation says nothing
// about the patch's, and the context lines, which all agree, do.
func TestReindentDeletedAtColumnZero(t *testing.T) {
	old := text("package viper", "", "import (", "\t\"os\"", ")", "", "// Search all paths.", "func (v *Viper) findConfigFile() (string, error) {",
		"\tv.logger.Info(\"searching\")", "", "\tfor _, cp := range v.configPaths {", "\t\tuse(cp)", "\t}", "\treturn \"\", nil", "}")
	patch := text("--- a/file.go", "+++ b/file.go", "@@ -6,7 +6,11 @@", " ", " // Search all paths.",
		"-func (v *Viper) findConfigFile() (string, error) {", "+func (v *Viper) findConfigFileOld() (string, error) {",
		"+    if v.finder != nil {", "+        return v.find()", "+    }", "+",
		"     v.logger.Info(\"searching\")", " ", "     for _, cp := range v.configPaths {", "         use(cp)")
	rs := mustPlace(t, old, patch)
	want := strings.Replace(old, "func (v *Viper) findConfigFile() (string, error) {\n",
		"func (v *Viper) findConfigFileOld() (string, error) {\n\tif v.finder != nil {\n\t\treturn v.find()\n\t}\n\n", 1)
	wantApplied(t, old, rs, want)
}

// TestKeepIndentDeletedAtColumnZero keeps the added lines of a hunk whose
// deleted lines are at column 0, like them, and whose one indented context
// line is off by two spaces: one context line is no strong witness, and
// the deleted lines show no change.
func TestKeepIndentDeletedAtColumnZero(t *testing.T) {
	old := text("var isDataView = tagTester('DataView');", "", "// In IE 10 - Edge 13, we need a different heuristic", "// to determine whether an object is a `DataView`.",
		"function ie10IsDataView(obj) {", "  return obj != null && isFunction(obj.getInt8);", "}", "",
		"var isDataView$1 = (hasStringTagBug ? ie10IsDataView : isDataView);", "", "// Is a given value an array?", "var isArray = nativeIsArray;")
	patch := text("--- a/u.js", "+++ b/u.js", "@@ -2,10 +2,11 @@", " ", " // In IE 10 - Edge 13, we need a different heuristic", " // to determine whether an object is a `DataView`.",
		"-function ie10IsDataView(obj) {", "+// Also when the native `DataView` is overridden.", "+function alternateIsDataView(obj) {",
		"     return obj != null && isFunction(obj.getInt8);", " }", " ",
		"-var isDataView$1 = (hasStringTagBug ? ie10IsDataView : isDataView);", "+var isDataView$1 = (hasDataViewBug ? alternateIsDataView : isDataView);",
		" ", " // Is a given value an array?")
	rs := mustPlace(t, old, patch)
	want := strings.Replace(strings.Replace(old, "function ie10IsDataView(obj) {", "// Also when the native `DataView` is overridden.\nfunction alternateIsDataView(obj) {", 1),
		"(hasStringTagBug ? ie10IsDataView", "(hasDataViewBug ? alternateIsDataView", 1)
	wantApplied(t, old, rs, want)
}

// TestIndentGuessUncertain offers, as uncertain only, a hunk that shows no
// indentation of its own and adds lines indented with spaces to a file of
// tabs, where the patch's other hunks both convert spaces to the file's
// tabs and match lines indented with spaces letter for letter (a usage
// text in a raw string): which the added lines want is a guess. So is
// whether the usage text's added line, whose hunk shows only lines
// indented with spaces as in the file, was written with tabs.
func TestIndentGuessUncertain(t *testing.T) {
	old := text("package p", "", "func a() {", "\tx := 1", "\ty := 2", "\tz := 3", "\treturn", "}", "",
		"const usage = `", "Usage:", "    p [flags]", "    p help", "`", "",
		"func (e errA) Error() string { return \"a\" }", "func (e errA) Usage() string { return usage }", "func (e errB) Usage() string { return usage }")
	patch := text("--- a/p.go", "+++ b/p.go",
		"@@ -3,5 +3,6 @@", " func a() {", "     x := 1", "     y := 2", "+    w := 4", "     z := 3", "     return",
		"@@ -11,3 +12,4 @@", " Usage:", "     p [flags]", "     p help", "+    p version",
		"@@ -16,3 +18,5 @@", " func (e errA) Error() string { return \"a\" }", "+func (e errC) Error() string {", "+    return \"c\"", "+}",
		" func (e errA) Usage() string { return usage }", " func (e errB) Usage() string { return usage }")
	rs, errs := edit.Place(old, onlyFile(t, patch))
	if len(errs) != 2 || errs[0].Hunk != 1 || errs[1].Hunk != 2 {
		t.Fatalf("errors %v, want hunks 2 and 3 refused with uncertain readings\n%s", errs, describe(rs))
	}
	for _, e := range errs {
		if !strings.Contains(e.Error(), "is a guess") || e.Interpreted == nil {
			t.Fatalf("error %v, want a guess with an uncertain reading", e)
		}
	}
	// The usage text's line reads the same whether or not the patch
	// wrote tabs as spaces: it is offered as the string's other lines
	// are, as written.
	if got := edittest.Show(errs[0].Interpreted.Lines); !strings.Contains(got, "+    p version") {
		t.Errorf("the uncertain reading of the raw string's line converts it:\n%s", got)
	}
	if got := edittest.Show(errs[1].Interpreted.Lines); !strings.Contains(got, "+\treturn \"c\"") {
		t.Errorf("the uncertain reading does not convert the added line:\n%s", got)
	}
}

// TestReindentTwoContextWitnesses re-indents the added lines of a hunk
// whose deleted lines are comments at column 0 and whose two context
// lines are indented with four spaces where the file has tabs: two lines
// are too few to trust alone, but they agree, and the added lines as
// written, with spaces, are indented as the file never indents
// (hashicorp/go-multierror on a stand-in: a wrong result before). Not
// where another hunk keeps added lines with spaces (fsnotify's
// windows.go: a wrong result on the first try of this rule).
func TestReindentTwoContextWitnesses(t *testing.T) {
	old := text("package multierror", "", "func (e *Error) GoString() string {", "\treturn fmt.Sprintf(\"*%#v\", *e)", "}", "",
		"// WrappedErrors returns the errors this Error wraps.", "func (e *Error) WrappedErrors() []error {", "\treturn e.Errors", "}")
	patch := text("--- a/multierror.go", "+++ b/multierror.go", "@@ -4,6 +4,9 @@", "     return fmt.Sprintf(\"*%#v\", *e)", " }", " ",
		"-// WrappedErrors returns the errors this Error wraps.", "+// WrappedErrors returns the errors this Error wraps, nil for a nil Error.",
		" func (e *Error) WrappedErrors() []error {", "+    if e == nil {", "+        return nil", "+    }", "     return e.Errors", " }")
	rs := mustPlace(t, old, patch)
	want := strings.Replace(strings.Replace(old, "wraps.\n", "wraps, nil for a nil Error.\n", 1),
		"[]error {\n", "[]error {\n\tif e == nil {\n\t\treturn nil\n\t}\n", 1)
	wantApplied(t, old, rs, want)
	t.Run("another hunk keeps spaces", func(t *testing.T) {
		// A hunk that shows no indentation adds lines with spaces: it
		// keeps them as written, and the first may not convert its own,
		// or the file would end in two styles. It is refused as before.
		two := patch + text("@@ -10,1 +13,5 @@", " }", "+", "+func (e *Error) Len() int {", "+    return len(e.Errors)", "+}")
		refused(t, old, two, "indentUnknown")
	})
}

// TestKeepIndentBlockComment keeps the added lines of a hunk whose deleted
// line is at column 0 and whose context lines of a doc comment the patch
// indents by two spaces more: the added comment lines, one space in like
// every "*" of a block comment, are lines the file could hold as written
// (mocha's utils.js on a stand-in).
func TestKeepIndentBlockComment(t *testing.T) {
	old := text("exports.constants = Object.freeze({", "  MOCHA_ID_PROP_NAME", "});", "", "/**", " * Creates a new unique identifier",
		" * @returns {string} Unique identifier", " */", "exports.uniqueID = () => nanoid();", "", "exports.assignNewMochaID = obj => {",
		"  const id = exports.uniqueID();", "  return obj;", "};")
	patch := text("--- a/lib/utils.js", "+++ b/lib/utils.js", "@@ -2,11 +2,13 @@", "   MOCHA_ID_PROP_NAME", " });", " ", " /**",
		"    * Creates a new unique identifier", "+ * Does not create cryptographically safe ids.", "    * @returns {string} Unique identifier", "  */",
		"-exports.uniqueID = () => nanoid();", "+exports.uniqueID = () => {", "+  return String(Math.random());", "+};", " ",
		" exports.assignNewMochaID = obj => {", "     const id = exports.uniqueID();")
	rs := mustPlace(t, old, patch)
	want := strings.Replace(strings.Replace(old, " * Creates a new unique identifier\n", " * Creates a new unique identifier\n * Does not create cryptographically safe ids.\n", 1),
		"exports.uniqueID = () => nanoid();\n", "exports.uniqueID = () => {\n  return String(Math.random());\n};\n", 1)
	wantApplied(t, old, rs, want)
}

// TestIndentRawStringWitness converts the added line of a hunk whose
// indented context lines are a raw string's line, indented with spaces in
// the file as in the patch, and a line of code the patch indents with
// spaces where the file has a tab: in a file of tabs, a line indented
// with spaces is as the patch has it whether or not the patch wrote tabs
// as spaces, so it witnesses nothing, and the code line's tab decides.
// The raw string's line once outvoted it, or tied with it, and the added
// line kept its spaces (kr/pretty's formatter_test.go on a stand-in, a
// wrong result).
func TestIndentRawStringWitness(t *testing.T) {
	old := text("package p", "", "var gosyntax = []test{", "\t{", "\t\tin: `", "    },", "}`,", "\t},", "}", "", "func f() {}")
	patch := text("--- a/p_test.go", "+++ b/p_test.go", "@@ -6,4 +6,5 @@", "     },", " }`,", "     },", "+    {nil, \"nil\"},", " }")
	rs := mustPlace(t, old, patch)
	wantApplied(t, old, rs, strings.Replace(old, "\t},\n}\n", "\t},\n\t{nil, \"nil\"},\n}\n", 1))
}

// TestIndentWitnessesTie refuses a hunk whose indented context lines
// disagree one to one in a file indented by four spaces: one as in the
// file, one at two spaces. The identity and doubling each explain one;
// the tie once chose the identity, and the added line kept two spaces.
func TestIndentWitnessesTie(t *testing.T) {
	old := text("function f() {", "    const x = 1;", "    let y = 2;", "    return x + y;", "}")
	patch := text("--- a/f.js", "+++ b/f.js", "@@ -2,2 +2,3 @@", "     const x = 1;", "   let y = 2;", "+  let z = 3;")
	refused(t, old, patch, "indentUnknown")
}

// TestIndentIdentityMajority keeps the added lines of a Markdown hunk
// whose context lines mostly match the file as written, while two
// continuation lines lost their two spaces: the identity explains more
// witnesses than adding two spaces does, so it is no tie (fastify's
// Ecosystem.md in the stress corpus, refused by the first tie rule).
func TestIndentIdentityMajority(t *testing.T) {
	old := text("- [`fastify-grant`](https://example.com/grant) Authentication for", "  Providers.",
		"- [`fastify-guard`](https://example.com/guard) A Fastify plugin", "  that protects endpoints by checking roles.",
		"- [`fastify-hashids`](https://example.com/hashids) A Fastify", "  plugin to encode/decode IDs.",
		"- [`fastify-hasura`](https://example.com/hasura) A Fastify", "  plugin for Hasura.")
	patch := text("--- a/Ecosystem.md", "+++ b/Ecosystem.md", "@@ -2,6 +2,8 @@", "   Providers.",
		" - [`fastify-guard`](https://example.com/guard) A Fastify plugin", " that protects endpoints by checking roles.",
		"+- [`fastify-hana`](https://example.com/hana) connects your", "+  application to SAP HANA.",
		" - [`fastify-hashids`](https://example.com/hashids) A Fastify", " plugin to encode/decode IDs.",
		" - [`fastify-hasura`](https://example.com/hasura) A Fastify")
	rs := mustPlace(t, old, patch)
	want := strings.Replace(old, "checking roles.\n", "checking roles.\n- [`fastify-hana`](https://example.com/hana) connects your\n  application to SAP HANA.\n", 1)
	wantApplied(t, old, rs, want)
}

// TestGoFileIndentsWithTabs converts the added lines of a Go hunk whose
// context the patch wrote with four spaces for tabs, in a file that has
// more lines of a raw string indented with spaces than lines of code
// indented with tabs: counted, the file looked indented by four spaces,
// and the added lines were kept "as the file indents" (FuzzIndentGo). A
// Go file with any line indented by a tab is a file of tabs.
func TestGoFileIndentsWithTabs(t *testing.T) {
	old := text("package p", "", "func F(x int) int {", "\tif x > 0 {", "\t\treturn x + 0", "\t}", "\treturn x", "}", "",
		"var usage = `", "Usage:", "    p [flags]", "    p help", "    p more", "    p most", "    p all", "    p none", "`")
	patch := text("--- a/p.go", "+++ b/p.go", "@@ -5,4 +5,6 @@", "         return x + 0", "     }", "     return x",
		"+    x++", "+    fmt.Println(x)", " }")
	rs := mustPlace(t, old, patch)
	wantApplied(t, old, rs, strings.Replace(old, "\treturn x\n}", "\treturn x\n\tx++\n\tfmt.Println(x)\n}", 1))
	t.Run("not Go", func(t *testing.T) {
		patch := strings.ReplaceAll(patch, "p.go", "p.txt")
		rs, errs := edit.Place(old, onlyFile(t, patch))
		if len(errs) == 0 && strings.Contains(mustApply(t, old, rs), "\tx++") {
			t.Errorf("a file that is not Go, counted as indented by spaces, took tabs:\n%s", describe(rs))
		}
	})
}

// TestIndentKeepsOrder keeps the added lines of hunks whose damaged
// context lines only a mapping that puts lines out of their order would
// explain. A context line at four spaces in a file of two, beside lines
// at column 0, was read as a rescaling of four to two, which maps the
// added lines' two and four spaces both to two; and three lines off by
// two either way were read as a rescaling of eight to four plus two
// spaces, which puts four spaces deeper than eight. Such mappings are no
// rivals to the identity, which the other witnesses show (pino's and
// forge's tests on a stand-in, refused before).
func TestIndentKeepsOrder(t *testing.T) {
	t.Run("a rescaling that merges two levels", func(t *testing.T) {
		old := text("test('a', async () => {", "  check(equal, result)", "})", "", "// b", "test('b', async () => {", "  const x = 1", "})")
		patch := text("--- a/t.js", "+++ b/t.js", "@@ ... @@", "     check(equal, result)", " })", " ",
			"+test('c', async () => {", "+  if (x) {", "+    y()", "+  }", "+})", "+", " // b", " test('b', async () => {", " const x = 1")
		rs := mustPlace(t, old, patch)
		wantApplied(t, old, rs, strings.Replace(old, "\n// b", "\ntest('c', async () => {\n  if (x) {\n    y()\n  }\n})\n\n// b", 1))
	})
	t.Run("no rival left, most witnesses as in the file", func(t *testing.T) {
		old := text("test('a', () => {", "  if (x) {", "    y()", "  }", "})", "", "test('b', () => {", "})")
		patch := text("--- a/t.js", "+++ b/t.js", "@@ ... @@", "   if (x) {", "     y()", "     }", " })", " ",
			"+test('c', () => {", "+  z()", "+})", "+", " test('b', () => {")
		rs := mustPlace(t, old, patch)
		wantApplied(t, old, rs, strings.Replace(old, "\ntest('b'", "\ntest('c', () => {\n  z()\n})\n\ntest('b'", 1))
	})
	t.Run("a rescaling and a prefix that turn levels over", func(t *testing.T) {
		old := text("const a = {", "  value: [{", "    name: 'x',", "      tagClass: 1,", "      type: 2,", "      kind: 3,", "      constructed: false", "    }]", "  }", "}")
		patch := text("--- a/a.js", "+++ b/a.js", "@@ ... @@", "   value: [{", "     name: 'x',", "     tagClass: 1,", "         type: 2,", "     kind: 3,",
			"+      optional: true,", "       constructed: false")
		rs := mustPlace(t, old, patch)
		wantApplied(t, old, rs, strings.Replace(old, "kind: 3,\n", "kind: 3,\n      optional: true,\n", 1))
	})
}

// TestIndentInsideBlockComment offers for review, and does not apply, a
// hunk of a Go file of tabs written with four spaces for each tab whose
// added lines draw a table inside a block comment: a comment's inner
// lines are its own text, indented with tabs or spaces as its writer
// pleased, and both read the same once the patch wrote them as spaces
// (gofrs/uuid's layout of a version 7 UUID, a wrong result before). A
// comment whose inner lines start with "*" is indented as the code.
func TestIndentInsideBlockComment(t *testing.T) {
	old := text("package uuid", "", "func (g *Gen) NewV7() (UUID, error) {", "\tvar u UUID", "\tif err := g.fill(u[:]); err != nil {",
		"\t\treturn Nil, err", "\t}", "\treturn u, nil", "}")
	patch := text("--- a/generator.go", "+++ b/generator.go", "@@ ... @@", " func (g *Gen) NewV7() (UUID, error) {", "     var u UUID",
		"+    /*", "+        0                   1", "+        0 1 2 3 4 5 6 7 8 9 0 1", "+    */", "     if err := g.fill(u[:]); err != nil {",
		"         return Nil, err", "     }")
	rs, errs := edit.Place(old, onlyFile(t, patch))
	if len(errs) != 1 || lastRule(errs[0]) != "movedInComment" || errs[0].Interpreted == nil {
		t.Fatalf("got errors %v, want the hunk refused with an uncertain reading\n%s", errs, describe(rs))
	}
	t.Run("a comment of starred lines", func(t *testing.T) {
		patch := strings.NewReplacer("+        0                   1", "+     * 0", "+        0 1 2 3 4 5 6 7 8 9 0 1", "+     * 1", "+    */", "+     */").Replace(patch)
		rs := mustPlace(t, old, patch)
		wantApplied(t, old, rs, strings.Replace(old, "\tvar u UUID\n", "\tvar u UUID\n\t/*\n\t * 0\n\t * 1\n\t */\n", 1))
	})
}

// TestIndentSpacedWitnessesOnly refuses, as a guess, a hunk whose only
// indented lines are a comment's lines that a file of tabs indents with
// two spaces, as the patch has them, while the patch's other hunks write
// the file's tabs as four spaces: its added lines at four spaces were
// tabs, or spaces like the comment's (classnames on a stand-in, kept as
// written where the commit made them tabs).
func TestIndentSpacedWitnessesOnly(t *testing.T) {
	old := text("/*!", "  Copyright (c) 2018 A. Person.", "  Licensed under the MIT License.", "*/", "(function () {",
		"\t'use strict';", "", "\tvar hasOwn = {}.hasOwnProperty;", "", "\tfunction names() {", "\t\tvar classes = [];",
		"\t\treturn classes;", "\t}", "}());")
	hunks := []string{"@@ -1,4 +1,4 @@", " /*!", "-  Copyright (c) 2018 A. Person.", "-  Licensed under the MIT License.",
		"+    Copyright (c) 2018 A. Person.", "+    Licensed under the MIT License.", " */",
		"@@ -6,6 +6,7 @@", "     'use strict';", " ", "     var hasOwn = {}.hasOwnProperty;", "+    var native = '[native code]';",
		" ", "     function names() {", "         var classes = [];"}
	patch := text(append([]string{"--- a/index.js", "+++ b/index.js"}, hunks...)...)
	refused(t, old, patch, "spacedOnly")

	t.Run("converted hunks only", func(t *testing.T) {
		// Without the comment's hunk the rest converts as before.
		patch := text(append([]string{"--- a/index.js", "+++ b/index.js"}, hunks[7:]...)...)
		rs := mustPlace(t, old, patch)
		wantApplied(t, old, rs, strings.Replace(old, "hasOwnProperty;\n", "hasOwnProperty;\n\tvar native = '[native code]';\n", 1))
	})
}

// TestIndentInsideRawString refuses, as a guess, re-indenting an added
// line of a Go raw string: the patch wrote the file's tabs as four
// spaces, and the string's own line of four spaces reads the same either
// way (go-toml's test table on a stand-in, whose JSON took a tab).
func TestIndentInsideRawString(t *testing.T) {
	old := text("package p", "", "var examples = []struct{ in, out string }{", "\t{", "\t\tin: `{", "  \"a\": 1", "}`,",
		"\t\tout: `a = 1`,", "\t},", "\t{", "\t\tin:  `x`,", "\t\tout: `y`,", "\t},", "}")
	lead := []string{"--- a/p_test.go", "+++ b/p_test.go", "@@ -7,6 +7,13 @@", " }`,", "         out: `a = 1`,", "     },"}
	trail := []string{"     {", "         in:  `x`,", "         out: `y`,"}
	patch := text(slices.Concat(lead, []string{"+    {", "+        in: `{", "+  \"b\": {", "+    \"c\": 2", "+  }", "+}`,", "+    },"}, trail)...)
	refused(t, old, patch, "movedInRawString")

	t.Run("code lines only", func(t *testing.T) {
		patch := text(slices.Concat(lead, []string{"+    {in: `b`, out: `c`},"}, trail)...)
		rs := mustPlace(t, old, patch)
		wantApplied(t, old, rs, strings.Replace(old, "\t},\n\t{\n", "\t},\n\t{in: `b`, out: `c`},\n\t{\n", 1))
	})
}

// TestIndentAtNeighbours keeps the added lines of a hunk whose context
// lines the patch re-indented in ways that disagree (two spaces less,
// two more), where the added lines start at the indentation of the file
// lines on both sides of them, as written: no mapping decides, and any
// would move them off that level (redux's export list, highlight.js's
// outdented tail on stand-ins). A hunk that adds only a blank line has
// nothing to indent. Where the lines around differ (the end of a block),
// the level is no evidence, and the hunk is refused.
func TestIndentAtNeighbours(t *testing.T) {
	old := text("export {", "  createStore,", "  combineReducers,", "  bindActionCreators,", "  applyMiddleware,", "}")
	patch := text("--- a/index.js", "+++ b/index.js", "@@ -1,5 +1,6 @@", " export {", "     createStore,", "+  legacyCreateStore,",
		" combineReducers,", "   bindActionCreators,", " applyMiddleware,")
	rs := mustPlace(t, old, patch)
	wantApplied(t, old, rs, strings.Replace(old, "  createStore,\n", "  createStore,\n  legacyCreateStore,\n", 1))

	t.Run("blank", func(t *testing.T) {
		patch := text("--- a/index.js", "+++ b/index.js", "@@ -1,5 +1,6 @@", " export {", "     createStore,", "+",
			" combineReducers,", "   bindActionCreators,", " applyMiddleware,")
		rs := mustPlace(t, old, patch)
		wantApplied(t, old, rs, strings.Replace(old, "  createStore,\n", "  createStore,\n\n", 1))
	})
	t.Run("end of a block", func(t *testing.T) {
		old := text("export {", "  a: {", "    createStore,", "  },", "  combineReducers,", "  bindActionCreators,", "  applyMiddleware,", "}")
		patch := text("--- a/index.js", "+++ b/index.js", "@@ -1,7 +1,8 @@", " export {", "   a: {", "       createStore,", "+  legacy,",
			"   },", " combineReducers,", "   bindActionCreators,", " applyMiddleware,")
		refused(t, old, patch, "indentUnknown")
	})
}

// TestIndentUnchangedPair refuses, as a guess, a hunk that deletes a line
// and adds it back letter for letter, in a patch whose other hunks write
// the file's tabs as four spaces: git never writes such a pair, so the
// two lines differed in what the conversion erased (objx's doc.go on a
// stand-in, whose commit re-indented its doc comment's example with a
// tab, in a file that had no tab before). The reading offered converts
// the added line. Without the conversion elsewhere, the pair is a model's
// harmless no-op, and stays as written.
func TestIndentUnchangedPair(t *testing.T) {
	doc := text("/*", "Package p does things.", "", "Overview", "", "    x := p.New()", "", "Then call it.", "*/", "package p")
	code := text("package p", "", "func New() int {", "\ta()", "\tb()", "\treturn 1", "}")
	docHunk := text("--- a/doc.go", "+++ b/doc.go", "@@ -1,8 +1,8 @@", " /*", " Package p does things.", " ", "-Overview", "+# Overview", " ",
		"-    x := p.New()", "+    x := p.New()", " ", " Then call it.")
	codeHunk := text("--- a/p.go", "+++ b/p.go", "@@ -3,5 +3,6 @@", " func New() int {", "     a()", "     b()", "+    c()", "     return 1", " }")
	files := map[string]string{"doc.go": doc, "p.go": code}
	out, errs := placeFilesErr(t, files, docHunk+codeHunk)
	if !strings.Contains(errs, `deletes line "x := p.New()" and adds it back unchanged`) {
		t.Errorf("got errors %q, want doc.go's hunk refused as a guess; placed %q", errs, out["doc.go"])
	}
	if want := strings.Replace(code, "\tb()\n", "\tb()\n\tc()\n", 1); out["p.go"] != want {
		t.Errorf("p.go: got\n%s\nwant\n%s", out["p.go"], want)
	}

	t.Run("offered converted", func(t *testing.T) {
		p := mustParse(t, docHunk+codeHunk)
		_, errss := edit.PlaceFiles([]string{doc, code}, p.Files)
		if len(errss[0]) != 1 || errss[0][0].Interpreted == nil {
			t.Fatalf("got errors %v, want one with an uncertain reading", errss[0])
		}
		got := mustApply(t, doc, []edit.Resolved{*errss[0][0].Interpreted})
		if want := strings.Replace(strings.Replace(doc, "Overview", "# Overview", 1), "    x :=", "\tx :=", 1); got != want {
			t.Errorf("uncertain reading gives\n%s\nwant\n%s", got, want)
		}
	})
	t.Run("no conversion", func(t *testing.T) {
		rs := mustPlace(t, doc, docHunk)
		wantApplied(t, doc, rs, strings.Replace(doc, "Overview", "# Overview", 1))
	})
}
