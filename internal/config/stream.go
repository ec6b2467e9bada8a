package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/pair-cli/pair/internal/output"
)

// The settings that bound a model's streamed reply: idle_timeout, the
// wait for each further piece of a reply once it has begun, and
// max_reply, its size.

// mergeStream lays the stream settings of f, checked by Read, over mc.
func mergeStream(mc *Config, f File) {
	if f.IdleTimeout != "" {
		mc.IdleTimeout = noneIfZero(parseTimeout(f.IdleTimeout))
	}
	if f.MaxReply != "" {
		mc.MaxReply, _ = parseSize(f.MaxReply)
	}
}

// streamFlags lays the flags --idle-timeout and --max-reply over mc.
func streamFlags(mc *Config, fl Flags) error {
	if fl.IdleTimeoutSet {
		if fl.IdleTimeout < 0 {
			return output.Usagef("--idle-timeout must not be negative (0 waits forever)")
		}
		mc.IdleTimeout = noneIfZero(fl.IdleTimeout)
	}
	if fl.MaxReply != "" {
		n, err := parseSize(fl.MaxReply)
		if err != nil {
			return output.Usagef("--max-reply: %v", err)
		}
		mc.MaxReply = n
	}
	return nil
}

// checkStream checks the stream settings of the file at p.
func checkStream(p string, fc File) error {
	if fc.IdleTimeout != "" && parseTimeout(fc.IdleTimeout) < 0 {
		return fmt.Errorf("%s: idle_timeout: %q is not a duration such as 90s or 10m (0 waits forever)", p, fc.IdleTimeout)
	}
	if fc.MaxReply != "" {
		if _, err := parseSize(fc.MaxReply); err != nil {
			return fmt.Errorf("%s: max_reply: %w", p, err)
		}
	}
	return nil
}

// sizeUnits are the units of parseSize, in bytes.
var sizeUnits = map[string]int64{
	"": 1, "b": 1, "bytes": 1,
	"kb": 1e3, "mb": 1e6, "gb": 1e9,
	"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30,
}

// maxSize is the largest size parseSize accepts.
const maxSize = 1 << 40

// parseSize reads a size in bytes: a whole number of bytes, or a number
// and a unit, kB, MB, GB (powers of 1000) or KiB, MiB, GiB (powers of
// 1024), in any case, with or without a space: "8MB", "512 KiB",
// "4194304". It must be more than zero.
func parseSize(s string) (int64, error) {
	bad := fmt.Errorf("%q is not a size such as 8MB, 512KiB or 4194304 (bytes)", s)
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if i < 0 {
		i = len(t)
	}
	unit, ok := sizeUnits[strings.ToLower(strings.TrimSpace(t[i:]))]
	if !ok || i == 0 {
		return 0, bad
	}
	f, err := strconv.ParseFloat(t[:i], 64)
	if err != nil {
		return 0, bad
	}
	n := f * float64(unit)
	switch {
	case n > maxSize:
		return 0, fmt.Errorf("%q is more than 1 TiB", s)
	case n < 1:
		return 0, errors.New("a size must be more than 0")
	case n != float64(int64(n)):
		return 0, bad
	}
	return int64(n), nil
}
