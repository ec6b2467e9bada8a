package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{
		{"4194304", 4 << 20}, {"8MB", 8e6}, {"8 MiB", 8 << 20}, {"512kib", 512 << 10}, {"1.5MB", 1.5e6},
		{"100 bytes", 100}, {"2GB", 2e9}, {" 64KiB ", 64 << 10},
	}
	for _, tt := range tests {
		if got, err := parseSize(tt.in); err != nil || got != tt.want {
			t.Errorf("parseSize(%q): got %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
	for _, in := range []string{"", "MB", "8 parsecs", "0", "0.5", "1.5.2MB", "-1MB", "2TiB", "8M"} {
		if got, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q): got %d, want an error", in, got)
		}
	}
}

// TestStreamSettings: idle_timeout and max_reply come from the file, a
// flag wins over them, and a bad value is refused with its name.
func TestStreamSettings(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, ".pair.yml")
	if err := os.WriteFile(p, []byte("idle_timeout: 30s\nmax_reply: 8388608\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fc, err := Read(p)
	if err != nil {
		t.Fatal(err)
	}
	files := []Source{{Path: p, File: fc}}
	got, err := Merge(Inputs{Files: files, Flags: Flags{MaxRetries: -1}})
	if err != nil || got.IdleTimeout != 30*time.Second || got.MaxReply != 8<<20 {
		t.Errorf("from the file: got %v, %d, %v", got.IdleTimeout, got.MaxReply, err)
	}
	got, err = Merge(Inputs{Files: files, Flags: Flags{MaxRetries: -1, IdleTimeoutSet: true, MaxReply: "1MB"}})
	if err != nil || got.IdleTimeout != -1 || got.MaxReply != 1e6 {
		t.Errorf("with flags: got %v, %d, %v; want no idle bound and 1 MB", got.IdleTimeout, got.MaxReply, err)
	}
	if _, err := Merge(Inputs{Flags: Flags{MaxRetries: -1, MaxReply: "lots"}}); err == nil || !strings.Contains(err.Error(), `--max-reply: "lots" is not a size`) {
		t.Errorf("bad flag: got %v", err)
	}
	for body, want := range map[string]string{
		"idle_timeout: soon\n": `idle_timeout: "soon" is not a duration`,
		"max_reply: lots\n":    `max_reply: "lots" is not a size such as 8MB`,
	} {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(p); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", body, err, want)
		}
	}
}
