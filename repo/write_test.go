package repo_test

import (
	"errors"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/pair-cli/pair/repo"
)

// startFiles is the tree most Write tests start from.
var startFiles = map[string]file{
	"exec.sh":        {content: "#!/bin/sh\necho old\n", mode: 0o755},
	"private.txt":    {content: "private\n", mode: 0o600},
	"plain.txt":      {content: "plain\n", mode: 0o644},
	"dir/nested.txt": {content: "nested\n", mode: 0o644},
	"blocker":        {content: "I am a file, not a directory\n", mode: 0o644},
	"emptydir/.keep": {content: "", mode: 0o644},
}

func TestWrite(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		changes []repo.Change
		// want is what changes relative to startFiles: nil entries are
		// removed files.
		want map[string]*entry
	}{
		{
			name:    "nothing",
			changes: nil,
		},
		{
			name:    "keeps an executable's mode",
			changes: []repo.Change{{Path: "exec.sh", Content: []byte("#!/bin/sh\necho new\n")}},
			want:    map[string]*entry{"exec.sh": {kind: "file", mode: 0o755, content: "#!/bin/sh\necho new\n"}},
		},
		{
			name:    "keeps a private file's mode",
			changes: []repo.Change{{Path: "private.txt", Content: []byte("still private\n")}},
			want:    map[string]*entry{"private.txt": {kind: "file", mode: 0o600, content: "still private\n"}},
		},
		{
			name: "sets the mode given",
			changes: []repo.Change{
				{Path: "plain.txt", Content: []byte("now executable\n"), Mode: 0o755},
				{Path: "exec.sh", Content: []byte("no longer\n"), Mode: 0o644},
				{Path: "new.sh", Content: []byte("#!/bin/sh\n"), Mode: 0o755},
				{Path: "secret/new.txt", Content: []byte("s\n"), Mode: 0o600},
			},
			want: map[string]*entry{
				"plain.txt":      {kind: "file", mode: 0o755, content: "now executable\n"},
				"exec.sh":        {kind: "file", mode: 0o644, content: "no longer\n"},
				"new.sh":         {kind: "file", mode: 0o755, content: "#!/bin/sh\n"},
				"secret":         {kind: "dir", mode: 0o755},
				"secret/new.txt": {kind: "file", mode: 0o600, content: "s\n"},
			},
		},
		{
			name: "several files together, with new directories",
			changes: []repo.Change{
				{Path: "plain.txt", Content: []byte("one\n")},
				{Path: "dir/nested.txt", Content: []byte("two\n")},
				{Path: "dir/new.txt", Content: []byte("three\n")},
				{Path: "a/b/c/deep.txt", Content: []byte("four\n")},
				{Path: "a/b/other.txt", Content: []byte("five\n")},
				{Path: "top.txt", Content: []byte("six\n")},
			},
			want: map[string]*entry{
				"plain.txt":      {kind: "file", mode: 0o644, content: "one\n"},
				"dir/nested.txt": {kind: "file", mode: 0o644, content: "two\n"},
				"dir/new.txt":    {kind: "file", mode: 0o644, content: "three\n"},
				"a":              {kind: "dir", mode: 0o755},
				"a/b":            {kind: "dir", mode: 0o755},
				"a/b/c":          {kind: "dir", mode: 0o755},
				"a/b/c/deep.txt": {kind: "file", mode: 0o644, content: "four\n"},
				"a/b/other.txt":  {kind: "file", mode: 0o644, content: "five\n"},
				"top.txt":        {kind: "file", mode: 0o644, content: "six\n"},
			},
		},
		{
			name: "empty content",
			changes: []repo.Change{
				{Path: "plain.txt", Content: nil},
				{Path: "empty.txt", Content: []byte{}},
			},
			want: map[string]*entry{
				"plain.txt": {kind: "file", mode: 0o644},
				"empty.txt": {kind: "file", mode: 0o644},
			},
		},
		{
			name: "deletes",
			changes: []repo.Change{
				{Path: "plain.txt", Delete: true},
				{Path: "dir/nested.txt", Delete: true},
				{Path: "exec.sh", Content: []byte("kept\n")},
			},
			want: map[string]*entry{
				"plain.txt":      nil,
				"dir/nested.txt": nil,
				"dir":            nil, // left empty, so removed as git does
				"exec.sh":        {kind: "file", mode: 0o755, content: "kept\n"},
			},
		},
		{
			name: "delete ignores content and mode",
			changes: []repo.Change{
				{Path: "private.txt", Delete: true, Content: []byte("x"), Mode: 0o777},
			},
			want: map[string]*entry{"private.txt": nil},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			writeFiles(t, root, startFiles)
			want := snapshot(t, root)
			for p, e := range tt.want {
				if e == nil {
					delete(want, p)
				} else {
					want[p] = *e
				}
			}
			tr := openTree(t, root)
			if err := tr.Write(tt.changes); err != nil {
				t.Fatalf("Write: %v", err)
			}
			sameSnapshot(t, "after Write", snapshot(t, root), want)
			noTempFiles(t, root)
		})
	}
}

// TestWriteTwice: a file written by Write is written again, keeping the
// mode the first Write gave it.
func TestWriteTwice(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	tr := openTree(t, root)
	if err := tr.Write([]repo.Change{{Path: "x/run.sh", Content: []byte("1\n"), Mode: 0o750}}); err != nil {
		t.Fatal(err)
	}
	if err := tr.Write([]repo.Change{{Path: "x/run.sh", Content: []byte("2\n")}}); err != nil {
		t.Fatal(err)
	}
	sameSnapshot(t, "after two Writes", snapshot(t, root), map[string]entry{
		"x":        {kind: "dir", mode: 0o755},
		"x/run.sh": {kind: "file", mode: 0o750, content: "2\n"},
	})
}

// TestWriteAllOrNothing makes the last change of a write set fail and
// checks that the tree is exactly as it was: earlier files keep their old
// content and mode, files and directories the call created are gone, and
// no temporary file is left.
func TestWriteAllOrNothing(t *testing.T) {
	t.Parallel()
	// earlier touches every kind of change before the one that fails.
	earlier := []repo.Change{
		{Path: "exec.sh", Content: []byte("changed\n")},
		{Path: "private.txt", Content: []byte("changed\n"), Mode: 0o644},
		{Path: "plain.txt", Delete: true},
		{Path: "dir/nested.txt", Content: []byte("changed\n")},
		{Path: "dir/new.txt", Content: []byte("new\n")},
		{Path: "newdir/sub/new.txt", Content: []byte("new\n")},
		{Path: "emptydir/new.txt", Content: []byte("new\n")},
	}
	tests := []struct {
		name    string
		failing []repo.Change
		// wantErr, when set, is what the error must wrap.
		wantErr error
	}{
		{
			name:    "parent is a regular file",
			failing: []repo.Change{{Path: "blocker/x.txt", Content: []byte("x\n")}},
		},
		{
			name:    "ancestor is a regular file",
			failing: []repo.Change{{Path: "blocker/deeper/x.txt", Content: []byte("x\n")}},
		},
		{
			name:    "parent is an existing file, named as a directory",
			failing: []repo.Change{{Path: "dir/nested.txt/x", Content: []byte("x\n")}},
		},
		{
			name:    "target is a directory",
			failing: []repo.Change{{Path: "dir", Content: []byte("x\n")}},
		},
		{
			name:    "target is a directory created earlier in the set",
			failing: []repo.Change{{Path: "newdir/sub", Content: []byte("x\n")}},
		},
		{
			name:    "deleting a directory",
			failing: []repo.Change{{Path: "emptydir", Delete: true}},
		},
		{
			name:    "deleting a missing file",
			failing: []repo.Change{{Path: "missing.txt", Delete: true}},
			wantErr: fs.ErrNotExist,
		},
		{
			name:    "deleting a missing file in a missing directory",
			failing: []repo.Change{{Path: "nodir/missing.txt", Delete: true}},
			wantErr: fs.ErrNotExist,
		},
		{
			// Found only when renaming into place, after the earlier
			// changes are in: "late" is made a directory by the change
			// after it, so the new file cannot replace it.
			name: "rename phase: a file and a directory of the same name",
			failing: []repo.Change{
				{Path: "late", Content: []byte("file\n")},
				{Path: "late/inside.txt", Content: []byte("inside\n")},
			},
		},
		{
			name:    "escape",
			failing: []repo.Change{{Path: "../escape.txt", Content: []byte("x\n")}},
			wantErr: repo.ErrOutsideRepo,
		},
	}
	for _, tt := range tests {
		for _, first := range []bool{false, true} {
			name := tt.name
			if first {
				name += "/failing first"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				base := t.TempDir()
				root := filepath.Join(base, "root")
				writeFiles(t, root, startFiles)
				tr := openTree(t, root)
				before := snapshot(t, base)
				var changes []repo.Change
				if first {
					changes = append(append(changes, tt.failing...), earlier...)
				} else {
					changes = append(append(changes, earlier...), tt.failing...)
				}
				err := tr.Write(changes)
				if err == nil {
					t.Fatalf("Write: got no error, want one")
				}
				if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
					t.Errorf("Write: got %v, want an error wrapping %v", err, tt.wantErr)
				}
				sameSnapshot(t, "after a failed Write", snapshot(t, base), before)
				noTempFiles(t, base)
			})
		}
	}
}

// TestWriteNewFileModeIgnoresUmask: a new file is 0644 and a new
// directory 0755 whatever the umask. The umask is the process's, so this
// test does not run in parallel with others.
func TestWriteNewFileModeIgnoresUmask(t *testing.T) {
	for _, mask := range []int{0o077, 0o022, 0o000, 0o027} {
		old := setUmask(mask)
		root := t.TempDir()
		writeFiles(t, root, map[string]file{"old.txt": {content: "old\n", mode: 0o664}})
		tr := openTree(t, root)
		err := tr.Write([]repo.Change{
			{Path: "new.txt", Content: []byte("new\n")},
			{Path: "old.txt", Content: []byte("still 664\n")},
			{Path: "given.sh", Content: []byte("x\n"), Mode: 0o775},
		})
		setUmask(old)
		if err != nil {
			t.Fatalf("umask %03o: Write: %v", mask, err)
		}
		want := map[string]entry{
			"new.txt":  {kind: "file", mode: 0o644, content: "new\n"},
			"old.txt":  {kind: "file", mode: 0o664, content: "still 664\n"},
			"given.sh": {kind: "file", mode: 0o775, content: "x\n"},
		}
		sameSnapshot(t, "after Write with a umask", snapshot(t, root), want)
	}
}

// TestWriteDeleteMissingChangesNothing is the simplest all-or-nothing
// case, spelled out.
func TestWriteDeleteMissingChangesNothing(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeFiles(t, root, startFiles)
	tr := openTree(t, root)
	before := snapshot(t, root)
	err := tr.Write([]repo.Change{
		{Path: "plain.txt", Content: []byte("changed\n")},
		{Path: "gone.txt", Delete: true},
		{Path: "new.txt", Content: []byte("new\n")},
	})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Write deleting a missing file: got %v, want an error wrapping fs.ErrNotExist", err)
	}
	sameSnapshot(t, "after deleting a missing file", snapshot(t, root), before)
	noTempFiles(t, root)
}
