package gitobj

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Signature is who made a commit and when: an author or committer line.
type Signature struct {
	Name  string
	Email string
	When  time.Time // in the zone the line gives; zero when it gives no time
}

// ParseSignature reads "Name <email> seconds zone" as git does; it never
// fails: what is missing or malformed stays empty (a zero When, UTC for a
// zone that does not parse).
func ParseSignature(s string) Signature {
	var sig Signature
	lt := strings.IndexByte(s, '<')
	if lt < 0 {
		sig.Name = strings.TrimSpace(s)
		return sig
	}
	sig.Name = strings.TrimRight(s[:lt], " ")
	rest := s[lt+1:]
	gt := strings.IndexByte(rest, '>')
	if gt < 0 {
		sig.Email = rest
		return sig
	}
	sig.Email = rest[:gt]
	// The date follows the last '>', as git reads it.
	date := strings.TrimLeft(s[strings.LastIndexByte(s, '>')+1:], " ")
	secs, zone, _ := strings.Cut(date, " ")
	n, err := strconv.ParseInt(secs, 10, 64)
	if err != nil {
		return sig
	}
	sig.When = time.Unix(n, 0).In(parseZone(zone))
	return sig
}

// parseZone reads a zone such as "+0100" or "-0530" as git does: the
// digits are hours and minutes ("+5" is five minutes); UTC when it is not
// a sign and one to four digits.
func parseZone(z string) *time.Location {
	if len(z) < 2 || (z[0] != '+' && z[0] != '-') {
		return time.UTC
	}
	end := 1
	for end < len(z) && z[end] >= '0' && z[end] <= '9' {
		end++
	}
	if end == 1 || end > 5 {
		return time.UTC
	}
	v, err := strconv.Atoi(z[1:end])
	if err != nil {
		return time.UTC
	}
	off := (v/100)*3600 + (v%100)*60
	if z[0] == '-' {
		off = -off
	}
	return time.FixedZone("", off)
}

// String formats the signature as git writes it in a commit:
// "Name <email> seconds +hhmm". A time before 1970 is written as 0.
func (s Signature) String() string {
	secs := s.When.Unix()
	if secs < 0 || s.When.IsZero() {
		secs = 0
	}
	return fmt.Sprintf("%s <%s> %d %s", s.Name, s.Email, secs, s.When.Format("-0700"))
}
