package proc

import "strings"

// secretSuffixes end the names of variables that hold a secret by
// convention (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, DB_PASSWORD); a name
// that is one of them without its underscore (TOKEN, PASSWORD) counts
// too.
var secretSuffixes = []string{
	"_API_KEY", "_APIKEY", "_ACCESS_KEY", "_SECRET_KEY", "_PRIVATE_KEY",
	"_TOKEN", "_SECRET", "_PASSWORD", "_PASSWD", "_CREDENTIALS",
}

// SecretName reports whether the variable name holds a secret by
// convention: OPENAI_API_KEY, or a name ending in _API_KEY, _TOKEN,
// _SECRET, _PASSWORD, _ACCESS_KEY and the like (see Env), in any case.
func SecretName(name string) bool {
	n := strings.ToUpper(name)
	for _, s := range secretSuffixes {
		if strings.HasSuffix(n, s) || n == s[1:] {
			return true
		}
	}
	return false
}

// Env returns environ (KEY=VALUE lines) without the secrets that a
// process pair starts on the model's behalf must not see: a command or
// test the model runs, or an MCP server. It removes every variable whose
// name SecretName reports, the variables names lists (the one
// .pair.yml's api_key_env names), and any variable whose value is key,
// the model's API key, whatever its name. Names are matched without
// regard to case, as Windows does.
func Env(environ []string, key string, names ...string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		if SecretName(k) || key != "" && v == key || named(k, names) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

func named(k string, names []string) bool {
	for _, n := range names {
		if n != "" && strings.EqualFold(k, n) {
			return true
		}
	}
	return false
}
