//go:build unix

package repo

import (
	"errors"
	"fmt"
	"os"
	"testing"
	"time"
)

// TestWriterLockBusy: while one Tree holds the writer lock, a write
// through another fails after its bounded wait with a message naming the
// holder's pid, and writes nothing; once released, it goes through. A
// Tree takes its own lock again (ApplyPlans, then Write).
func TestWriterLockBusy(t *testing.T) {
	t.Parallel()
	for _, git := range []bool{true, false} {
		t.Run(fmt.Sprintf("git=%v", git), func(t *testing.T) {
			dir := crashTree(t, git)
			holder, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer holder.Close()
			release, err := holder.lockWrites()
			if err != nil {
				t.Fatal(err)
			}
			again, err := holder.lockWrites()
			if err != nil {
				t.Fatalf("the holder takes its lock again: %v", err)
			}
			again()

			other, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer other.Close()
			other.LockWait = time.Millisecond
			before := treeState(t, dir)
			err = other.Write(changesTo(oldSet(), newSet()))
			var busy *BusyError
			if !errors.As(err, &busy) || !errors.Is(err, ErrBusy) {
				t.Fatalf("Write while another holds the lock: got %v, want a *BusyError", err)
			}
			want := fmt.Sprintf("another pair is applying in this repository (pid %d); try again when it is done", os.Getpid())
			if !git {
				want = "another pair is applying in this repository; try again when it is done"
			}
			if err.Error() != want {
				t.Errorf("got %q, want %q", err, want)
			}
			if !sameState(treeState(t, dir), before) {
				t.Errorf("a refused write changed the tree")
			}
			release()
			if err := other.Write(changesTo(oldSet(), newSet())); err != nil {
				t.Fatalf("Write once the lock is released: %v", err)
			}
		})
	}
}
