// wildmatch.go: git's wildmatch, the pattern matching of ignore and attribute files.

package repo

import (
	"strings"
	"unicode"
)

// The results of one step of wildmatch: besides a match and no match, a
// pattern may know that no later start of a "*" can match either (the
// text ran out), or that only a "**" further out could (a "*" stopped at
// a slash).
const (
	wmMatch = iota
	wmNoMatch
	wmAbortAll
	wmAbortToStarStar
)

// wildmatch matches text against a pattern as git matches its ignore and
// attribute patterns: "?" and "*" match any character but "/" when
// pathname is set, "[...]" is a class ("!" or "^" negates it; ranges and
// "[:alpha:]"-style classes are understood), a backslash quotes the next
// character, and with pathname a "**" between slashes (or at either end)
// matches any number of directories, none included.
func wildmatch(pattern, text string, pathname bool) bool {
	return doWild(pattern, 0, text, pathname) == wmMatch
}

// Wildmatch matches a path against a pattern as git apply's --include and
// --exclude do: wildmatch without pathname, so "*" matches "/" too.
func Wildmatch(pattern, name string) bool { return wildmatch(pattern, name, false) }

// doWild matches the pattern from byte pi on against t.
func doWild(pat string, pi int, t string, pathname bool) int {
	for ; pi < len(pat); pi, t = pi+1, t[1:] {
		c := pat[pi]
		if len(t) == 0 && c != '*' {
			return wmAbortAll
		}
		switch c {
		case '\\':
			if pi+1 == len(pat) {
				return wmAbortAll // a final backslash matches nothing
			}
			pi++
			if t[0] != pat[pi] {
				return wmNoMatch
			}
		case '?':
			if pathname && t[0] == '/' {
				return wmNoMatch
			}
		case '*':
			return star(pat, pi, t, pathname)
		case '[':
			end, ok, bad := matchClass(pat, pi+1, t[0], pathname)
			if bad {
				return wmAbortAll
			}
			if !ok {
				return wmNoMatch
			}
			pi = end // the class's "]"
		default:
			if t[0] != c {
				return wmNoMatch
			}
		}
	}
	if len(t) > 0 {
		return wmNoMatch
	}
	return wmMatch
}

// star matches the pattern from its "*" at pi against t.
func star(pat string, pi int, t string, pathname bool) int {
	matchSlash := !pathname
	next := pi + 1
	if next < len(pat) && pat[next] == '*' {
		// "**": any depth when it stands between slashes or at an end;
		// elsewhere it is one "*".
		for next < len(pat) && pat[next] == '*' {
			next++
		}
		if pathname && (pi == 0 || pat[pi-1] == '/') && (next == len(pat) || pat[next] == '/') {
			if next < len(pat) && doWild(pat, next+1, t, pathname) == wmMatch {
				return wmMatch // "**/" as no directory at all
			}
			matchSlash = true
		}
	}
	if next == len(pat) {
		if !matchSlash && containsSlash(t) {
			return wmAbortToStarStar
		}
		return wmMatch
	}
	for i := 0; ; i++ {
		if r := doWild(pat, next, t[i:], pathname); r != wmNoMatch {
			if !matchSlash || r != wmAbortToStarStar {
				return r
			}
		}
		if i == len(t) {
			break
		}
		if !matchSlash && t[i] == '/' {
			return wmAbortToStarStar
		}
	}
	return wmAbortAll
}

func containsSlash(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			return true
		}
	}
	return false
}

// matchClass matches one byte c against the class whose content starts
// at pi, just after its "[". It returns the index of the class's closing
// "]", and bad for a class that is not closed or names an unknown class.
func matchClass(pat string, pi int, c byte, pathname bool) (end int, ok, bad bool) {
	negate := false
	if pi < len(pat) && (pat[pi] == '!' || pat[pi] == '^') {
		negate = true
		pi++
	}
	var prev byte
	matched := false
	for first := true; ; first = false {
		if pi >= len(pat) {
			return 0, false, true
		}
		pc := pat[pi]
		if pc == ']' && !first {
			break
		}
		switch {
		case pc == '\\':
			pi++
			if pi == len(pat) {
				return 0, false, true
			}
			pc = pat[pi]
			if c == pc {
				matched = true
			}
		case pc == '-' && prev != 0 && pi+1 < len(pat) && pat[pi+1] != ']':
			pi++
			hi := pat[pi]
			if hi == '\\' {
				pi++
				if pi == len(pat) {
					return 0, false, true
				}
				hi = pat[pi]
			}
			if prev <= c && c <= hi {
				matched = true
			}
			pc = 0
		case pc == '[' && pi+1 < len(pat) && pat[pi+1] == ':':
			e := strings.IndexByte(pat[pi+2:], ']')
			if e < 0 {
				return 0, false, true
			}
			if e == 0 || pat[pi+2+e-1] != ':' {
				// Not a class name: a plain "[".
				if c == '[' {
					matched = true
				}
				break
			}
			in, known := classHas(pat[pi+2:pi+2+e-1], c)
			if !known {
				return 0, false, true
			}
			if in {
				matched = true
			}
			pi += 2 + e // on the "]" of ":]"
			pc = 0
		default:
			if c == pc {
				matched = true
			}
		}
		prev = pc
		pi++
	}
	if pathname && c == '/' {
		return pi, false, false
	}
	return pi, matched != negate, false
}

// classHas reports whether c is in the named character class.
func classHas(name string, c byte) (in, known bool) {
	r := rune(c)
	if c >= 0x80 {
		return false, true
	}
	switch name {
	case "alnum":
		return unicode.IsLetter(r) || unicode.IsDigit(r), true
	case "alpha":
		return unicode.IsLetter(r), true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return unicode.IsControl(r), true
	case "digit":
		return '0' <= c && c <= '9', true
	case "graph":
		return c > ' ' && c < 0x7f, true
	case "lower":
		return 'a' <= c && c <= 'z', true
	case "print":
		return c >= ' ' && c < 0x7f, true
	case "punct":
		return unicode.IsPunct(r) || unicode.IsSymbol(r), true
	case "space":
		return c == ' ' || c == '\t' || c == '\n' || c == '\r', true
	case "upper":
		return 'A' <= c && c <= 'Z', true
	case "xdigit":
		return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F', true
	}
	return false, false
}
