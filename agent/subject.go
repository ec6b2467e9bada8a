package agent

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// maxSubject bounds a commit subject, in characters: git's tools and
// forges show about this much of it.
const maxSubject = 72

// commitLine is the subject a reply in text-only mode gives for its
// diff: the text of its line "Commit: SUBJECT" outside the fenced blocks
// (the system prompt asks for one); "" when there is none.
func commitLine(reply string) string {
	fenced := false
	for _, l := range strings.Split(reply, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		if m := commitLineRE().FindStringSubmatch(t); m != nil {
			return strings.TrimSpace(m[1])
		}
	}
	return ""
}

// commitLineRE matches "Commit: SUBJECT", also in bold or as a list
// item, as models write it.
var commitLineRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:[-*]\s+)?(?:\*\*)?commit(?: message)?:(?:\*\*)?\s*(.+)$`)
})

// commitSubject is the subject of a pair edit commit: the model's
// message (propose_diff's message, or a reply's Commit: line) when it
// reads as a subject, else one made from the request. Never the model's
// prose ("I'll guard against …"): a message in the first person, or one
// that leads into something else ("Here is the fix:"), is not taken.
// Either way it is one line of at most maxSubject characters.
func commitSubject(message, request string) string {
	if s := cleanSubject(message); s != "" && !prose(s) {
		return s
	}
	if s := cleanSubject(requestSubject(request)); s != "" {
		r, n := utf8.DecodeRuneInString(s)
		return string(unicode.ToUpper(r)) + s[n:]
	}
	return "Change files as requested"
}

// cleanSubject makes s a subject: its first line, without quotes, a
// final period or a "Commit:" label, shortened to maxSubject characters at a word.
func cleanSubject(s string) string {
	s = firstLine(s)
	if m := commitLineRE().FindStringSubmatch(s); m != nil {
		s = m[1]
	}
	s = strings.Join(strings.Fields(s), " ")
	s = strings.Trim(s, "`\"'*")
	s = strings.TrimRight(s, ".:;, ")
	return shorten(s, maxSubject)
}

// shorten cuts s to at most n characters, at the last space within them
// when there is one, without the punctuation it then ends with.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	cut := s
	for i := range s {
		if utf8.RuneCountInString(s[:i]) == n {
			cut = s[:i]
			break
		}
	}
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, ".:;,-( ")
}

// proseOpeners are first words of a sentence about the change rather
// than a subject naming it.
var proseOpeners = map[string]bool{
	"i": true, "i'll": true, "i'm": true, "i've": true, "i'd": true, "i’ll": true, "i’m": true, "i’ve": true,
	"we": true, "we'll": true, "we're": true, "let": true, "let's": true, "here": true, "here's": true,
	"sure": true, "okay": true, "ok": true, "certainly": true, "this": true, "now": true, "below": true,
}

// prose reports whether s reads as the model's prose about the change:
// it opens as a sentence in the first person or a lead-in, or it is a
// question.
func prose(s string) bool {
	w, _, _ := strings.Cut(strings.ToLower(s), " ")
	w = strings.TrimRight(w, ",!")
	return proseOpeners[w] || strings.HasSuffix(s, "?")
}

// politeLeads are how a request may open before what it asks.
var politeLeads = []string{"please ", "can you ", "could you ", "would you ", "will you ", "i want you to ", "i'd like you to ", "i would like you to ", "pair, ", "hey, ", "now "}

// requestSubject is the request's first line as a subject: without a
// polite opening ("please", "can you") or a final "please", "?" or ".".
func requestSubject(request string) string {
	s := strings.Join(strings.Fields(firstLine(request)), " ")
	for again := true; again; {
		again = false
		for _, p := range politeLeads {
			if len(s) > len(p) && strings.EqualFold(s[:len(p)], p) {
				s, again = s[len(p):], true
			}
		}
	}
	s = strings.TrimRight(s, "?!. ")
	s = strings.TrimSuffix(strings.TrimSuffix(s, " please"), ",")
	return s
}
