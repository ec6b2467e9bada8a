package bench

import "testing"

func TestMeasureSent(t *testing.T) {
	body := []byte(`{"messages":[{"role":"user","content":"read a.go"},{"role":"tool","content":"a.go: lines 1-1 of 1\n1\tpackage a\n"}]}`)
	got := MeasureSent([][]byte{body, body, []byte("not json")})
	if got.Chars != 2*(9+33) || got.ToolChars != 2*33 {
		t.Errorf("got %+v, want the decoded content counted per request: 84 characters, 66 of tool results", got)
	}
	if got.ToolTokens == 0 || got.Tokens <= got.ToolTokens {
		t.Errorf("got %+v, want token estimates for both", got)
	}
	if n := EstimateTokens("func Greet(name string) string {"); n < 6 || n > 12 {
		t.Errorf("EstimateTokens: got %d for a line of Go, want about 9", n)
	}
}
