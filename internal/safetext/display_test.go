package safetext

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"tab\tstays", "tab\tstays"},
		{"héllo wörld ✓", "héllo wörld ✓"},
		{"", ""},
		{"# ok\x1b[1A\x1b[2K\x1b[32m+harmless change", "# ok^[[1A^[[2K^[[32m+harmless change" + Marker},
		{"a\rb", "a^Mb" + Marker},
		{"nul\x00 del\x7f bell\a", "nul^@ del^? bell^G" + Marker},
		{"new\nline", "new^Jline" + Marker},
		{"c1 \u0085 \u009b", `c1 \u0085 \u009b` + Marker},
		{"admin\u202e\u2066 // check\u2069\u2066", `admin\u202e\u2066 // check\u2069\u2066` + Marker},
		{"zero\u200bwidth\u200d\u200e\u200f\ufeff", `zero\u200bwidth\u200d\u200e\u200f\ufeff` + Marker},
		{"sep\u2028\u2029", `sep\u2028\u2029` + Marker},
		{"tag\U000E0041", `tag\U000e0041` + Marker},
		{"bad \xff\xc3 utf8", `bad \xff\xc3 utf8` + Marker},
	} {
		if got := Line(tc.in); got != tc.want {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"dir/a.go", "dir/a.go"},
		{"a\tb.txt", "a^Ib.txt" + NameMarker},
		{"evil\n.txt", "evil^J.txt" + NameMarker},
		{"x\x1b[2K.txt", "x^[[2K.txt" + NameMarker},
	} {
		if got := Name(tc.in); got != tc.want {
			t.Errorf("Name(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestText(t *testing.T) {
	in := "one\ntwo\x1b[1A\tthree\n\nfour\u202e"
	want := "one\ntwo^[[1A\tthree" + Marker + "\n\nfour\\u202e" + Marker
	if got := Text(in); got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
	if got := Text("a\nb\n"); got != "a\nb\n" {
		t.Errorf("Text of plain lines = %q, want them unchanged", got)
	}
}

// Whatever comes in, what goes out holds no control character but tab
// and newline, no format character and no invalid byte.
func TestOutputIsSafe(t *testing.T) {
	var all strings.Builder
	for b := range 256 {
		all.WriteByte(byte(b))
	}
	for r := rune(0x80); r < 0x3000; r++ {
		all.WriteRune(r)
	}
	all.WriteString("\U000E0001\U000E007F\uFFF9")
	for name, out := range map[string]string{"Line": Line(all.String()), "Name": Name(all.String()), "Text": Text(all.String())} {
		if !utf8.ValidString(out) {
			t.Errorf("%s: output is not valid UTF-8", name)
		}
		for _, r := range out {
			if r == '\t' && name != "Name" || r == '\n' && name == "Text" {
				continue
			}
			if hidden(r, 0) != 0 {
				t.Errorf("%s: output holds %U", name, r)
			}
		}
	}
}

func TestWriter(t *testing.T) {
	text := "é ok\x1b[31m red\nplain pаss\u3164x\n\u202eflip"
	want := Text(text)
	// Every way of cutting the text into two writes gives the same output.
	for i := 0; i <= len(text); i++ {
		var b strings.Builder
		w := &Writer{W: &b}
		for _, part := range []string{text[:i], text[i:]} {
			if n, err := w.Write([]byte(part)); err != nil || n != len(part) {
				t.Fatalf("Write = %d, %v", n, err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if b.String() != want {
			t.Errorf("cut at %d: got %q, want %q", i, b.String(), want)
		}
	}
	// A character still cut at the end shows as its bytes.
	var b strings.Builder
	w := &Writer{W: &b}
	_, _ = w.Write([]byte("x\xe2\x80"))
	_ = w.Flush()
	if want := `x\xe2\x80` + Marker; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// Letters and marks that print as nothing or as a blank are shown as
// their code points, with their own marker: the Hangul fillers, the
// Braille blank, variation selectors, every default-ignorable code point
// and every white space but the plain space.
func TestInvisible(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"if (x\u3164 === 1)", `if (x\u3164 === 1)` + InvisibleMarker},
		{"a\u115fb\u1160c\uffa0d", `a\u115fb\u1160c\uffa0d` + InvisibleMarker},
		{"blank\u2800here", `blank\u2800here` + InvisibleMarker},
		{"vs\ufe00\ufe0f\U000e0100\U000e01ef", `vs\ufe00\ufe0f\U000e0100\U000e01ef` + InvisibleMarker},
		{"cgj\u034f khmer\u17b4 mongol\u180b", `cgj\u034f khmer\u17b4 mongol\u180b` + InvisibleMarker},
		{"nbsp\u00a0em\u2003ideo\u3000narrow\u202f", `nbsp\u00a0em\u2003ideo\u3000narrow\u202f` + InvisibleMarker},
		{"unassigned\u0378 nonchar\uffff", `unassigned\u0378 nonchar\uffff` + InvisibleMarker},
		// A control character names the marker when there are both.
		{"\u3164\x1b", `\u3164^[` + Marker},
	} {
		if got := Line(tc.in); got != tc.want {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got, want := Name("x\u3164.js"), `x\u3164.js (⚠ invisible characters)`; got != want {
		t.Errorf("Name = %q, want %q", got, want)
	}
	// Every default-ignorable code point and variation selector is escaped.
	for _, tab := range []*unicode.RangeTable{unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector, unicode.White_Space} {
		for _, rg := range tab.R16 {
			for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
				if r == ' ' || r == '\t' || r == '\n' {
					continue
				}
				if _, marked := Escape(string(r)); !marked {
					t.Errorf("%U is not escaped", r)
				}
			}
		}
		for _, rg := range tab.R32 {
			for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
				if _, marked := Escape(string(r)); !marked {
					t.Errorf("%U is not escaped", r)
				}
			}
		}
	}
}

// A letter of another script that looks like a Latin one, inside a word
// otherwise Latin, is shown as its code point; ordinary text in other
// scripts is not.
func TestLookalikes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"if pаssword == x", `if p\u0430ssword == x` + LookalikeMarker},
		{"const аdmin = rоot", `const \u0430dmin = r\u043eot` + LookalikeMarker},
		{"ΑPI_KEY", `\u0391PI_KEY` + LookalikeMarker},
		{"isAdmіn()", `isAdm\u0456n()` + LookalikeMarker},
		{"ѕcope", `\u0455cope` + LookalikeMarker},
		{"pοst_2", `p\u03bfst_2` + LookalikeMarker},
		// A word mostly in another script shows its Latin letters.
		{"пpивет", `п\u0070ивет` + LookalikeMarker},
		// Ordinary text is left alone.
		{"пароль и password", "пароль и password"},
		{"Καλημέρα κόσμε", "Καλημέρα κόσμε"},
		{"café naïve Ångström Łódź", "café naïve Ångström Łódź"},
		{"変数 = 値 // コメント API接口", "変数 = 値 // コメント API接口"},
		{"Δx = 0.5", "Δx = 0.5"},
		{"σ2 and μs", "σ2 and μs"},
	} {
		if got := Line(tc.in); got != tc.want {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
