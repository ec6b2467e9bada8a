package review_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/pair-cli/pair/review"
)

// answers builds answers from keys, with no notes.
func answers(keys string) []review.Answer {
	var out []review.Answer
	for _, k := range keys {
		out = append(out, review.Answer{Key: k})
	}
	return out
}

func TestParseLetters(t *testing.T) {
	tests := []struct {
		in   string
		want []review.Answer
		err  string // a part of the error, "" for none
	}{
		{in: "", want: nil},
		{in: "y", want: answers("y")},
		{in: "ynadAq", want: answers("ynadAq")},
		{in: " y n,a,,d\tA\nq ", want: answers("ynadAq")},
		{in: "y, n, y", want: answers("yny")},
		{in: ", ,", want: nil},
		{in: "yx", err: `decision 'x' at position 2: use y (approve)`},
		{in: "y, Y", err: `decision 'Y' at position 4`},
		{in: "yj", err: `decision 'j' at position 2`},
		{in: "s", err: `decision 's' at position 1`},
		{in: "y;n", err: `decision ';' at position 2`},
	}
	for _, tt := range tests {
		got, err := review.ParseLetters(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseLetters(%q): got %v, error %v, want error %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseLetters(%q): got error %v, want none", tt.in, err)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("ParseLetters(%q): got %v, want %v", tt.in, got, tt.want)
		}
	}
}

// collect reads answers from next until it ends or fails.
func collect(next func() (review.Answer, bool, error)) ([]review.Answer, error) {
	var out []review.Answer
	for {
		a, ok, err := next()
		if err != nil || !ok {
			return out, err
		}
		out = append(out, a)
	}
}

func TestLineAnswers(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []review.Answer // read before the end or the error
		err  string          // a part of the error, "" for none
	}{
		{name: "empty", in: ""},
		{name: "keys", in: "y\nn\na\nd\nA\nq\n", want: answers("ynadAq")},
		{name: "no final newline", in: "y\nn", want: answers("yn")},
		{name: "CRLF", in: "y\r\nn too long\r\n", want: []review.Answer{{Key: 'y'}, {Key: 'n', Note: "too long"}}},
		{name: "yes and no", in: "yes\nno\nYES\nNo\n", want: answers("ynyn")},
		{
			name: "notes on rejections",
			in:   "n keep the old name\nd   not this file  \nn: too clever\nd: later\n",
			want: []review.Answer{
				{Key: 'n', Note: "keep the old name"},
				{Key: 'd', Note: "not this file"},
				{Key: 'n', Note: "too clever"},
				{Key: 'd', Note: "later"},
			},
		},
		{name: "a note after no", in: "no, thanks\n", err: `line 1: "no, thanks" is not a decision`},
		{name: "no with a note", in: "no thanks\n", want: []review.Answer{{Key: 'n', Note: "thanks"}}},
		{name: "a colon after y", in: "y:\n", want: answers("y")},
		{
			name: "comments and blank lines skipped",
			in:   "# decisions for the first proposal\n\n   \ny\n  # indented comment\n\tn\n",
			want: answers("yn"),
		},
		{name: "spaces around the key", in: "   y   \n", want: answers("y")},
		{name: "a note on y", in: "y looks good\n", err: "line 1: only a rejection (n or d) takes a note"},
		{name: "a note on a", in: "n\na all of it\n", want: answers("n"), err: "line 2: only a rejection"},
		{name: "a note on A", in: "A yes\n", err: "line 1: only a rejection"},
		{name: "a note on q", in: "q enough\n", err: "line 1: only a rejection"},
		{name: "a bad line after good ones", in: "y\n\nmaybe\ny\n", want: answers("y"), err: `line 3: "maybe" is not a decision: start the line with y, n, a, d, A or q`},
		{name: "two letters", in: "yn\n", err: `line 1: "yn" is not a decision`},
		{name: "a move key", in: "j\n", err: `line 1: "j" is not a decision`},
		{name: "a long bad line is clipped", in: strings.Repeat("x", 100) + "\n", err: `line 1: "` + strings.Repeat("x", 57) + `..." is not a decision`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next := review.LineAnswers(strings.NewReader(tt.in))
			got, err := collect(next)
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("got error %v, want none", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("got error %v, want one with %q", err, tt.err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got answers %v, want %v", got, tt.want)
			}
			if tt.err == "" {
				if a, ok, err := next(); ok || err != nil {
					t.Errorf("after the end: got %v, %v, %v, want no answer", a, ok, err)
				}
			}
		})
	}
}

func TestLineAnswersReadError(t *testing.T) {
	boom := errors.New("boom")
	next := review.LineAnswers(iotest.ErrReader(boom))
	if _, ok, err := next(); ok || !errors.Is(err, boom) {
		t.Errorf("got ok %v, error %v, want the reader's error", ok, err)
	}
}

func TestLetters(t *testing.T) {
	as := []review.Answer{{Key: 'y'}, {Key: 'n', Note: "no"}}
	got, err := collect(review.Letters(as))
	if err != nil || !slices.Equal(got, as) {
		t.Errorf("Letters: got %v, %v, want %v", got, err, as)
	}
	if got, err := collect(review.Letters(nil)); err != nil || len(got) != 0 {
		t.Errorf("Letters(nil): got %v, %v, want nothing", got, err)
	}
}

// TestPlay checks answers given ahead: they must decide every item, with
// none left over.
func TestPlay(t *testing.T) {
	tests := []struct {
		name   string
		grants []string
		next   func() func() (review.Answer, bool, error)
		want   string // state after playing
		notes  string
		quit   bool
		err    *review.AnswersError // nil for none
	}{
		{
			name: "one answer per item",
			next: letters("ynnyyn"),
			want: "1=y 2=n 3=n 4=y 5=y [6=n]",
		},
		{
			name: "a and d decide several items",
			next: letters("anyd"),
			want: "1=y 2=y 3=y 4=n 5=y [6=n]",
		},
		{
			name: "A decides the rest of a file",
			next: letters("yAay"),
			want: "1=y 2=y 3=y 4=y 5=y [6=y]",
		},
		{
			name: "q half-way",
			next: letters("ynq"),
			want: "1=y 2=n [3=n] 4=n 5=n 6=n",
			quit: true,
		},
		{
			name: "q first",
			next: letters("q"),
			want: "[1=n] 2=n 3=n 4=n 5=n 6=n",
			quit: true,
		},
		{
			name:  "lines with notes",
			next:  lines("n too vague\nd: not now\n# the second file\na\nyes\n"),
			want:  "1=n 2=n 3=n 4=y 5=y [6=y]",
			notes: "1:too vague 2:not now 3:not now",
		},
		{
			name: "too few",
			next: letters("yn"),
			want: "1=y 2=n [3=.] 4=. 5=. 6=.",
			err:  &review.AnswersError{Used: 2, Undecided: 4},
		},
		{
			name: "too few after a",
			next: letters("ya"),
			want: "1=y 2=y 3=y [4=.] 5=. 6=.",
			err:  &review.AnswersError{Used: 2, Undecided: 3},
		},
		{
			name: "none",
			next: letters(""),
			want: "[1=.] 2=. 3=. 4=. 5=. 6=.",
			err:  &review.AnswersError{Used: 0, Undecided: 6},
		},
		{
			name: "too many",
			next: letters("anydy"),
			want: "1=y 2=y 3=y 4=n 5=y [6=n]",
			err:  &review.AnswersError{Used: 4, Extra: true},
		},
		{
			name: "an answer after q",
			next: letters("ynqy"),
			want: "1=y 2=n [3=n] 4=n 5=n 6=n",
			quit: true,
			err:  &review.AnswersError{Used: 3, Extra: true},
		},
		{
			name:   "granted files need no answers",
			grants: []string{"calc.go", "util/strings.go"},
			next:   letters("y"),
			want:   "1=g 2=g 3=g 4=g 5=g [6=y]",
		},
		{
			name:   "everything granted, no answers",
			grants: []string{"calc.go", "util/strings.go", "README.md"},
			next:   letters(""),
			want:   "[1=g] 2=g 3=g 4=g 5=g 6=g",
		},
		{
			name:   "everything granted, an answer left over",
			grants: []string{"calc.go", "util/strings.go", "README.md"},
			next:   letters("y"),
			want:   "[1=g] 2=g 3=g 4=g 5=g 6=g",
			err:    &review.AnswersError{Used: 0, Extra: true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := review.New(mustPlace(t, calcPatch+stringsPatch+readmePatch), tt.grants)
			err := r.Play(tt.next())
			if tt.err == nil {
				if err != nil {
					t.Errorf("Play: got error %v, want none", err)
				}
			} else {
				var ae *review.AnswersError
				if !errors.As(err, &ae) {
					t.Fatalf("Play: got error %v, want an *AnswersError", err)
				}
				if *ae != *tt.err {
					t.Errorf("Play: got %+v, want %+v", *ae, *tt.err)
				}
				if !errors.Is(err, review.ErrNoAnswers) {
					t.Errorf("Play: got error %v, want it to be ErrNoAnswers", err)
				}
			}
			if got := state(r); got != tt.want {
				t.Errorf("got state %q, want %q", got, tt.want)
			}
			if got := notes(r); got != tt.notes {
				t.Errorf("got notes %q, want %q", got, tt.notes)
			}
			if r.Quit != tt.quit {
				t.Errorf("got Quit %v, want %v", r.Quit, tt.quit)
			}
		})
	}
}

func letters(keys string) func() func() (review.Answer, bool, error) {
	return func() func() (review.Answer, bool, error) { return review.Letters(answers(keys)) }
}

func lines(text string) func() func() (review.Answer, bool, error) {
	return func() func() (review.Answer, bool, error) { return review.LineAnswers(strings.NewReader(text)) }
}

// TestPlayErrors checks that an answer that cannot be used, or a source
// that fails, stops Play with that error.
func TestPlayErrors(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name string
		next func() (review.Answer, bool, error)
		want string // state after playing
		err  string
	}{
		{
			name: "a move key",
			next: review.Letters([]review.Answer{{Key: 'y'}, {Key: 'j'}}),
			want: "1=y [2=.] 3=. 4=. 5=. 6=.",
			err:  `'j' is not a decision`,
		},
		{
			name: "a bad line",
			next: review.LineAnswers(strings.NewReader("y\ny please\n")),
			want: "1=y [2=.] 3=. 4=. 5=. 6=.",
			err:  "line 2: only a rejection (n or d) takes a note",
		},
		{
			name: "a failing source",
			next: func() (review.Answer, bool, error) { return review.Answer{}, false, boom },
			want: "[1=.] 2=. 3=. 4=. 5=. 6=.",
			err:  "boom",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := fixture(t)
			err := r.Play(tt.next)
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Play: got error %v, want one with %q", err, tt.err)
			}
			if errors.Is(err, review.ErrNoAnswers) {
				t.Errorf("Play: got error %v, want it not to be ErrNoAnswers", err)
			}
			if got := state(r); got != tt.want {
				t.Errorf("got state %q, want %q", got, tt.want)
			}
		})
	}
	t.Run("a failing source after the last item", func(t *testing.T) {
		r := fixture(t)
		as := answers("aaa")
		i := 0
		next := func() (review.Answer, bool, error) {
			if i < len(as) {
				i++
				return as[i-1], true, nil
			}
			return review.Answer{}, false, boom
		}
		if err := r.Play(next); !errors.Is(err, boom) {
			t.Errorf("Play: got error %v, want boom", err)
		}
	})
}

func TestAnswer(t *testing.T) {
	r := fixture(t)
	steps := []struct {
		a    review.Answer
		want string
		err  bool
	}{
		{review.Answer{Key: 'n', Note: "no"}, "1=n [2=.] 3=. 4=. 5=. 6=.", false},
		{review.Answer{Key: 's'}, "1=n [2=.] 3=. 4=. 5=. 6=.", true},
		{review.Answer{Key: '?'}, "1=n [2=.] 3=. 4=. 5=. 6=.", true},
		{review.Answer{Key: 'y'}, "1=n 2=y [3=.] 4=. 5=. 6=.", false},
		{review.Answer{Key: 'd', Note: "later"}, "1=n 2=y 3=n [4=.] 5=. 6=.", false},
		{review.Answer{Key: 'A'}, "1=n 2=y 3=n 4=y 5=y [6=.]", false},
		{review.Answer{Key: 'q'}, "1=n 2=y 3=n 4=y 5=y [6=n]", false},
	}
	for i, s := range steps {
		err := r.Answer(s.a)
		if (err != nil) != s.err {
			t.Errorf("step %d, answer %q: got error %v, want error %v", i+1, s.a.Key, err, s.err)
		}
		if got := state(r); got != s.want {
			t.Errorf("step %d, answer %q: got state %q, want %q", i+1, s.a.Key, got, s.want)
		}
	}
	if got, want := notes(r), "1:no 3:later"; got != want {
		t.Errorf("got notes %q, want %q", got, want)
	}
	if !r.Quit || !slices.Equal(r.Grants, []string{"util/strings.go"}) {
		t.Errorf("got Quit %v, grants %q, want true, [util/strings.go]", r.Quit, r.Grants)
	}
}

func TestAnswersErrorMessage(t *testing.T) {
	tests := []struct {
		err  review.AnswersError
		want string
	}{
		{review.AnswersError{Used: 0, Undecided: 6}, "no decisions given for 6 hunks"},
		{review.AnswersError{Used: 0, Undecided: 1}, "no decisions given for 1 hunk"},
		{review.AnswersError{Used: 1, Undecided: 1}, "decisions ran out: 1 decision was given, 1 hunk still undecided"},
		{review.AnswersError{Used: 2, Undecided: 4}, "decisions ran out: 2 decisions were given, 4 hunks still undecided"},
		{review.AnswersError{Used: 1, Extra: true}, "more decisions than hunks: 1 decision decided every hunk, and more were given"},
		{review.AnswersError{Used: 4, Extra: true}, "more decisions than hunks: 4 decisions decided every hunk, and more were given"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("%+v: got %q, want %q", tt.err, got, tt.want)
		}
	}
}
