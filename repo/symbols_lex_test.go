package repo

import (
	"fmt"
	"strings"
	"testing"
)

// TestPythonSymbols: a class's members are the statements at its body's
// indent, dunder methods included; a nested class's methods and the
// continuation lines of a call or signature are not members.
func TestPythonSymbols(t *testing.T) {
	t.Parallel()
	src := `class Dep(object):
    """Doc."""

    class _Helper(str):
        def __eq__(self, other):
            return True

    def __init__(self, version,
                 dep=None):
        self.x = f(a=1,
                   b=2)

    @property
    def name(self):
        return 1

LIMIT = dict(a=1,
             b=2)
`
	var got []string
	for _, d := range pythonSymbols("a.py", []byte(src)).defs {
		got = append(got, fmt.Sprintf("%d %s", d.parent, d.text))
	}
	want := "-1 class Dep(object)|0 def __init__(self, version, dep=None)|0 def name(self)|-1 LIMIT = dict(a=1,"
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("pythonSymbols:\n got %s\nwant %s", g, want)
	}
}
