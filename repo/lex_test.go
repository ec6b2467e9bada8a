package repo

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// lexWords renders the tokens of src that are not punctuation as
// "line:word" (1-based lines), a decorator as "line:@name".
func lexWords(name, src string) string {
	var out []string
	for _, t := range lexFile(name, []byte(src)) {
		switch t.kind {
		case tokPunct:
		case tokDecorator:
			out = append(out, fmt.Sprintf("%d:@%s", t.line+1, t.val))
		default:
			out = append(out, fmt.Sprintf("%d:%s", t.line+1, t.val))
		}
	}
	return strings.Join(out, " ")
}

// TestLex: each family's comments, strings, template literals, regular
// expressions, decorators and here-documents are skipped whole, and what
// follows them is read on its line.
func TestLex(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, file, src, want string
	}{
		{"python comments and strings", "a.py",
			"x = \"a # b\" # c 'd\ny = 'e\\' f' + \"g\\\\\" # h\n",
			"1:x 2:y"},
		{"python triple quotes and prefixes", "a.py",
			"s = \"\"\"one\ntwo \"\" ' three\n\"\"\"\nt = r'\\d' + f\"{w}\" + b'x' + Rb\"y\" + u'z'\nu = '''a\n'''  # done\n",
			"1:s 4:t 5:u"},
		{"python decorators", "a.py",
			"@dec.orator\n  @property\ndef f(): return a @ b\n",
			"1:@dec 1:orator 2:@property 3:def 3:f 3:return 3:a 3:b"},
		{"python one-line string ends at its line", "a.py",
			"x = 'open\ny = 1\n",
			"1:x 2:y"},
		{"crlf", "a.py",
			"a = '''x\r\ny'''\r\nb = 1 # c\r\n\r\nc = 2\r\n",
			"1:a 3:b 5:c"},
		{"js regular expressions", "a.js",
			"const re = /[\"'`]\\/*/g; // c \"\nlet d = a / b / c;\nreturn /x'/.test(q)\nf(x, /\\/\\*/);\nif (k) g = h(/'/)\n",
			"1:const 1:re 2:let 2:d 2:a 2:b 2:c 3:return 3:test 3:q 4:f 4:x 5:if 5:k 5:g 5:h"},
		{"js template literals", "a.ts",
			"const t = `x ${ y + `in ${z}` } '${ {k: 1}.k }` + w;\nconst u = `a\n\"b\n` + v\n",
			"1:const 1:t 1:y 1:z 1:k 1:k 1:w 2:const 2:u 4:v"},
		{"js comments, decorators and private names", "a.tsx",
			"/* block\n\"still\" */ f(x);\n@Component({sel: 'a'})\nclass A { #p = 1 } // '\n#!not a shebang here\n",
			"2:f 2:x 3:@Component 3:sel 4:class 4:A 4:p 5:not 5:a 5:shebang 5:here"},
		{"js shebang", "a.mjs", "#!/usr/bin/env node\nrun()\n", "2:run"},
		{"rust lifetimes, chars, raw strings, nested comments", "a.rs",
			"// comment 'x\nfn f<'a>(s: &'a str) -> char { let c = '\\''; let r = r#\"a \"quoted\" b\"#; g(c, b'x') }\n/* outer /* nested */ still */ h()\n",
			"2:fn 2:f 2:a 2:s 2:a 2:str 2:char 2:let 2:c 2:let 2:r 2:g 2:c 3:h"},
		{"java text blocks and annotations", "A.java",
			"@Override\nString s = \"\"\"\n  a \"b\" c\n  \"\"\"; int x = 'c';\n",
			"1:@Override 2:String 2:s 4:int 4:x"},
		{"c# verbatim strings", "a.cs",
			"var p = @\"C:\\dir\\\"; var q = $@\"{a}\"\" b\"; int @class;\n",
			"1:var 1:p 1:var 1:q 1:int 1:class"},
		{"c++ raw strings and preprocessor", "a.cpp",
			"#include \"a.h\"\nauto s = R\"x(a)\" b)x\"; int y; // \"\n",
			"1:include 2:auto 2:s 2:int 2:y"},
		{"php here-documents and # comments", "a.php",
			"$a = <<<EOT\nfoo \"bar\nEOT;\n# comment \"\necho $a;\n",
			"1:a 5:echo 5:a"},
		{"shell", "a.sh",
			"# comment\necho \"multi\nline $x\" 'it''s' ${#arr} a#b\ncat <<-'EOF'\n  \"unclosed\n\tEOF\nf() { echo $(( 1 << 2 )); }\n",
			"2:echo 3:arr 3:a 3:b 4:cat 7:f 7:echo"},
		{"ruby", "a.rb",
			"x = <<~EOS\n  it's \"here\"\nEOS\n=begin\ndef hidden\n=end\ny = %w[a b (c)] + %q(d (e) f) # c\n@name = /r'/ =~ s\n",
			"1:x 7:y 8:name 8:s"},
		{"lua", "a.lua",
			"-- comment \"\n--[[ long\ncomment ]] local s = [==[ a ]] \" ]==]\nfunction M.f(a) return a end\n",
			"3:local 3:s 4:function 4:M 4:f 4:a 4:return 4:a 4:end"},
	} {
		if got := lexWords(tc.file, tc.src); got != tc.want {
			t.Errorf("%s: lex(%q)\n got %s\nwant %s", tc.name, tc.src, got, tc.want)
		}
	}
}

// TestLexLanguages: every extension the map reads has a language, and
// markup and data have none.
func TestLexLanguages(t *testing.T) {
	t.Parallel()
	for _, ext := range strings.Fields(".py .pyi .js .mjs .cjs .jsx .ts .tsx .mts .cts .java .kt .kts .scala " +
		".groovy .cs .c .h .cc .cpp .hpp .rs .swift .dart .php .rb .sh .bash .lua") {
		if _, ok := langOf("dir/x" + strings.ToUpper(ext)); !ok {
			t.Errorf("no language for %s", ext)
		}
	}
	for _, name := range []string{"a.json", "a.md", "a.yaml", "a.html", "a.css", "README", "a.txt"} {
		if _, ok := langOf(name); ok {
			t.Errorf("a language for %s", name)
		}
	}
}

// TestGenericSymbols: a language without a reader of its own gives the
// names that follow its keywords of definition.
func TestGenericSymbols(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ file, src, want string }{
		{"a.swift", "// func hidden()\nstruct Point: Equatable {\n  func move(by d: Int) -> Point { return self }\n}\nprotocol Shape {}\n", "Point move Shape"},
		{"a.php", "<?php\n$s = 'function nope()';\nclass Cart {\n  public function total() { return 0; }\n}\n", "Cart total"},
		{"a.lua", "local M = {}\nfunction M.load(p) end\nfunction M:save() end\nlocal function helper() end\nlocal x = f(y) { }\n", "load save helper"},
		{"a.dart", "mixin Walk {}\nclass Dog with Walk {\n  @override\n  String toString() => 'class Cat';\n  List<int> ids(int n) {\n    if (n > 0) {\n      return max(n);\n    }\n  }\n}\nvoid main() async {}\n", "Walk Dog toString ids main"},
	} {
		var got []string
		for _, d := range genericSymbols(tc.file, []byte(tc.src)).defs {
			got = append(got, d.name)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s: defs %v, want %s", tc.file, got, tc.want)
		}
	}
}

// lexFuzzFiles are the files FuzzLex lexes its input as, one per way of
// lexing.
var lexFuzzFiles = []string{"a.py", "a.ts", "a.rs", "a.java", "a.cs", "a.cpp", "a.php", "a.sh", "a.rb", "a.lua", "a.swift"}

// FuzzLex: lex never panics, and its tokens' lines never go back and stay
// within the file.
func FuzzLex(f *testing.F) {
	for _, s := range []string{
		"x = '''a\n", "`${`${a}`}`", "/[/", "r#\"", "R\"abc(", "<<EOF\n", "<<<X\nX;", "--[==[", "%w(", "@\"", "'\\",
		"=begin\n", "a\r\nb", "${#x}", "/* /* */", "f\"{x}\"", "$@\"", "\xff\xfe'",
	} {
		for i := range lexFuzzFiles {
			f.Add(byte(i), s)
		}
	}
	f.Fuzz(func(t *testing.T, which byte, src string) {
		name := lexFuzzFiles[int(which)%len(lexFuzzFiles)]
		toks := lexFile(name, []byte(src))
		lines := bytes.Count([]byte(src), []byte("\n"))
		if !slices.IsSortedFunc(toks, func(a, b ltok) int { return a.line - b.line }) {
			t.Errorf("%s: token lines go back: %v", name, toks)
		}
		for _, tk := range toks {
			if tk.line < 0 || tk.line > lines {
				t.Errorf("%s: token %q on line %d of %d", name, tk.val, tk.line, lines)
			}
			if tk.val == "" {
				t.Errorf("%s: empty token", name)
			}
		}
	})
}

// TestTokenRefs: the names a file uses are its references; keywords,
// builtins, decorators and the names it declares are not.
func TestTokenRefs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ file, src, want string }{
		{"a.py", "@property\ndef f(self): return len(helper(self.x, 'y'))\n", "helper x"},
		{"a.js", "const n = Object.keys(load(opts)).length; console.log(`${fmt(n)}`)\n", "fmt keys length load log n opts"},
	} {
		toks := lexFile(tc.file, []byte(tc.src))
		declared := map[int]bool{}
		for i, tk := range toks {
			if tk.val == "f" || tk.val == "n" && i < 3 {
				declared[i] = true
			}
		}
		var got []string
		for name := range tokenRefs(toks, declared) {
			got = append(got, name)
		}
		slices.Sort(got)
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s: refs %v, want %s", tc.file, got, tc.want)
		}
	}
}
