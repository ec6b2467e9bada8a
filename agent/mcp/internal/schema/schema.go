package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits that keep a hostile schema or value from using up the stack or
// flooding a message.
const (
	maxDepth  = 256 // nested subschemas followed while checking one value
	maxErrors = 8   // problems reported for one value
)

// Schema is a compiled schema.
type Schema struct {
	root     any
	patterns map[string]*regexp.Regexp // the patterns Go can read
}

// Compile reads a schema. It fails when the schema is not JSON, not an
// object or a boolean, or has a $ref within the document that leads
// nowhere.
func Compile(raw []byte) (*Schema, error) {
	root, err := decode(raw)
	if err != nil {
		return nil, err
	}
	switch root.(type) {
	case bool, map[string]any:
	default:
		return nil, errors.New("a schema is an object or a boolean")
	}
	s := &Schema{root: root, patterns: map[string]*regexp.Regexp{}}
	if err := s.prepare(root, "", 0); err != nil {
		return nil, err
	}
	return s, nil
}

// decode reads one JSON value, keeping numbers as json.Number.
func decode(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more than one JSON value")
	}
	return v, nil
}

// subschemas are the keywords whose value is a schema, a list of
// schemas, or an object of schemas.
var (
	oneSchema   = []string{"additionalProperties", "additionalItems", "items", "contains", "not", "if", "then", "else", "propertyNames", "unevaluatedProperties", "unevaluatedItems"}
	listSchemas = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}
	mapSchemas  = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
)

// prepare compiles the patterns of node and its subschemas and checks
// that their $refs within the document resolve.
func (s *Schema) prepare(node any, loc string, depth int) error {
	m, ok := node.(map[string]any)
	if !ok {
		return nil
	}
	if depth > maxDepth {
		return errors.New("the schema is nested too deeply")
	}
	if p, ok := m["pattern"].(string); ok {
		s.compilePattern(p)
	}
	if ref, ok := m["$ref"].(string); ok && local(ref) {
		if _, ok := s.resolve(ref); !ok {
			return fmt.Errorf("%s: $ref %q leads nowhere in the schema", where(loc), ref)
		}
	}
	for _, k := range oneSchema {
		if err := s.prepare(m[k], loc+"/"+k, depth+1); err != nil {
			return err
		}
	}
	for _, k := range listSchemas {
		list, _ := m[k].([]any)
		for i, sub := range list {
			if err := s.prepare(sub, fmt.Sprintf("%s/%s/%d", loc, k, i), depth+1); err != nil {
				return err
			}
		}
	}
	for _, k := range mapSchemas {
		subs, _ := m[k].(map[string]any)
		for _, name := range sortedKeys(subs) {
			if k == "patternProperties" {
				s.compilePattern(name)
			}
			if err := s.prepare(subs[name], loc+"/"+k+"/"+escape(name), depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Schema) compilePattern(p string) {
	if _, done := s.patterns[p]; done {
		return
	}
	re, err := regexp.Compile(p)
	if err != nil {
		re = nil // a pattern Go cannot read (a lookahead...) is not checked
	}
	s.patterns[p] = re
}

// local reports whether ref points into this document ("#" or "#/...");
// any other reference is not followed.
func local(ref string) bool { return ref == "#" || strings.HasPrefix(ref, "#/") }

// resolve follows a JSON pointer within the document.
func (s *Schema) resolve(ref string) (any, bool) {
	node := s.root
	if ref == "#" {
		return node, true
	}
	for _, tok := range strings.Split(ref[2:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch n := node.(type) {
		case map[string]any:
			v, ok := n[tok]
			if !ok {
				return nil, false
			}
			node = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n) {
				return nil, false
			}
			node = n[i]
		default:
			return nil, false
		}
	}
	return node, true
}

// ValidateJSON checks a JSON document against the schema.
func (s *Schema) ValidateJSON(raw []byte) error {
	v, err := decode(raw)
	if err != nil {
		return err
	}
	return s.Validate(v)
}

// Validate checks a value (as encoding/json decodes it, with or without
// UseNumber) against the schema. Its error lists up to eight problems,
// each as "LOCATION: KEYWORD: what is wrong", LOCATION being where the
// schema states the rule (none for the schema's root).
func (s *Schema) Validate(v any) error {
	c := &checker{s: s}
	c.check(s.root, "", v, "", 0)
	if len(c.errs) == 0 {
		return nil
	}
	return errors.New(strings.Join(c.errs, "; "))
}

type checker struct {
	s    *Schema
	errs []string
}

// fail records a problem at the schema location loc, of the keyword
// (none when the message names it).
func (c *checker) fail(loc, keyword, format string, args ...any) {
	if len(c.errs) >= maxErrors {
		return
	}
	msg := fmt.Sprintf(format, args...)
	if keyword != "" {
		msg = keyword + ": " + msg
	}
	if loc != "" {
		msg = loc + ": " + msg
	}
	c.errs = append(c.errs, msg)
}

func (c *checker) full() bool { return len(c.errs) >= maxErrors }

// try checks v against node on its own, returning its problems.
func (c *checker) try(node any, loc string, v any, at string, depth int) []string {
	sub := &checker{s: c.s}
	sub.check(node, loc, v, at, depth)
	return sub.errs
}

// check checks the value v, found at the field at, against the schema
// node found at loc.
func (c *checker) check(node any, loc string, v any, at string, depth int) {
	if depth > maxDepth {
		c.fail(loc, "$ref", "the schema refers to itself too deeply to check %s", field(at))
		return
	}
	var m map[string]any
	switch n := node.(type) {
	case bool:
		if !n {
			c.fail(loc, "false", "%s is not allowed here", field(at))
		}
		return
	case map[string]any:
		m = n
	default:
		return // not a schema: nothing to check
	}
	if ref, ok := m["$ref"].(string); ok && local(ref) {
		if target, ok := c.s.resolve(ref); ok {
			c.check(target, refLoc(ref), v, at, depth+1)
		}
	}
	if !c.checkType(m, loc, v, at) {
		return // the other keywords would only repeat that the type is wrong
	}
	c.checkEnum(m, loc, v, at)
	switch v := v.(type) {
	case string:
		c.checkString(m, loc, v, at)
	case json.Number, float64:
		c.checkNumber(m, loc, v, at)
	case []any:
		c.checkArray(m, loc, v, at, depth)
	case map[string]any:
		c.checkObject(m, loc, v, at, depth)
	}
	c.checkCombinations(m, loc, v, at, depth)
}

// checkType checks "type" (a name or a list of names, and OpenAPI's
// "nullable"); false when v has none of the types.
func (c *checker) checkType(m map[string]any, loc string, v any, at string) bool {
	var want []string
	switch t := m["type"].(type) {
	case string:
		want = []string{t}
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				want = append(want, s)
			}
		}
	default:
		return true
	}
	if len(want) == 0 {
		return true
	}
	if m["nullable"] == true {
		want = append(want, "null")
	}
	got := kind(v)
	for _, w := range want {
		if w == got || w == "number" && got == "integer" {
			return true
		}
		if !slices.Contains([]string{"null", "boolean", "integer", "number", "string", "array", "object"}, w) {
			return true // a type name we do not know: not refused for it
		}
	}
	c.fail(loc, "type", "%s is %s, want %s", field(at), describe(v), strings.Join(articled(want), " or "))
	return false
}

func (c *checker) checkEnum(m map[string]any, loc string, v any, at string) {
	if want, ok := m["const"]; ok && !equal(v, want) {
		c.fail(loc, "const", "%s is %s, want %s", field(at), preview(v), preview(want))
	}
	if list, ok := m["enum"].([]any); ok && !slices.ContainsFunc(list, func(e any) bool { return equal(v, e) }) {
		c.fail(loc, "enum", "%s is %s, want one of %s", field(at), preview(v), preview(list))
	}
}

func (c *checker) checkString(m map[string]any, loc string, v string, at string) {
	n := utf8.RuneCountInString(v)
	if min, ok := count(m["minLength"]); ok && n < min {
		c.fail(loc, "minLength", "%s is %d characters long, want at least %d", field(at), n, min)
	}
	if max, ok := count(m["maxLength"]); ok && n > max {
		c.fail(loc, "maxLength", "%s is %d characters long, want at most %d", field(at), n, max)
	}
	if p, ok := m["pattern"].(string); ok {
		if re := c.s.patterns[p]; re != nil && !re.MatchString(v) {
			c.fail(loc, "pattern", "%s is %s, which does not match the pattern %q", field(at), preview(v), p)
		}
	}
}

func (c *checker) checkNumber(m map[string]any, loc string, v any, at string) {
	x, ok := number(v)
	if !ok {
		return
	}
	bound := func(key string) (float64, bool) { return number(m[key]) }
	if min, ok := bound("minimum"); ok {
		if m["exclusiveMinimum"] == true && x <= min { // draft 4
			c.fail(loc, "minimum", "%s is %s, want more than %s", field(at), preview(v), preview(m["minimum"]))
		} else if x < min {
			c.fail(loc, "minimum", "%s is %s, want at least %s", field(at), preview(v), preview(m["minimum"]))
		}
	}
	if max, ok := bound("maximum"); ok {
		if m["exclusiveMaximum"] == true && x >= max {
			c.fail(loc, "maximum", "%s is %s, want less than %s", field(at), preview(v), preview(m["maximum"]))
		} else if x > max {
			c.fail(loc, "maximum", "%s is %s, want at most %s", field(at), preview(v), preview(m["maximum"]))
		}
	}
	if min, ok := bound("exclusiveMinimum"); ok && x <= min {
		c.fail(loc, "exclusiveMinimum", "%s is %s, want more than %s", field(at), preview(v), preview(m["exclusiveMinimum"]))
	}
	if max, ok := bound("exclusiveMaximum"); ok && x >= max {
		c.fail(loc, "exclusiveMaximum", "%s is %s, want less than %s", field(at), preview(v), preview(m["exclusiveMaximum"]))
	}
	if d, ok := bound("multipleOf"); ok && d > 0 {
		q := x / d
		if math.Abs(q-math.Round(q)) > 1e-9*math.Max(1, math.Abs(q)) {
			c.fail(loc, "multipleOf", "%s is %s, want a multiple of %s", field(at), preview(v), preview(m["multipleOf"]))
		}
	}
}

func (c *checker) checkArray(m map[string]any, loc string, v []any, at string, depth int) {
	if min, ok := count(m["minItems"]); ok && len(v) < min {
		c.fail(loc, "minItems", "%s has %d items, want at least %d", field(at), len(v), min)
	}
	if max, ok := count(m["maxItems"]); ok && len(v) > max {
		c.fail(loc, "maxItems", "%s has %d items, want at most %d", field(at), len(v), max)
	}
	if m["uniqueItems"] == true {
	unique:
		for i := range v {
			for j := range i {
				if equal(v[i], v[j]) {
					c.fail(loc, "uniqueItems", "%s has %s twice (items %d and %d), want no repeats", field(at), preview(v[j]), j, i)
					break unique
				}
			}
		}
	}
	// The leading items follow prefixItems (or, before 2020-12, a list
	// of items); the rest items (or additionalItems).
	prefix, _ := m["prefixItems"].([]any)
	rest, restKey := m["items"], "items"
	if list, ok := m["items"].([]any); ok {
		prefix, rest, restKey = list, m["additionalItems"], "additionalItems"
	}
	prefixKey := "prefixItems"
	if restKey == "additionalItems" {
		prefixKey = "items"
	}
	for i, item := range v {
		if c.full() {
			return
		}
		itemAt := fmt.Sprintf("%s[%d]", at, i)
		if i < len(prefix) {
			c.check(prefix[i], fmt.Sprintf("%s/%s/%d", loc, prefixKey, i), item, itemAt, depth+1)
		} else if rest != nil {
			c.check(rest, loc+"/"+restKey, item, itemAt, depth+1)
		}
	}
	if contains, ok := m["contains"]; ok {
		found := 0
		for _, item := range v {
			if len(c.try(contains, loc+"/contains", item, at, depth+1)) == 0 {
				found++
			}
		}
		min := 1
		if n, ok := count(m["minContains"]); ok {
			min = n
		}
		if found < min {
			c.fail(loc, "contains", "%s has %d items that match the schema at %s/contains, want at least %d", field(at), found, where(loc), min)
		}
		if max, ok := count(m["maxContains"]); ok && found > max {
			c.fail(loc, "maxContains", "%s has %d items that match the schema at %s/contains, want at most %d", field(at), found, where(loc), max)
		}
	}
}

func (c *checker) checkObject(m map[string]any, loc string, v map[string]any, at string, depth int) {
	if list, ok := m["required"].([]any); ok {
		var missing []string
		for _, r := range list {
			if name, ok := r.(string); ok {
				if _, ok := v[name]; !ok {
					missing = append(missing, name)
				}
			}
		}
		if len(missing) > 0 {
			c.fail(loc, "required", "%s lacks the required %s %s", field(at), plural(len(missing), "property", "properties"), quoted(missing))
		}
	}
	if min, ok := count(m["minProperties"]); ok && len(v) < min {
		c.fail(loc, "minProperties", "%s has %d properties, want at least %d", field(at), len(v), min)
	}
	if max, ok := count(m["maxProperties"]); ok && len(v) > max {
		c.fail(loc, "maxProperties", "%s has %d properties, want at most %d", field(at), len(v), max)
	}
	props, _ := m["properties"].(map[string]any)
	patterns, _ := m["patternProperties"].(map[string]any)
	var extra []string
	for _, name := range sortedKeys(v) {
		if c.full() {
			return
		}
		val, nameAt := v[name], member(at, name)
		known := false
		if sub, ok := props[name]; ok {
			known = true
			c.check(sub, loc+"/properties/"+escape(name), val, nameAt, depth+1)
		}
		for _, p := range sortedKeys(patterns) {
			if re := c.s.patterns[p]; re != nil && re.MatchString(name) {
				known = true
				c.check(patterns[p], loc+"/patternProperties/"+escape(p), val, nameAt, depth+1)
			} else if re == nil {
				known = true // a pattern we cannot read may match
			}
		}
		if names, ok := m["propertyNames"]; ok {
			if errs := c.try(names, loc+"/propertyNames", name, nameAt, depth+1); len(errs) > 0 {
				c.fail(loc, "propertyNames", "the property name %q is not allowed: %s", name, errs[0])
			}
		}
		if !known {
			extra = append(extra, name)
		}
	}
	if deps, ok := m["dependentRequired"].(map[string]any); ok {
		for _, name := range sortedKeys(deps) {
			if _, present := v[name]; !present {
				continue
			}
			list, _ := deps[name].([]any)
			for _, r := range list {
				if need, ok := r.(string); ok {
					if _, ok := v[need]; !ok {
						c.fail(loc, "dependentRequired", "%s has %q but lacks %q, which it requires", field(at), name, need)
					}
				}
			}
		}
	}
	switch add := m["additionalProperties"].(type) {
	case nil:
	case bool:
		if !add && len(extra) > 0 {
			allowed := "no other properties"
			if len(props) > 0 {
				allowed = "allowed: " + quoted(sortedKeys(props))
			}
			c.fail(loc, "", "unexpected additional properties %s in %s (%s)", quoted(extra), field(at), allowed)
		}
	default:
		for _, name := range extra {
			c.check(add, loc+"/additionalProperties", v[name], member(at, name), depth+1)
		}
	}
}

func (c *checker) checkCombinations(m map[string]any, loc string, v any, at string, depth int) {
	if list, ok := m["allOf"].([]any); ok {
		for i, sub := range list {
			c.check(sub, fmt.Sprintf("%s/allOf/%d", loc, i), v, at, depth+1)
		}
	}
	if list, ok := m["anyOf"].([]any); ok && len(list) > 0 {
		var why []string
		for i, sub := range list {
			errs := c.try(sub, fmt.Sprintf("%s/anyOf/%d", loc, i), v, at, depth+1)
			if len(errs) == 0 {
				why = nil
				break
			}
			why = append(why, errs[0])
		}
		if why != nil {
			c.fail(loc, "anyOf", "%s matches none of the %d choices: %s", field(at), len(list), choices(why))
		}
	}
	if list, ok := m["oneOf"].([]any); ok && len(list) > 0 {
		var why []string
		var matched []int
		for i, sub := range list {
			errs := c.try(sub, fmt.Sprintf("%s/oneOf/%d", loc, i), v, at, depth+1)
			if len(errs) == 0 {
				matched = append(matched, i)
			} else {
				why = append(why, errs[0])
			}
		}
		switch {
		case len(matched) == 0:
			c.fail(loc, "oneOf", "%s matches none of the %d choices: %s", field(at), len(list), choices(why))
		case len(matched) > 1:
			c.fail(loc, "oneOf", "%s matches choices %v, want exactly one", field(at), matched)
		}
	}
	if not, ok := m["not"]; ok {
		if len(c.try(not, loc+"/not", v, at, depth+1)) == 0 {
			c.fail(loc, "not", "%s must not match the schema at %s/not", field(at), where(loc))
		}
	}
	if cond, ok := m["if"]; ok {
		if len(c.try(cond, loc+"/if", v, at, depth+1)) == 0 {
			if then, ok := m["then"]; ok {
				c.check(then, loc+"/then", v, at, depth+1)
			}
		} else if els, ok := m["else"]; ok {
			c.check(els, loc+"/else", v, at, depth+1)
		}
	}
}

// kind is the JSON Schema type of a decoded value ("integer" for a
// number without a fraction).
func kind(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case json.Number, float64:
		if x, ok := number(v); ok && x == math.Trunc(x) && !math.IsInf(x, 0) {
			return "integer"
		}
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

// describe says what a value is: `5 (an integer)`, `"x" (a string)`,
// `an object`.
func describe(v any) string {
	switch v.(type) {
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	case nil:
		return "null"
	}
	return preview(v) + " (" + articled([]string{kind(v)})[0] + ")"
}

func articled(types []string) []string {
	out := make([]string, len(types))
	for i, t := range types {
		switch t {
		case "null":
			out[i] = "null"
		case "integer", "array", "object":
			out[i] = "an " + t
		default:
			out[i] = "a " + t
		}
	}
	return out
}

// preview is a value as JSON, cut short.
func preview(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
}

func choices(why []string) string {
	var b strings.Builder
	for i, w := range why {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "(%d) %s", i+1, w)
	}
	return b.String()
}

// field names the place of a value in the arguments: "title", "a[0].b",
// or "the value" for the whole.
func field(at string) string {
	if at == "" {
		return "the value"
	}
	return at
}

// member is the path of the property name of the object at.
func member(at, name string) string {
	if name == "" || strings.ContainsAny(name, ".[]\" ") {
		return at + "[" + strconv.Quote(name) + "]"
	}
	if at == "" {
		return name
	}
	return at + "." + name
}

// where names a schema location for a message ("the root" for "").
func where(loc string) string {
	if loc == "" {
		return "the root"
	}
	return loc
}

// refLoc is the schema location that a $ref leads to.
func refLoc(ref string) string { return strings.TrimPrefix(ref, "#") }

// escape makes a name a JSON pointer token.
func escape(name string) string {
	return strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
}

func quoted(names []string) string {
	b, _ := json.Marshal(names)
	return string(b)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// number is a JSON number as a float64.
func number(v any) (float64, bool) {
	switch v := v.(type) {
	case json.Number:
		x, err := strconv.ParseFloat(string(v), 64)
		return x, err == nil || errors.Is(err, strconv.ErrRange)
	case float64:
		return v, true
	case int:
		return float64(v), true
	}
	return 0, false
}

// count is a non-negative integer keyword's value.
func count(v any) (int, bool) {
	x, ok := number(v)
	if !ok || x < 0 || x != math.Trunc(x) || x > math.MaxInt32 {
		return 0, false
	}
	return int(x), true
}

// equal compares JSON values, numbers by their value.
func equal(a, b any) bool {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x == y
	}
	switch a := a.(type) {
	case []any:
		b, ok := b.([]any)
		return ok && slices.EqualFunc(a, b, equal)
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok || !equal(av, bv) {
				return false
			}
		}
		return true
	}
	return a == b
}
