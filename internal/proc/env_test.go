package proc

import (
	"slices"
	"testing"
)

func TestEnv(t *testing.T) {
	env := []string{
		"PATH=/bin", "HOME=/h", "EMPTY=", "OTHER=sk-secret-10", "=C:=C:\\",
		"OPENAI_API_KEY=sk-secret-1", "COPY=sk-secret-1", "MY_PROVIDER=sk-other",
		"GITHUB_TOKEN=g", "github_token=g", "AWS_SECRET_ACCESS_KEY=a", "AWS_SESSION_TOKEN=s",
		"CLIENT_SECRET=c", "DB_PASSWORD=p", "TOKEN=t", "ANTHROPIC_API_KEY=x", "GOOGLE_APIKEY=y",
		"TOKENIZER=keep", "SECRETARY=keep", "PASSWORD_FILE=keep", "AWS_ACCESS_KEY_ID=keep",
	}
	got := Env(env, "sk-secret-1", "MY_PROVIDER")
	want := []string{"PATH=/bin", "HOME=/h", "EMPTY=", "OTHER=sk-secret-10", "=C:=C:\\",
		"TOKENIZER=keep", "SECRETARY=keep", "PASSWORD_FILE=keep", "AWS_ACCESS_KEY_ID=keep"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q,\nwant %q", got, want)
	}
	// Without a key, an empty value is no key: EMPTY stays, and the
	// secret names go all the same.
	got = Env(env, "")
	if !slices.Contains(got, "EMPTY=") || !slices.Contains(got, "COPY=sk-secret-1") || slices.Contains(got, "OPENAI_API_KEY=sk-secret-1") {
		t.Errorf("no key: got %q", got)
	}
}
