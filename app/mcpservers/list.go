package mcpservers

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/pair-cli/pair/agent"
	"github.com/pair-cli/pair/agent/mcp"
	"github.com/pair-cli/pair/internal/config"
	"github.com/pair-cli/pair/internal/console"
	"github.com/pair-cli/pair/internal/output"
	"github.com/pair-cli/pair/internal/safetext"
	"github.com/pair-cli/pair/repo"
)

// ListOptions are the options of pair mcp list.
type ListOptions struct {
	Dir  string
	JSON bool
	IO   console.IO
	// Self is pair's own path, for ${PAIR} (see Self).
	Self string
	// OpenTree opens the working tree that holds a directory; LoadConfig
	// loads the configuration of its root (state in stateDir).
	OpenTree   func(dir string) (*repo.Tree, error)
	LoadConfig func(dir, stateDir string) (config.Config, error)
}

// ServerReport is a server in pair mcp list --json.
type ServerReport struct {
	Name    string       `json:"name"`
	How     string       `json:"how"`
	Started bool         `json:"started"`
	Error   string       `json:"error,omitempty"`
	Tools   []ToolReport `json:"tools"`
	// Unmatched are tools the configuration names that the server does
	// not have.
	Unmatched []string `json:"unmatched,omitempty"`
}

// ToolReport is a tool of a server in pair mcp list --json.
type ToolReport struct {
	Name        string     `json:"name"` // server.tool
	Model       string     `json:"model_name"`
	Risk        agent.Risk `json:"risk"`
	ReadOnly    bool       `json:"read_only_hint"`
	Override    string     `json:"override,omitempty"`
	Description string     `json:"description"`
	Unchecked   string     `json:"unchecked,omitempty"`
}

// List runs pair mcp list: it starts each configured server and lists
// its tools with their risk as pair classifies them, on o.IO.Out.
func List(ctx context.Context, o ListOptions) error {
	asJSON, io := o.JSON, o.IO
	tree, err := o.OpenTree(o.Dir)
	if err != nil {
		return fmt.Errorf("mcp list: %w", err)
	}
	defer tree.Close()
	cfg, err := o.LoadConfig(tree.Dir, tree.StateDir())
	if err != nil {
		return fmt.Errorf("mcp list: %w", err)
	}
	config.UntrustedWarning(io.Err, cfg)
	configs := Configs(cfg, tree.Dir, o.Self)
	if len(configs) == 0 && !asJSON {
		fmt.Fprintln(io.Out, "no MCP servers: list them under mcp_servers in .pair.yml (see pair mcp --help)")
		return nil
	}
	set := mcp.Start(ctx, configs)
	defer set.Close()
	if ctx.Err() != nil {
		return &output.ExitError{Code: output.Interrupted, Msg: "mcp list: interrupted"}
	}
	reports := []ServerReport{}
	failed := 0
	for _, s := range set.Servers {
		r := ServerReport{Name: s.Name(), How: s.Describe(), Started: s.Err == nil, Tools: []ToolReport{}, Unmatched: s.Unmatched()}
		if s.Err != nil {
			r.Error = s.Err.Error()
			failed++
		}
		for _, t := range s.Tools {
			ext := agent.ExternalTool{Server: s.Name(), Tool: t.Name}
			r.Tools = append(r.Tools, ToolReport{Name: ext.Name(), Model: ext.WireName(), Risk: t.Risk, ReadOnly: t.ReadOnly,
				Override: t.Override, Description: t.Description, Unchecked: t.Unchecked})
		}
		reports = append(reports, r)
	}
	if asJSON {
		output.WriteJSON(io.Out, reports)
	} else {
		printList(io.Out, reports)
	}
	if failed > 0 {
		return &output.ExitError{Code: output.Failure, Msg: fmt.Sprintf("mcp list: %d of %d %s did not start", failed, len(reports), output.Plural(len(reports), "server"))}
	}
	return nil
}

func printList(w io.Writer, reports []ServerReport) {
	for i, r := range reports {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if !r.Started {
			fmt.Fprintf(w, "%s (%s): did not start: %s\n", r.Name, r.How, r.Error)
			continue
		}
		fmt.Fprintf(w, "%s (%s): started, %d %s\n", r.Name, r.How, len(r.Tools), output.Plural(len(r.Tools), "tool"))
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, t := range r.Tools {
			why := "server: read-only"
			if !t.ReadOnly {
				why = "server: may change things"
			}
			if t.Override != "" {
				why += "; .pair.yml: " + t.Override
			}
			fmt.Fprintf(tw, "  %s\t%s\t(%s)\t%s\n", safetext.Name(t.Name), t.Risk, why, safetext.Line(output.OneLine(t.Description, 60)))
			if t.Unchecked != "" {
				fmt.Fprintf(tw, "  \t\tnote: %s; only checked to be an object\t\n", t.Unchecked)
			}
		}
		tw.Flush()
		if len(r.Unmatched) > 0 {
			fmt.Fprintf(w, "  .pair.yml names tools it does not have: %s\n", strings.Join(r.Unmatched, ", "))
		}
	}
}
