package safetext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// lookalikeScripts are the scripts whose letters can pass for Latin ones.
var lookalikeScripts = []*unicode.RangeTable{unicode.Latin, unicode.Cyrillic, unicode.Greek, unicode.Armenian, unicode.Cherokee}

// latinLookalikes are the letters of lookalikeScripts other than Latin
// that look like a Latin letter (after Unicode's confusables): a word that
// is otherwise Latin can hide one, as "pаssword" hides a Cyrillic а.
const latinLookalikes = "" +
	// Cyrillic
	"АВЕЅІЈКМНОРСТУХҮӀԚԜЬЗ" + "авеѕіјкмнорстухүӏԛԝһԁгпѵѡь" +
	// Greek
	"ΑΒΕΖΗΙΚΜΝΟΡΤΥΧϜϹϺϿ" + "αγεηικνορτυχϲϳ" +
	// Armenian
	"ԳՕՍՏՈՀՑ" + "ագհոսօցզւձ" +
	// Cherokee
	"ᎠᎡᎢᎥᎧᎩᎪᎫᎬᎳᎻᎼᏀᏃᏆᏌᏎᏒᏔᏙᏞᏟᏢᏤᏦᏴ"

// word reports whether r is part of a word: a letter, a mark, a digit or
// an underscore.
func word(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r)
}

// scriptOf returns the index in lookalikeScripts of r's script, or -1.
func scriptOf(r rune) int {
	if r < 0x80 {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
			return 0
		}
		return -1
	}
	for i, t := range lookalikeScripts {
		if unicode.Is(t, r) {
			return i
		}
	}
	return -1
}

// lookalikes returns the byte offsets in s of the letters that are shown
// escaped because they can pass for letters of another script: in a word
// that mixes Latin with Cyrillic, Greek, Armenian or Cherokee letters,
// the letters of the other script that look like Latin ones, when the
// word is mostly Latin, and else its Latin letters. A word wholly in one
// script, accented letters and the other scripts are left alone. It
// returns nil when there is none.
func lookalikes(s string) []int {
	var out []int
	for i := 0; i < len(s); {
		// Words of ASCII only are skipped whole.
		j, ascii := i, true
		for j < len(s) {
			r, size := utf8.DecodeRuneInString(s[j:])
			if !word(r) {
				break
			}
			ascii = ascii && r < utf8.RuneSelf
			j += size
		}
		if j == i {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			continue
		}
		if !ascii {
			out = mixed(s, i, j, out)
		}
		i = j
	}
	return out
}

// mixed appends to out the offsets of the lookalike letters of the word
// s[i:j], if it mixes scripts.
func mixed(s string, i, j int, out []int) []int {
	var count [5]int
	for _, r := range s[i:j] {
		if sc := scriptOf(r); sc >= 0 {
			count[sc]++
		}
	}
	other, most := -1, 0
	for sc := 1; sc < len(count); sc++ {
		if count[sc] > most {
			other, most = sc, count[sc]
		}
	}
	if count[0] == 0 || other < 0 {
		return out // one script, or none of these
	}
	latinWord := count[0] >= most
	for k, r := range s[i:j] {
		sc := scriptOf(r)
		switch {
		case sc < 0:
		case latinWord && sc > 0 && strings.ContainsRune(latinLookalikes, r):
			out = append(out, i+k)
		case !latinWord && sc != other:
			out = append(out, i+k)
		}
	}
	return out
}
