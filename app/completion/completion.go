// Package completion writes pair's shell completion scripts (pair
// completion bash|zsh|fish) from a description of its commands and flags,
// so that what a shell offers is what the command line takes.
package completion

import (
	"fmt"
	"slices"
	"strings"
)

// Flag is one flag of a command: its names without dashes (one letter
// names are short flags), whether it takes a value, the values it takes
// when they are few, and its usage. Dynamic, when set, gives the values
// when asked: the arguments of the program that print them, one a line
// (e.g. "sessions --names").
type Flag struct {
	Names   []string
	Value   bool
	Values  []string
	Usage   string
	Dynamic string
}

// Command is a command, or the program itself, with its flags and
// subcommands.
type Command struct {
	Name     string
	Usage    string
	Flags    []Flag
	Commands []Command
}

// Shells are the shells Script writes for.
var Shells = []string{"bash", "zsh", "fish"}

// Script is the completion script of the program root for shell.
func Script(shell string, root Command) (string, error) {
	switch shell {
	case "bash":
		return bash(root), nil
	case "zsh":
		return zsh(root), nil
	case "fish":
		return fish(root), nil
	}
	return "", fmt.Errorf("no completion for %q: use %s", shell, strings.Join(Shells, ", "))
}

func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// flagWords is a command's flags as typed.
func flagWords(c Command) string {
	var w []string
	for _, f := range c.Flags {
		for _, n := range f.Names {
			w = append(w, dashed(n))
		}
	}
	return strings.Join(w, " ")
}

// valued lists, as a case pattern, the flags of c that take a value.
func valued(c Command) string {
	var w []string
	for _, f := range c.Flags {
		if f.Value {
			for _, n := range f.Names {
				w = append(w, dashed(n))
			}
		}
	}
	return strings.Join(w, "|")
}

func bash(root Command) string {
	var b strings.Builder
	fmt.Fprintf(&b, `# bash completion for %[1]s: add to ~/.bashrc
#   source <(%[1]s completion bash)
_%[1]s() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd= i w
	# The command is the first word that is no global flag or its value.
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
`, root.Name)
	if v := valued(root); v != "" {
		fmt.Fprintf(&b, "\t\t%s) ((i++)) ;;\n", v)
	}
	b.WriteString("\t\t-*) ;;\n\t\t*) cmd=$w; break ;;\n\t\tesac\n\tdone\n")
	// A flag's few values.
	b.WriteString("\tcase $prev in\n")
	for _, c := range append([]Command{root}, root.Commands...) {
		for _, f := range c.Flags {
			if len(f.Values) == 0 {
				continue
			}
			var names []string
			for _, n := range f.Names {
				names = append(names, dashed(n))
			}
			fmt.Fprintf(&b, "\t%s) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", strings.Join(names, "|"), strings.Join(f.Values, " "))
		}
	}
	b.WriteString("\tesac\n")
	// Values the program prints when asked, for a command's flag.
	dynamic := map[string][]string{}
	var order []string
	for _, c := range root.Commands {
		for _, f := range c.Flags {
			if f.Dynamic == "" {
				continue
			}
			if dynamic[f.Dynamic] == nil {
				order = append(order, f.Dynamic)
			}
			for _, n := range f.Names {
				dynamic[f.Dynamic] = append(dynamic[f.Dynamic], fmt.Sprintf("%q", c.Name+" "+dashed(n)))
			}
		}
	}
	if len(order) > 0 {
		b.WriteString("\tcase \"$cmd $prev\" in\n")
		for _, d := range order {
			fmt.Fprintf(&b, "\t%s) COMPREPLY=($(compgen -W \"$(%s %s 2>/dev/null)\" -- \"$cur\")); return ;;\n", strings.Join(dynamic[d], "|"), root.Name, d)
		}
		b.WriteString("\tesac\n")
	}
	// Each command's flags and subcommands; without a command, the
	// program's flags and its commands.
	b.WriteString("\tlocal flags subs\n\tcase $cmd in\n")
	fmt.Fprintf(&b, "\t\"\") flags=%q subs=%q ;;\n", flagWords(root), strings.Join(subNames(root), " "))
	for _, c := range root.Commands {
		fmt.Fprintf(&b, "\t%s) flags=%q subs=%q ;;\n", c.Name, flagWords(c), strings.Join(subNames(c), " "))
	}
	fmt.Fprintf(&b, `	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$flags" -- "$cur"))
	elif [[ -n $subs ]]; then
		COMPREPLY=($(compgen -W "$subs" -- "$cur"))
	fi
	# Otherwise nothing: the shell completes file names.
}
complete -o default -F _%[1]s %[1]s
`, root.Name)
	return b.String()
}

func zsh(root Command) string {
	return fmt.Sprintf(`# zsh completion for %[1]s: add to ~/.zshrc
#   source <(%[1]s completion zsh)
autoload -U +X bashcompinit && bashcompinit
`, root.Name) + strings.SplitN(bash(root), "\n", 3)[2]
}

func fish(root Command) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# fish completion for %[1]s: save as ~/.config/fish/completions/%[1]s.fish\n#   %[1]s completion fish > ~/.config/fish/completions/%[1]s.fish\n", root.Name)
	first := "__fish_use_subcommand"
	for _, c := range root.Commands {
		fmt.Fprintf(&b, "complete -c %s -f -n %s -a %s -d %s\n", root.Name, first, c.Name, fishQuote(c.Usage))
	}
	flagLines := func(cond string, flags []Flag) {
		for _, f := range flags {
			line := fmt.Sprintf("complete -c %s -n %s", root.Name, fishQuote(cond))
			for _, n := range f.Names {
				if len(n) == 1 {
					line += " -s " + n
				} else {
					line += " -l " + n
				}
			}
			switch {
			case f.Dynamic != "":
				line += " -x -a " + fishQuote("("+root.Name+" "+f.Dynamic+" 2>/dev/null)")
			case len(f.Values) > 0:
				line += " -x -a " + fishQuote(strings.Join(f.Values, " "))
			case f.Value:
				line += " -r"
			}
			fmt.Fprintf(&b, "%s -d %s\n", line, fishQuote(f.Usage))
		}
	}
	flagLines(first, root.Flags)
	for _, c := range root.Commands {
		cond := "__fish_seen_subcommand_from " + c.Name
		flagLines(cond, c.Flags)
		for _, s := range c.Commands {
			fmt.Fprintf(&b, "complete -c %s -f -n %s -a %s -d %s\n", root.Name, fishQuote(cond+"; and not __fish_seen_subcommand_from "+strings.Join(subNames(c), " ")), s.Name, fishQuote(s.Usage))
		}
	}
	return b.String()
}

func subNames(c Command) []string {
	var n []string
	for _, s := range c.Commands {
		n = append(n, s.Name)
	}
	return slices.Clip(n)
}

// fishQuote quotes s for fish: in single quotes, with \ and ' escaped.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
