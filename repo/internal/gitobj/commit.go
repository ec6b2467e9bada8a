package gitobj

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// ErrMalformed is returned for an object whose encoding git would not
// read.
var ErrMalformed = errors.New("malformed git object")

// Header is one header of a commit. A multi-line value (a gpgsig
// signature, a mergetag) has its lines joined by "\n", without git's
// leading space on each continuation line and without a final newline.
type Header struct {
	Key   string
	Value string
}

// Commit is a commit object as git stores it: its headers in their order
// and its message. Encode writes exactly what Decode read, so a commit
// read and written again keeps its hash; the methods read the headers
// pair uses.
type Commit struct {
	Hash    plumbing.Hash // the object's hash when read from storage; zero for a new commit
	Headers []Header
	Message string
}

// The headers that hold a commit's signature; git leaves them out of the
// payload it signs and verifies.
const (
	HeaderSignature       = "gpgsig"
	HeaderSignatureSHA256 = "gpgsig-sha256"
)

// NewCommit builds a commit as git commit writes it: the tree, the
// parents, the author and the committer, then the message (which git
// ends with a newline).
func NewCommit(tree plumbing.Hash, parents []plumbing.Hash, author, committer Signature, message string) *Commit {
	c := &Commit{Message: message}
	c.Headers = append(c.Headers, Header{"tree", tree.String()})
	for _, p := range parents {
		c.Headers = append(c.Headers, Header{"parent", p.String()})
	}
	c.Headers = append(c.Headers,
		Header{"author", author.String()},
		Header{"committer", committer.String()})
	return c
}

// DecodeCommit reads an encoded commit. It fails only when the headers
// cannot be told apart: a continuation line with no header before it.
func DecodeCommit(b []byte) (*Commit, error) {
	c := &Commit{}
	for len(b) > 0 {
		line, rest, found := bytes.Cut(b, []byte{'\n'})
		if found && len(line) == 0 {
			c.Message = string(rest)
			return c, nil
		}
		b = rest
		if line[0] == ' ' {
			if len(c.Headers) == 0 {
				return nil, fmt.Errorf("%w: commit starts with a continuation line", ErrMalformed)
			}
			h := &c.Headers[len(c.Headers)-1]
			h.Value += "\n" + string(line[1:])
			continue
		}
		key, value, _ := bytes.Cut(line, []byte{' '})
		c.Headers = append(c.Headers, Header{string(key), string(value)})
	}
	return c, nil
}

// Encode returns the commit's encoding, as git hashes and stores it.
func (c *Commit) Encode() []byte {
	return c.encode(false)
}

// Payload returns the encoding without the signature headers (gpgsig,
// gpgsig-sha256): what a signature signs and is checked against.
func (c *Commit) Payload() []byte {
	return c.encode(true)
}

func (c *Commit) encode(unsigned bool) []byte {
	var b bytes.Buffer
	for _, h := range c.Headers {
		if unsigned && (h.Key == HeaderSignature || h.Key == HeaderSignatureSHA256) {
			continue
		}
		b.WriteString(h.Key)
		for i, l := range strings.Split(h.Value, "\n") {
			if i > 0 {
				b.WriteByte('\n')
			}
			if i > 0 || l != "" {
				b.WriteByte(' ')
			}
			b.WriteString(l)
		}
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	b.WriteString(c.Message)
	return b.Bytes()
}

// Sign adds sig (as a signing program prints it) as the gpgsig header,
// after every other header, where git puts it.
func (c *Commit) Sign(sig string) {
	c.Headers = append(c.Headers, Header{HeaderSignature, strings.TrimSuffix(sig, "\n")})
}

// Get returns the value of the first header named key.
func (c *Commit) Get(key string) (string, bool) {
	for _, h := range c.Headers {
		if h.Key == key {
			return h.Value, true
		}
	}
	return "", false
}

// Tree is the hash of the commit's tree; zero when it has none that
// parses.
func (c *Commit) Tree() plumbing.Hash {
	v, _ := c.Get("tree")
	h, _ := parseHash(v)
	return h
}

// Parents are the hashes of the parent headers, in order; one that does
// not parse is the zero hash.
func (c *Commit) Parents() []plumbing.Hash {
	var out []plumbing.Hash
	for _, h := range c.Headers {
		if h.Key == "parent" {
			p, _ := parseHash(h.Value)
			out = append(out, p)
		}
	}
	return out
}

// Author is the commit's author.
func (c *Commit) Author() Signature {
	v, _ := c.Get("author")
	return ParseSignature(v)
}

// Committer is the commit's committer.
func (c *Commit) Committer() Signature {
	v, _ := c.Get("committer")
	return ParseSignature(v)
}

// Encoding is the message's encoding header; "" means UTF-8.
func (c *Commit) Encoding() string {
	v, _ := c.Get("encoding")
	return v
}

// parseHash reads a hash in hexadecimal.
func parseHash(s string) (plumbing.Hash, bool) {
	var h plumbing.Hash
	if len(s) != 2*len(h) {
		return plumbing.ZeroHash, false
	}
	if _, err := hex.Decode(h[:], []byte(s)); err != nil {
		return plumbing.ZeroHash, false
	}
	return h, true
}
