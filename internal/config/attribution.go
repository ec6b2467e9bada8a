package config

import (
	"fmt"
	"strings"

	"github.com/pair-cli/pair/internal/audit"
)

// checkAttribution checks attribution's value ("" is not set).
func checkAttribution(v string) error {
	switch v {
	case "", audit.AttributionAssisted, audit.AttributionCoAuthored, audit.AttributionNone:
		return nil
	}
	return fmt.Errorf("%s is not one of %s, %s, %s", quote(v), audit.AttributionAssisted, audit.AttributionCoAuthored, audit.AttributionNone)
}

// attributionFile is the file whose attribution is in force: the
// repository's when it sets one, else the home directory's.
func attributionFile(files []File, sources []string) string {
	for i, f := range files {
		if strings.TrimSpace(f.Attribution) != "" {
			return sources[i]
		}
	}
	return ".pair.yml"
}
