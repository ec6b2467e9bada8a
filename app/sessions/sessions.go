// Package sessions is pair sessions without its flags: the saved pair
// edit sessions of a repository listed (List), or removed (Remove).
package sessions

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/app/chat"
	"github.com/pair-cli/pair/internal/console"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/safetext"
	"github.com/pair-cli/pair/repo"
)

// Options are the options of pair sessions and pair sessions rm.
type Options struct {
	Dir string
	// Remove names the sessions to remove (pair sessions rm); Remove
	// takes them, List ignores them.
	Remove []string
	JSON   bool // List only
	// Names lists the names alone, one a line, for shell completion
	// (List only).
	Names bool
	IO    console.IO
	// OpenTree opens the working tree that holds a directory.
	OpenTree func(dir string) (*repo.Tree, error)
}

// List runs pair sessions: the saved sessions, the latest first, on
// o.IO.Out.
func List(ctx context.Context, o Options) error {
	tree, err := o.OpenTree(o.Dir)
	if err != nil {
		return fmt.Errorf("sessions: %w", err)
	}
	defer tree.Close()
	list, err := chat.Store(tree).List()
	if err != nil {
		return fmt.Errorf("sessions: %w", err)
	}
	if o.Names {
		for _, s := range list {
			if s.Name == safetext.Name(s.Name) && !strings.ContainsAny(s.Name, " \t'\"\\$`") {
				fmt.Fprintln(o.IO.Out, s.Name)
			}
		}
		return nil
	}
	if o.JSON {
		if list == nil {
			list = []agent.SessionInfo{}
		}
		output.WriteJSON(o.IO.Out, list)
		return nil
	}
	out := o.IO.Out
	if len(list) == 0 {
		fmt.Fprintln(out, "no sessions yet (pair edit starts one)")
		return nil
	}
	fmt.Fprintf(out, "%-34s  %-16s  %-7s  %-16s  %s\n", "SESSION", "LAST ACTIVITY", "REVIEW", "MODEL", "LAST REQUEST")
	for _, s := range list {
		pending := "-"
		if s.Pending {
			pending = "waiting"
		}
		when := s.Updated.Local().Format(time.DateTime[:16])
		if s.Err != "" {
			fmt.Fprintf(out, "%-34s  %-16s  unreadable: %s\n", s.Name, when, s.Err)
			continue
		}
		fmt.Fprintf(out, "%-34s  %-16s  %-7s  %-16s  %s\n", s.Name, when, pending, safetext.Name(s.Model), output.OneLine(s.Request, 60))
	}
	return nil
}

// Remove runs pair sessions rm: it removes the sessions o.Remove names,
// in order, saying so for each on o.IO.Out. A name that cannot be a
// session's is a usage error.
func Remove(ctx context.Context, o Options) error {
	tree, err := o.OpenTree(o.Dir)
	if err != nil {
		return fmt.Errorf("sessions: %w", err)
	}
	defer tree.Close()
	store := chat.Store(tree)
	for _, name := range o.Remove {
		if err := store.Remove(name); err != nil {
			if errors.Is(err, agent.ErrBadSessionName) {
				return output.Usagef("sessions rm: %v", err)
			}
			return fmt.Errorf("sessions rm: %w", err)
		}
		fmt.Fprintf(o.IO.Out, "removed %s\n", name)
	}
	return nil
}
