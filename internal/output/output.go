// Package output is the part of pair's output contract that the commands
// and the runners below them share: the exit codes, JSON on standard
// output, and the wording of reports (counted nouns, text clipped to one
// line).
package output

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Exit codes of the pair command.
const (
	OK          = 0
	Failure     = 1
	Usage       = 2
	NeedsReview = 3 // paused: hunks wait for a person's review
	Interrupted = 130
)

// WriteJSON writes v as indented JSON and a newline. The values pair
// prints are its own types, which always encode.
func WriteJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

// Plural returns word, with an s unless n is 1.
func Plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// OneLine folds s's white space into single spaces and clips it to n
// bytes (never cutting a character in two), marking a cut with an ellipsis.
func OneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		for n > 0 && !utf8.RuneStart(s[n]) {
			n-- // never cut a character in two
		}
		return s[:n] + "…"
	}
	return s
}

// UsageError marks an error in how pair was invoked (exit code Usage).
type UsageError struct {
	Msg string
	// Err, when Msg wraps reasons (%w in Usagef), is the error Msg was
	// made from, so that errors.Is and errors.As find them.
	Err error
}

func (e *UsageError) Error() string { return e.Msg }

func (e *UsageError) Unwrap() error { return e.Err }

// Usagef returns a UsageError with the formatted message; a %w verb
// wraps its error, as in fmt.Errorf.
func Usagef(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	e := &UsageError{Msg: err.Error()}
	switch err.(type) {
	case interface{ Unwrap() error }, interface{ Unwrap() []error }:
		e.Err = err
	}
	return e
}

// ExitError carries an exit code for a failure, with the message to
// print ("" when it was already reported in full, for example on
// standard output as JSON).
type ExitError struct {
	Code int
	Msg  string
	// Err is the failure, when Msg is "" and there is one to print: kept
	// as an error, so that errors.As finds what it wraps.
	Err error
}

func (e *ExitError) Error() string {
	if e.Msg == "" && e.Err != nil {
		return e.Err.Error()
	}
	return e.Msg
}

func (e *ExitError) Unwrap() error { return e.Err }

// Clip cuts s to at most n bytes on a character boundary, marking a cut
// with an ellipsis. Unlike OneLine, it keeps s's white space.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}
