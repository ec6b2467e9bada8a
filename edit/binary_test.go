package edit_test

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/pair-cli/pair/edit"
)

// readBinaryData reads a file of testdata/binary (made with git diff
// --binary: a.bin modified by a delta, b.bin deleted, c.bin created).
func readBinaryData(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/binary/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func binaryFiles(t *testing.T, patch string) map[string]*edit.FileDiff {
	t.Helper()
	p, err := edit.Parse(patch)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	out := map[string]*edit.FileDiff{}
	for _, f := range p.Files {
		out[f.Path()] = f
	}
	return out
}

func TestApplyBinary(t *testing.T) {
	patch := readBinaryData(t, "delta.patch")
	files := binaryFiles(t, patch)
	aOld, aNew, bOld := readBinaryData(t, "a.old"), readBinaryData(t, "a.new"), readBinaryData(t, "b.old")
	for _, tt := range []struct {
		path, old, want string
		delta           bool
	}{
		{"a.bin", aOld, aNew, true},
		{"b.bin", bOld, "", false},
		{"c.bin", "", "PNG\x00\x01\x02", false},
	} {
		f := files[tt.path]
		if f == nil || !f.Binary || f.BinaryPatch == nil {
			t.Fatalf("%s: got %+v, want a binary file diff with its data", tt.path, f)
		}
		if f.BinaryPatch.Forward.Delta != tt.delta {
			t.Errorf("%s: got delta %v, want %v", tt.path, f.BinaryPatch.Forward.Delta, tt.delta)
		}
		got, err := f.ApplyBinary(tt.old)
		if err != nil || got != tt.want {
			t.Errorf("%s: ApplyBinary: got %d bytes, %v; want %d bytes", tt.path, len(got), err, len(tt.want))
		}
		// git writes the reverse hunk too: it makes the old content back.
		back := []byte(tt.want)
		if r := f.BinaryPatch.Reverse; r.Delta {
			if back, err = edit.ApplyDelta(back, r.Data); err != nil {
				t.Fatalf("%s: reverse delta: %v", tt.path, err)
			}
		} else {
			back = r.Data
		}
		if string(back) != tt.old {
			t.Errorf("%s: the reverse hunk gives %d bytes, want the %d of the old content", tt.path, len(back), len(tt.old))
		}
	}
}

func TestApplyBinaryMismatch(t *testing.T) {
	patch := readBinaryData(t, "delta.patch")
	aOld := readBinaryData(t, "a.old")
	other := "X" + aOld[1:]
	files := binaryFiles(t, patch)
	if _, err := files["a.bin"].ApplyBinary(other); !errors.Is(err, edit.ErrBinaryMismatch) || !strings.Contains(err.Error(), "a.bin") {
		t.Errorf("ApplyBinary(other content): got %v, want ErrBinaryMismatch naming a.bin", err)
	}
	if _, err := files["c.bin"].ApplyBinary("exists"); !errors.Is(err, edit.ErrBinaryMismatch) {
		t.Errorf("ApplyBinary(a created file that exists): got %v, want ErrBinaryMismatch", err)
	}
	// Abbreviated ids are checked by their prefix.
	full := files["a.bin"]
	short := strings.Replace(patch, "index "+full.OldID+".."+full.NewID, "index "+full.OldID[:7]+".."+full.NewID[:7], 1)
	if got, err := binaryFiles(t, short)["a.bin"].ApplyBinary(aOld); err != nil || got != readBinaryData(t, "a.new") {
		t.Errorf("ApplyBinary with abbreviated ids: got %d bytes, %v; want the new content", len(got), err)
	}
	wrong := strings.Replace(patch, "index "+full.OldID+".."+full.NewID, "index "+full.OldID[:7]+"..0123456", 1)
	if _, err := binaryFiles(t, wrong)["a.bin"].ApplyBinary(aOld); !errors.Is(err, edit.ErrBinaryMismatch) || !strings.Contains(err.Error(), "0123456") {
		t.Errorf("ApplyBinary with a wrong new id: got %v, want ErrBinaryMismatch naming 0123456", err)
	}
}

func TestApplyBinaryNoData(t *testing.T) {
	f := binaryFiles(t, "diff --git a/logo.png b/logo.png\nindex 1234567..89abcde 100644\nBinary files a/logo.png and b/logo.png differ\n")["logo.png"]
	if _, err := f.ApplyBinary("x"); !errors.Is(err, edit.ErrBinaryNoData) || !strings.Contains(err.Error(), "logo.png") {
		t.Errorf("ApplyBinary: got %v, want ErrBinaryNoData naming logo.png", err)
	}
}

func TestParseCorruptBinary(t *testing.T) {
	patch := readBinaryData(t, "delta.patch")
	for name, bad := range map[string]string{
		"bad character":   strings.Replace(patch, "literal 6\n", "literal 6\n}", 1),
		"wrong size":      strings.Replace(patch, "literal 6\n", "literal 7\n", 1),
		"length letter":   strings.Replace(patch, "literal 300\n", "literal 300\n~", 1),
		"no hunk":         "diff --git a/x b/x\nindex 1234567..89abcde 100644\nGIT binary patch\n\n",
		"cut short":       patch[:strings.Index(patch, "literal 300")+len("literal 300\n")+10],
		"negative size":   strings.Replace(patch, "literal 6\n", "literal -6\n", 1),
		"too large":       strings.Replace(patch, "literal 6\n", "literal 99999999999\n", 1),
		"wrong delta src": strings.Replace(patch, "delta 78\n", "delta 79\n", 1),
	} {
		if _, err := edit.Parse(bad); err == nil || !strings.Contains(err.Error(), "corrupt binary patch") {
			t.Errorf("%s: Parse: got %v, want a corrupt binary patch error", name, err)
		}
	}
}

func TestApplyDelta(t *testing.T) {
	src := []byte("0123456789")
	big := bytes.Repeat([]byte("ab"), 0x8000) // 0x10000 bytes
	for _, tt := range []struct {
		name, want string
		src, delta []byte
		err        bool
	}{
		// 10 -> 7: copy 3 bytes at offset 2, insert "xy", copy 2 at 8.
		{name: "copy and insert", src: src, delta: []byte{10, 7, 0x91, 2, 3, 2, 'x', 'y', 0x91, 8, 2}, want: "234xy89"},
		{name: "size 0 copies 0x10000", src: big, delta: []byte{0x80, 0x80, 4, 0x80, 0x80, 4, 0x80}, want: string(big)},
		{name: "offset of two bytes", src: big, delta: []byte{0x80, 0x80, 4, 2, 0x93, 0x00, 0x01, 2}, want: "ab"},
		{name: "opcode 0", src: src, delta: []byte{10, 1, 0}, err: true},
		{name: "copy out of bounds", src: src, delta: []byte{10, 3, 0x91, 9, 3}, err: true},
		{name: "insert past the end", src: src, delta: []byte{10, 5, 5, 'a'}, err: true},
		{name: "more than the target size", src: src, delta: []byte{10, 1, 2, 'a', 'b'}, err: true},
		{name: "less than the target size", src: src, delta: []byte{10, 3, 1, 'a'}, err: true},
		{name: "wrong source size", src: src, delta: []byte{9, 1, 1, 'a'}, err: true},
		{name: "header cut short", src: src, delta: []byte{0x8a}, err: true},
		{name: "copy opcode cut short", src: src, delta: []byte{10, 1, 0x91, 1}, err: true},
	} {
		got, err := edit.ApplyDelta(tt.src, tt.delta)
		if (err != nil) != tt.err || err == nil && string(got) != tt.want {
			t.Errorf("%s: got %q, %v; want %q, error %v", tt.name, clipString(string(got)), err, clipString(tt.want), tt.err)
		}
	}
}

func clipString(s string) string {
	if len(s) > 20 {
		return s[:20] + "…"
	}
	return s
}

func TestBlobID(t *testing.T) {
	// git hash-object of "hello\n", and of nothing.
	for in, want := range map[string]string{"hello\n": "ce013625030ba8dba906f756967f9e9ca394464a", "": "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"} {
		if got := edit.BlobID(in, ""); got != want {
			t.Errorf("BlobID(%q): got %s, want %s", in, got, want)
		}
	}
	// git hash-object --object-format=sha256 of "hello\n".
	if got := edit.BlobID("hello\n", strings.Repeat("0", 64)); got != "2cf8d83d9ee29543b34a87727421fdecb7e3f3a183d337639025de576db9ebb4" {
		t.Errorf("BlobID(sha256): got %s", got)
	}
}

// FuzzBinaryHunk feeds the decoders of a binary patch any lines: they
// must fail or give exactly the size the header states, and never panic.
func FuzzBinaryHunk(f *testing.F) {
	patch, err := os.ReadFile("testdata/binary/delta.patch")
	if err != nil {
		f.Fatal(err)
	}
	lines := strings.Split(string(patch), "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "literal ") && !strings.HasPrefix(lines[i], "delta ") {
			continue
		}
		end := i + 1
		for end < len(lines) && lines[end] != "" {
			end++
		}
		f.Add(strings.Join(lines[i:end], "\n"), []byte("0123456789"))
	}
	f.Add("literal 5\nMcmZQzWMXCk000>P3jhEB", []byte{})
	f.Add("delta 11\nMcmZQzWMXCk000>P3jhEB", []byte{10, 7, 0x91, 2, 3, 2, 'x', 'y', 0x91, 8, 2})
	f.Fuzz(func(t *testing.T, hunk string, delta []byte) {
		lines := strings.Split(hunk, "\n")
		if len(lines) > 0 {
			if h, err := edit.DecodeBinaryHunk(lines); err == nil {
				var size int
				if _, n, ok := strings.Cut(lines[0], " "); ok {
					for _, c := range n {
						size = size*10 + int(c-'0')
					}
				}
				if len(h.Data) != size {
					t.Errorf("decoded %d bytes, the header says %d", len(h.Data), size)
				}
			}
		}
		src := []byte("0123456789")
		if out, err := edit.ApplyDelta(src, delta); err == nil && len(out) > 0 && len(delta) < 3 {
			t.Errorf("a delta of %d bytes made %d bytes", len(delta), len(out))
		}
	})
}
