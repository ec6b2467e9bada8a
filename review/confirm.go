// confirm.go: Terminal.Confirm, a yes or no for a command or a tool call.

package review

import (
	"context"
	"errors"
	"strings"
)

// Confirm asks the person a yes-or-no question on the terminal, as Web's
// Confirm does in the page: title in bold, then detail. Detail's first
// paragraph (up to a blank line) is what is asked about, shown indented
// and in yellow; the rest are notes, shown indented. It returns whether
// they pressed y (n says no), ErrInterrupted at Ctrl-C or when ctx ends,
// or ErrInputEnded when the keys stop. The terminal answers no note.
func (t *Terminal) Confirm(ctx context.Context, title, detail string) (yes bool, note string, err error) {
	what, notes, _ := strings.Cut(detail, "\n\n")
	t.printf("\n%s\n", t.paint(cBold, title))
	for _, l := range strings.Split(what, "\n") {
		t.printf("  %s\n", t.paint(cYellow, l))
	}
	if notes != "" {
		for _, l := range strings.Split(notes, "\n") {
			t.printf("  %s\n", l)
		}
	}
	for {
		t.printf("%s ", t.paint(cPrompt, "Run it [y,n]?"))
		k, err := t.key(ctx)
		switch {
		case errors.Is(err, ErrInputEnded) && !t.ended:
			// Ctrl-D is a key like any other here.
		case err != nil:
			t.printf("\n")
			return false, "", err
		case k == 'y' || k == 'n':
			t.printf("%c\n", k)
			return k == 'y', "", nil
		}
		t.printf("\n")
	}
}
