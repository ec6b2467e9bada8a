package mcp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pair-cli/pair/agent/mcp/internal/schema"
)

// protocolVersions are the MCP versions pair speaks, the latest first: it
// offers the first, and takes any of them when the server answers with
// it.
var protocolVersions = []string{"2025-06-18", "2025-03-26", "2024-11-05"}

// maxPages bounds the pages of a tools/list.
const maxPages = 1000

type implementation struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type initializeParams struct {
	ProtocolVersion string         `json:"protocolVersion"`
	Capabilities    map[string]any `json:"capabilities"`
	ClientInfo      implementation `json:"clientInfo"`
}

type initializeResult struct {
	ProtocolVersion string          `json:"protocolVersion"`
	Capabilities    json.RawMessage `json:"capabilities"`
	ServerInfo      implementation  `json:"serverInfo"`
}

// wireTool is a tool as tools/list gives it.
type wireTool struct {
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Annotations *struct {
		Title        string `json:"title"`
		ReadOnlyHint bool   `json:"readOnlyHint"`
	} `json:"annotations"`
}

type listParams struct {
	Cursor string `json:"cursor,omitempty"`
}

type listResult struct {
	Tools      []wireTool `json:"tools"`
	NextCursor string     `json:"nextCursor"`
}

type callParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// callResult is the result of tools/call.
type callResult struct {
	Content           []content       `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

// content is one item of a tool result's content.
type content struct {
	Type        string `json:"type"`
	Text        string `json:"text"`
	Data        string `json:"data"` // base64
	MIMEType    string `json:"mimeType"`
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Resource    *struct {
		URI      string `json:"uri"`
		MIMEType string `json:"mimeType"`
		Text     string `json:"text"`
		Blob     string `json:"blob"` // base64
	} `json:"resource"`
}

// initialize opens the MCP session (initialize, then
// notifications/initialized) and lists the server's tools.
func (s *Server) initialize(ctx context.Context) ([]*Tool, error) {
	var res initializeResult
	err := s.conn.call(ctx, "initialize", initializeParams{
		ProtocolVersion: protocolVersions[0],
		Capabilities:    map[string]any{},
		ClientInfo:      implementation{Name: "pair", Version: version()},
	}, &res)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(protocolVersions, res.ProtocolVersion) {
		return nil, fmt.Errorf("it speaks MCP version %q; pair speaks %s", res.ProtocolVersion, strings.Join(protocolVersions, ", "))
	}
	if t, ok := s.conn.t.(*streamable); ok {
		t.setVersion(res.ProtocolVersion)
	}
	if err := s.conn.notify(ctx, "notifications/initialized", nil); err != nil {
		return nil, err
	}
	return s.list(ctx)
}

// list lists the server's tools, every page of them, and classifies
// them.
func (s *Server) list(ctx context.Context) ([]*Tool, error) {
	var out []*Tool
	seen := map[string]bool{}
	cursor := ""
	for range maxPages {
		var res listResult
		if err := s.conn.call(ctx, "tools/list", listParams{Cursor: cursor}, &res); err != nil {
			return nil, fmt.Errorf("list its tools: %w", err)
		}
		for _, t := range res.Tools {
			out = append(out, s.tool(t))
		}
		if res.NextCursor == "" {
			return out, nil
		}
		if seen[res.NextCursor] {
			return nil, fmt.Errorf("list its tools: the server gave the cursor %q twice", res.NextCursor)
		}
		seen[res.NextCursor] = true
		cursor = res.NextCursor
	}
	return nil, fmt.Errorf("list its tools: more than %d pages", maxPages)
}

func (s *Server) tool(t wireTool) *Tool {
	tl := &Tool{Name: t.Name, Description: t.Description}
	if t.Annotations != nil {
		tl.ReadOnly = t.Annotations.ReadOnlyHint
		if tl.Description == "" {
			tl.Description = t.Annotations.Title
		}
	}
	if tl.Description == "" {
		tl.Description = t.Title
	}
	tl.Override = s.Config.Tools[t.Name]
	if tl.Override == "" {
		tl.Override = s.Config.Tools["*"]
	}
	tl.Risk = Classify(tl.ReadOnly, tl.Override)
	tl.Schema, tl.schema, tl.Unchecked = inputSchema(t.InputSchema)
	return tl
}

// inputSchema prepares a tool's input schema: the JSON for the model, and
// the compiled schema to check arguments with (nil, with the reason, when
// pair cannot use it).
func inputSchema(raw json.RawMessage) (json.RawMessage, *schema.Schema, string) {
	empty := json.RawMessage(`{"type":"object","properties":{}}`)
	if len(raw) == 0 || string(raw) == "null" {
		return empty, nil, "the server gave no input schema"
	}
	var top struct {
		Type any `json:"type"`
	}
	if err := json.Unmarshal(raw, &top); err != nil || top.Type != "object" {
		return empty, nil, "its input schema is not an object schema"
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err == nil {
		raw = buf.Bytes()
	}
	sc, err := schema.Compile(raw)
	if err != nil {
		return raw, nil, "its input schema cannot be used: " + err.Error()
	}
	return raw, sc, ""
}

// check validates arguments (one JSON object) against the tool's schema.
func (t *Tool) check(args json.RawMessage) error {
	if t.schema == nil {
		return nil
	}
	return t.schema.ValidateJSON(args)
}

// render turns a tool result into text for the model: text as it is,
// other content described, structured content as JSON when there is no
// text.
func render(name string, res *callResult) (string, error) {
	var parts []string
	for _, c := range res.Content {
		switch c.Type {
		case "text":
			parts = append(parts, c.Text)
		case "image":
			parts = append(parts, fmt.Sprintf("[an image (%s, %d bytes), not shown]", c.MIMEType, decodedLen(c.Data)))
		case "audio":
			parts = append(parts, fmt.Sprintf("[audio (%s, %d bytes), not shown]", c.MIMEType, decodedLen(c.Data)))
		case "resource_link":
			parts = append(parts, strings.TrimSpace(fmt.Sprintf("[resource link: %s %s %s]", c.URI, c.Name, c.Description)))
		case "resource":
			switch r := c.Resource; {
			case r == nil:
			case r.Text != "":
				parts = append(parts, fmt.Sprintf("[resource %s]\n%s", r.URI, r.Text))
			default:
				parts = append(parts, fmt.Sprintf("[resource %s (%s, %d bytes), not shown]", r.URI, r.MIMEType, decodedLen(r.Blob)))
			}
		default:
			parts = append(parts, fmt.Sprintf("[%s content, not shown]", c.Type))
		}
	}
	if len(parts) == 0 && len(res.StructuredContent) > 0 && string(res.StructuredContent) != "null" {
		var buf bytes.Buffer
		if err := json.Compact(&buf, res.StructuredContent); err != nil {
			return "", fmt.Errorf("%s returned structured content that is not JSON: %v", name, err)
		}
		parts = append(parts, buf.String())
	}
	text := strings.Join(parts, "\n")
	if res.IsError {
		if text == "" {
			text = "(no message)"
		}
		return "", errors.New(name + " failed: " + text)
	}
	return text, nil
}

// decodedLen is the length of the bytes that base64 text holds.
func decodedLen(b64 string) int {
	if b, err := base64.StdEncoding.DecodeString(b64); err == nil {
		return len(b)
	}
	return base64.StdEncoding.DecodedLen(len(b64))
}

func compileSchema(raw json.RawMessage) (*schema.Schema, error) { return schema.Compile(raw) }
