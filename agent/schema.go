package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// schema is the subset of JSON Schema that pair's own tools use: objects
// with typed properties, required names, no others allowed, and bounds on
// integers. It is enough to check a model's arguments and explain what is
// wrong in words the model can act on.
type schema struct {
	Type                 string             `json:"type"`
	Description          string             `json:"description,omitempty"`
	Properties           map[string]*schema `json:"properties,omitempty"`
	Required             []string           `json:"required,omitempty"`
	AdditionalProperties *bool              `json:"additionalProperties,omitempty"`
	Minimum              *float64           `json:"minimum,omitempty"`
	Maximum              *float64           `json:"maximum,omitempty"`
	MinLength            *int               `json:"minLength,omitempty"`
}

// ArgsError explains why a tool call's arguments were refused; it is sent
// back to the model as the tool's result.
type ArgsError struct {
	Tool    string
	Reasons []string
}

func (e *ArgsError) Error() string {
	return fmt.Sprintf("invalid arguments for %s: %s", e.Tool, strings.Join(e.Reasons, "; "))
}

// validate checks the arguments text of a call against s and returns them
// decoded. Empty arguments count as {}.
func (s *schema) validate(tool, args string) (map[string]any, error) {
	args = strings.TrimSpace(args)
	if args == "" {
		args = "{}"
	}
	dec := json.NewDecoder(strings.NewReader(args))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, &ArgsError{Tool: tool, Reasons: []string{fmt.Sprintf("the arguments are not valid JSON (%v); send one JSON object", err)}}
	}
	if dec.More() {
		return nil, &ArgsError{Tool: tool, Reasons: []string{"the arguments hold more than one JSON value; send one JSON object"}}
	}
	var reasons []string
	s.check("", v, &reasons)
	if len(reasons) > 0 {
		return nil, &ArgsError{Tool: tool, Reasons: reasons}
	}
	return v.(map[string]any), nil
}

func (s *schema) check(at string, v any, reasons *[]string) {
	name := at
	if name == "" {
		name = "the arguments"
	}
	bad := func(format string, args ...any) { *reasons = append(*reasons, name+" "+fmt.Sprintf(format, args...)) }
	switch s.Type {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			bad("must be a JSON object, not %s", jsonKind(v))
			return
		}
		for _, r := range s.Required {
			if _, ok := m[r]; !ok {
				*reasons = append(*reasons, fmt.Sprintf("missing required property %q", join(at, r)))
			}
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			ps, ok := s.Properties[k]
			if !ok {
				if s.AdditionalProperties != nil && !*s.AdditionalProperties {
					*reasons = append(*reasons, fmt.Sprintf("unknown property %q (known: %s)", join(at, k), strings.Join(s.names(), ", ")))
				}
				continue
			}
			ps.check(join(at, k), m[k], reasons)
		}
	case "string":
		str, ok := v.(string)
		if !ok {
			bad("must be a string, not %s", jsonKind(v))
			return
		}
		if s.MinLength != nil && len(str) < *s.MinLength {
			bad("must not be empty")
		}
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			bad("must be an integer, not %s", jsonKind(v))
			return
		}
		f, err := n.Float64()
		if err != nil || f != math.Trunc(f) {
			bad("must be a whole number, not %s", n)
			return
		}
		if s.Minimum != nil && f < *s.Minimum {
			bad("must be at least %v", *s.Minimum)
		}
		if s.Maximum != nil && f > *s.Maximum {
			bad("must be at most %v", *s.Maximum)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			bad("must be true or false, not %s", jsonKind(v))
		}
	}
}

func (s *schema) names() []string {
	out := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		out = append(out, k)
	}
	slices.Sort(out)
	if len(out) == 0 {
		return []string{"none"}
	}
	return out
}

func join(at, k string) string {
	if at == "" {
		return k
	}
	return at + "." + k
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// raw returns the schema as JSON for the model.
func (s *schema) raw() json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return json.RawMessage(bytes.TrimSpace(b.Bytes()))
}

// argString, argInt and argBool read validated arguments.
func argString(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func argInt(m map[string]any, k string, def int) int {
	n, ok := m[k].(json.Number)
	if !ok {
		return def
	}
	i, err := n.Int64()
	if err != nil {
		return def
	}
	return int(i)
}
