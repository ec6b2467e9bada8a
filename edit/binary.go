// binary.go: binary patches: base85, zlib and git's delta format, checked against the index line's ids.

package edit

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ErrBinaryNoData is returned for a binary file whose diff has no data
// ("Binary files a/x and b/x differ"): there is nothing to write.
var ErrBinaryNoData = errors.New("the patch has no data for this binary file, only \"Binary files differ\" (make it with git diff --binary)")

// ErrBinaryMismatch is returned when a binary patch does not fit the file
// or does not give the blob its index line names.
var ErrBinaryMismatch = errors.New("binary patch does not match")

// BinaryPatch is the data of a "GIT binary patch" section: the hunk that
// makes the new content and, as git writes it too, the one that makes the
// old content back from the new.
type BinaryPatch struct {
	Forward, Reverse *BinaryHunk
}

// BinaryHunk is one direction of a binary patch, inflated.
type BinaryHunk struct {
	// Delta says Data is a git delta against the other side's content;
	// otherwise Data is the content itself ("literal").
	Delta bool
	Data  []byte
}

// binaryPatch reads the hunks after a "GIT binary patch" line into the
// current file: a forward hunk, an empty line, and an optional reverse
// hunk. Lines that are not a hunk header end it.
func (p *parser) binaryPatch() error {
	f := p.cur
	f.Binary = true
	p.i++
	bp := &BinaryPatch{}
	for _, h := range []**BinaryHunk{&bp.Forward, &bp.Reverse} {
		if p.i >= len(p.lines) || !isBinaryHunkHeader(p.lines[p.i]) {
			break
		}
		end := p.i + 1
		for end < len(p.lines) && p.lines[end] != "" {
			end++
		}
		hunk, err := decodeBinaryHunk(p.lines[p.i:end])
		if err != nil {
			return fmt.Errorf("corrupt binary patch for %s at line %d: %w", f.Path(), p.i+1, err)
		}
		*h = hunk
		p.i = min(end+1, len(p.lines))
	}
	if bp.Forward == nil {
		return fmt.Errorf("corrupt binary patch for %s at line %d: no \"literal\" or \"delta\" hunk", f.Path(), p.i+1)
	}
	f.BinaryPatch = bp
	return nil
}

func isBinaryHunkHeader(l string) bool {
	return strings.HasPrefix(l, "literal ") || strings.HasPrefix(l, "delta ")
}

// maxBinarySize bounds the inflated size a hunk may state (git's own
// limit is the memory it can get): a patch is text, and 1 GiB of it is
// not a patch anyone reviews.
const maxBinarySize = 1 << 30

// decodeBinaryHunk decodes the lines of one binary hunk: "literal N" or
// "delta N" (N the inflated size), then base85 lines, each with its
// length as its first letter, of zlib-deflated data.
func decodeBinaryHunk(lines []string) (*BinaryHunk, error) {
	kind, num, _ := strings.Cut(lines[0], " ")
	size, err := strconv.ParseInt(num, 10, 64)
	if err != nil || size < 0 || size > maxBinarySize {
		return nil, fmt.Errorf("bad size in %q", lines[0])
	}
	var deflated []byte
	for i, l := range lines[1:] {
		b, err := decodeBase85Line(l)
		if err != nil {
			return nil, fmt.Errorf("line %d of the hunk: %w", i+2, err)
		}
		deflated = append(deflated, b...)
	}
	data, err := inflate(deflated, int(size))
	if err != nil {
		return nil, err
	}
	return &BinaryHunk{Delta: kind == "delta", Data: data}, nil
}

// inflate undoes zlib and checks that the data is exactly size bytes.
func inflate(deflated []byte, size int) ([]byte, error) {
	zr, err := zlib.NewReader(bytes.NewReader(deflated))
	if err != nil {
		return nil, fmt.Errorf("inflate: %w", err)
	}
	out := make([]byte, 0, min(size, 1<<20))
	buf := bytes.NewBuffer(out)
	n, err := io.Copy(buf, io.LimitReader(zr, int64(size)+1))
	if err != nil {
		return nil, fmt.Errorf("inflate: %w", err)
	}
	if n != int64(size) {
		return nil, fmt.Errorf("inflated to %d bytes, the header says %d", n, size)
	}
	if err := zr.Close(); err != nil {
		return nil, fmt.Errorf("inflate: %w", err)
	}
	return buf.Bytes(), nil
}

// base85 is git's alphabet of 85 characters (base85.c).
const base85 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~"

// decodeBase85Line decodes one data line: a length letter ('A'-'Z' for 1
// to 26 bytes, 'a'-'z' for 27 to 52), then five characters for each four
// bytes, the last group padded.
func decodeBase85Line(l string) ([]byte, error) {
	if l == "" {
		return nil, errors.New("empty data line")
	}
	var n int
	switch c := l[0]; {
	case c >= 'A' && c <= 'Z':
		n = int(c-'A') + 1
	case c >= 'a' && c <= 'z':
		n = int(c-'a') + 27
	default:
		return nil, fmt.Errorf("bad length letter %q", c)
	}
	enc := l[1:]
	if len(enc) != (n+3)/4*5 {
		return nil, fmt.Errorf("%d characters for %d bytes, want %d", len(enc), n, (n+3)/4*5)
	}
	out := make([]byte, 0, n)
	for g := 0; g < len(enc); g += 5 {
		var acc uint64
		for _, c := range []byte(enc[g : g+5]) {
			d := strings.IndexByte(base85, c)
			if d < 0 {
				return nil, fmt.Errorf("bad base85 character %q", c)
			}
			acc = acc*85 + uint64(d)
		}
		if acc > 0xffffffff {
			return nil, errors.New("base85 group overflows 32 bits")
		}
		for k := 0; k < 4 && len(out) < n; k++ {
			out = append(out, byte(acc>>(24-8*k)))
		}
	}
	return out, nil
}

// applyDelta applies a git delta (patch-delta.c's format) to src: the
// source and target sizes as little-endian base-128 numbers, then
// opcodes: with the high bit, a copy from src (the low four bits say which
// offset bytes follow, the next three which size bytes; size 0 means
// 0x10000); without it, 1 to 127 bytes inserted from the delta. Opcode 0
// is reserved.
func applyDelta(src, delta []byte) ([]byte, error) {
	srcSize, delta, err := deltaSize(delta)
	if err != nil {
		return nil, err
	}
	if srcSize != uint64(len(src)) {
		return nil, fmt.Errorf("delta for a source of %d bytes, the source has %d", srcSize, len(src))
	}
	dstSize, delta, err := deltaSize(delta)
	if err != nil {
		return nil, err
	}
	if dstSize > maxBinarySize {
		return nil, fmt.Errorf("delta target of %d bytes is too large", dstSize)
	}
	out := make([]byte, 0, min(dstSize, 1<<20))
	left := dstSize
	for len(delta) > 0 {
		cmd := delta[0]
		delta = delta[1:]
		switch {
		case cmd&0x80 != 0:
			var off, size uint64
			for bit := range 7 {
				if cmd&(1<<bit) == 0 {
					continue
				}
				if len(delta) == 0 {
					return nil, errors.New("delta ends inside a copy opcode")
				}
				if bit < 4 {
					off |= uint64(delta[0]) << (8 * bit)
				} else {
					size |= uint64(delta[0]) << (8 * (bit - 4))
				}
				delta = delta[1:]
			}
			if size == 0 {
				size = 0x10000
			}
			if off+size > uint64(len(src)) || size > left {
				return nil, fmt.Errorf("delta copies %d bytes at %d, out of bounds", size, off)
			}
			out = append(out, src[off:off+size]...)
			left -= size
		case cmd != 0:
			size := uint64(cmd)
			if size > uint64(len(delta)) || size > left {
				return nil, fmt.Errorf("delta inserts %d bytes, out of bounds", size)
			}
			out = append(out, delta[:size]...)
			delta = delta[size:]
			left -= size
		default:
			return nil, errors.New("unexpected delta opcode 0")
		}
	}
	if left != 0 {
		return nil, fmt.Errorf("delta made %d bytes, its header says %d", dstSize-left, dstSize)
	}
	return out, nil
}

// deltaSize reads one size of a delta's header.
func deltaSize(d []byte) (uint64, []byte, error) {
	var size uint64
	for i := 0; i < len(d); i++ {
		if i >= 9 {
			return 0, nil, errors.New("delta size too large")
		}
		size |= uint64(d[i]&0x7f) << (7 * i)
		if d[i]&0x80 == 0 {
			return size, d[i+1:], nil
		}
	}
	return 0, nil, errors.New("delta header cut short")
}

// apply makes the other side from base: the literal content, or the
// delta applied to base.
func (h *BinaryHunk) apply(base []byte) ([]byte, error) {
	if !h.Delta {
		return h.Data, nil
	}
	return applyDelta(base, h.Data)
}

// BlobID is git's object id of a blob holding content: SHA-1, or SHA-256
// when like (an id of the repository, or "") has 64 digits.
func BlobID(content, like string) string {
	head := "blob " + strconv.Itoa(len(content)) + "\x00"
	if len(like) == 64 {
		h := sha256.New()
		io.WriteString(h, head)
		io.WriteString(h, content)
		return hex.EncodeToString(h.Sum(nil))
	}
	h := sha1.New()
	io.WriteString(h, head)
	io.WriteString(h, content)
	return hex.EncodeToString(h.Sum(nil))
}

// indexIDs reads the blob ids of an "index <old>..<new> [mode]" line.
func indexIDs(v string) (old, nw string) {
	ids, _, _ := strings.Cut(v, " ")
	old, nw, ok := strings.Cut(ids, "..")
	if !ok || !isHexID(old) || !isHexID(nw) {
		return "", ""
	}
	return strings.ToLower(old), strings.ToLower(nw)
}

func isHexID(s string) bool {
	if len(s) < 4 || len(s) > 40 && len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s + s[:len(s)%2])
	return err == nil
}

// zeroID reports whether id is git's null id (a side that does not exist).
func zeroID(id string) bool { return strings.Trim(id, "0") == "" }

// sameBlob reports whether content is the blob id names, by the whole id
// or the abbreviation the patch gives.
func sameBlob(content, id string) bool {
	return strings.HasPrefix(BlobID(content, id), id)
}

// ApplyBinary returns what the binary patch of f makes of old, the
// file's content, checked as git checks it: old must be the blob of the
// index line's first id, and the result the blob of its second (whole
// ids, or the prefix an abbreviated one gives). It fails with
// ErrBinaryNoData for a diff without data, and ErrBinaryMismatch when the
// blobs do not match.
func (f *FileDiff) ApplyBinary(old string) (string, error) {
	if f.BinaryPatch == nil {
		return "", fmt.Errorf("%s: %w", f.Path(), ErrBinaryNoData)
	}
	if f.OldID == "" || f.NewID == "" {
		return "", fmt.Errorf("%s: cannot apply a binary patch without an index line naming its blobs", f.Path())
	}
	if zeroID(f.OldID) && old != "" || !zeroID(f.OldID) && !sameBlob(old, f.OldID) {
		return "", fmt.Errorf("%s: %w: the patch applies to blob %s, the file is blob %s", f.Path(), ErrBinaryMismatch, f.OldID, BlobID(old, f.OldID)[:len(f.OldID)])
	}
	out, err := f.BinaryPatch.Forward.apply([]byte(old))
	if err != nil {
		return "", fmt.Errorf("%s: binary patch: %w", f.Path(), err)
	}
	res := string(out)
	if zeroID(f.NewID) && res != "" || !zeroID(f.NewID) && !sameBlob(res, f.NewID) {
		return "", fmt.Errorf("%s: %w: the result is blob %s, the patch's index line names %s", f.Path(), ErrBinaryMismatch, BlobID(res, f.NewID)[:len(f.NewID)], f.NewID)
	}
	return res, nil
}
