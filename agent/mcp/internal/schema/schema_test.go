package schema

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, schema, value string
		want                []string // parts of the error; none: valid
	}{
		{"any", `{}`, `{"a":1}`, nil},
		{"true", `true`, `3`, nil},
		{"false", `{"properties":{"a":false}}`, `{"a":1}`, []string{"/properties/a: false: a is not allowed"}},
		{"string ok", `{"type":"string"}`, `"x"`, nil},
		{"string wrong", `{"type":"object","properties":{"title":{"type":"string"}}}`, `{"title":5}`,
			[]string{"/properties/title: type: title is 5 (an integer), want a string"}},
		{"integer is a number", `{"type":"number"}`, `3`, nil},
		{"number is not an integer", `{"type":"integer"}`, `3.5`, []string{"type: the value is 3.5 (a number), want an integer"}},
		{"integer written with a fraction", `{"type":"integer"}`, `3.0`, nil},
		{"type list", `{"type":["string","null"]}`, `null`, nil},
		{"type list wrong", `{"type":["string","null"]}`, `true`, []string{"true (a boolean), want a string or null"}},
		{"nullable", `{"type":"string","nullable":true}`, `null`, nil},
		{"unknown type name", `{"type":"date"}`, `1`, nil},
		{"required", `{"type":"object","required":["q","r"],"properties":{"q":{},"r":{}}}`, `{"r":1}`,
			[]string{`required: the value lacks the required property ["q"]`}},
		{"required nested", `{"properties":{"a":{"type":"object","required":["b"]}}}`, `{"a":{}}`,
			[]string{`/properties/a: required: a lacks the required property ["b"]`}},
		{"additional false", `{"type":"object","properties":{"key":{"type":"string"}},"additionalProperties":false}`, `{"key":"k","extra":true}`,
			[]string{`unexpected additional properties ["extra"] in the value (allowed: ["key"])`}},
		{"additional schema", `{"properties":{"a":{}},"additionalProperties":{"type":"number"}}`, `{"a":"x","b":"y"}`,
			[]string{`/additionalProperties: type: b is "y" (a string), want a number`}},
		{"pattern properties", `{"patternProperties":{"^x-":{"type":"string"}},"additionalProperties":false}`, `{"x-a":"1","y":2}`,
			[]string{`unexpected additional properties ["y"]`}},
		{"items", `{"type":"array","items":{"type":"integer"}}`, `[1,2,"3"]`, []string{`/items: type: [2] is "3" (a string), want an integer`}},
		{"nested items", `{"properties":{"a":{"items":{"properties":{"b":{"type":"string"}}}}}}`, `{"a":[{"b":"x"},{"b":1}]}`,
			[]string{`/properties/a/items/properties/b: type: a[1].b is 1 (an integer), want a string`}},
		{"tuple items", `{"items":[{"type":"string"},{"type":"integer"}],"additionalItems":false}`, `["a",1,2]`,
			[]string{`/additionalItems: false: [2] is not allowed`}},
		{"prefixItems", `{"prefixItems":[{"type":"string"}],"items":{"type":"integer"}}`, `[1,2]`,
			[]string{`/prefixItems/0: type: [0] is 1 (an integer), want a string`}},
		{"min max items", `{"minItems":2,"maxItems":3}`, `[1]`, []string{"minItems: the value has 1 items, want at least 2"}},
		{"unique", `{"uniqueItems":true}`, `[1,2,1.0]`, []string{"uniqueItems: the value has 1 twice (items 0 and 2)"}},
		{"enum", `{"properties":{"mode":{"enum":["fast","slow"]}}}`, `{"mode":"quick"}`,
			[]string{`/properties/mode: enum: mode is "quick", want one of ["fast","slow"]`}},
		{"enum number", `{"enum":[1,2]}`, `2.0`, nil},
		{"const", `{"const":{"a":[1]}}`, `{"a":[1]}`, nil},
		{"const wrong", `{"const":"x"}`, `"y"`, []string{`const: the value is "y", want "x"`}},
		{"minimum", `{"minimum":1,"maximum":10}`, `0`, []string{"minimum: the value is 0, want at least 1"}},
		{"maximum", `{"minimum":1,"maximum":10}`, `10.5`, []string{"maximum: the value is 10.5, want at most 10"}},
		{"exclusive", `{"exclusiveMinimum":0,"exclusiveMaximum":1}`, `0`, []string{"exclusiveMinimum: the value is 0, want more than 0"}},
		{"exclusive draft 4", `{"minimum":0,"exclusiveMinimum":true}`, `0`, []string{"want more than 0"}},
		{"multipleOf", `{"multipleOf":0.1}`, `0.3`, nil},
		{"multipleOf wrong", `{"multipleOf":2}`, `3`, []string{"want a multiple of 2"}},
		{"minLength counts characters", `{"minLength":2,"maxLength":3}`, `"éé"`, nil},
		{"minLength", `{"type":"object","properties":{"key":{"type":"string","minLength":1}}}`, `{"key":""}`,
			[]string{"/properties/key: minLength: key is 0 characters long, want at least 1"}},
		{"pattern", `{"pattern":"^[a-z]+$"}`, `"abc1"`, []string{`pattern: the value is "abc1", which does not match the pattern "^[a-z]+$"`}},
		{"pattern Go cannot read is ignored", `{"pattern":"^(?!x).*$"}`, `"xyz"`, nil},
		{"anyOf", `{"anyOf":[{"type":"string"},{"type":"integer"}]}`, `1`, nil},
		{"anyOf none", `{"anyOf":[{"type":"string"},{"type":"integer"}]}`, `true`,
			[]string{"anyOf: the value matches none of the 2 choices: (1) /anyOf/0: type:", "(2) /anyOf/1: type:"}},
		{"oneOf two", `{"oneOf":[{"type":"number"},{"type":"integer"}]}`, `1`, []string{"oneOf: the value matches choices [0 1], want exactly one"}},
		{"oneOf one", `{"oneOf":[{"type":"number"},{"type":"integer"}]}`, `1.5`, nil},
		{"allOf", `{"allOf":[{"required":["a"]},{"required":["b"]}]}`, `{"a":1}`, []string{`/allOf/1: required: the value lacks the required property ["b"]`}},
		{"not", `{"not":{"type":"string"}}`, `"s"`, []string{"not: the value must not match the schema at the root/not"}},
		{"if then", `{"if":{"properties":{"k":{"const":"n"}}},"then":{"required":["n"]},"else":{"required":["s"]}}`, `{"k":"s"}`,
			[]string{`/else: required`}},
		{"$defs", `{"type":"object","properties":{"p":{"$ref":"#/$defs/point"}},"$defs":{"point":{"type":"object","required":["x"]}}}`, `{"p":{"y":1}}`,
			[]string{`/$defs/point: required: p lacks the required property ["x"]`}},
		{"definitions", `{"properties":{"p":{"$ref":"#/definitions/n"}},"definitions":{"n":{"type":"number"}}}`, `{"p":"1"}`,
			[]string{`/definitions/n: type: p is "1" (a string), want a number`}},
		{"recursive", `{"type":"object","properties":{"name":{"type":"string"},"kids":{"type":"array","items":{"$ref":"#"}}}}`,
			`{"name":"a","kids":[{"name":"b","kids":[{"name":3}]}]}`, []string{`/properties/name: type: kids[0].kids[0].name is 3 (an integer), want a string`}},
		{"external ref ignored", `{"$ref":"https://example.com/s.json"}`, `1`, nil},
		{"unknown keywords ignored", `{"type":"string","format":"email","x-weird":{"type":"number"},"contentMediaType":"text/plain"}`, `"not an email"`, nil},
		{"odd property names", `{"properties":{"a b":{"type":"string"}}}`, `{"a b":1}`, []string{`/properties/a b: type: ["a b"] is 1`}},
		{"several problems", `{"properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["c"]}`, `{"a":1,"b":2}`,
			[]string{"required", "/properties/a: type", "/properties/b: type"}},
		{"dependentRequired", `{"dependentRequired":{"a":["b"]}}`, `{"a":1}`, []string{`has "a" but lacks "b"`}},
		{"contains", `{"contains":{"type":"string"}}`, `[1,2]`, []string{"contains: the value has 0 items that match"}},
	} {
		s, err := Compile([]byte(tc.schema))
		if err != nil {
			t.Errorf("%s: Compile: %v", tc.name, err)
			continue
		}
		err = s.ValidateJSON([]byte(tc.value))
		switch {
		case len(tc.want) == 0 && err != nil:
			t.Errorf("%s: got %v, want no error", tc.name, err)
		case len(tc.want) > 0 && err == nil:
			t.Errorf("%s: got no error, want one saying %q", tc.name, tc.want)
		case err != nil:
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s: got %q, want it to say %q", tc.name, err, w)
				}
			}
		}
	}
}

func TestCompileErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ schema, want string }{
		{`[1]`, "an object or a boolean"},
		{`{"type":`, "unexpected EOF"},
		{`{} {}`, "more than one"},
		{`{"properties":{"a":{"$ref":"#/$defs/nothing"}}}`, `/properties/a: $ref "#/$defs/nothing" leads nowhere`},
	} {
		if _, err := Compile([]byte(tc.schema)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error saying %q", tc.schema, err, tc.want)
		}
	}
}

// TestSelfReference checks that a schema whose $refs lead only to each
// other ends with an error, not a stack overflow.
func TestSelfReference(t *testing.T) {
	t.Parallel()
	s, err := Compile([]byte(`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.ValidateJSON([]byte(`1`)); err == nil || !strings.Contains(err.Error(), "too deeply") {
		t.Errorf("got %v, want an error about the depth", err)
	}
}

func TestMaxErrors(t *testing.T) {
	t.Parallel()
	s, err := Compile([]byte(`{"items":{"type":"string"}}`))
	if err != nil {
		t.Fatal(err)
	}
	err = s.ValidateJSON([]byte(`[1,2,3,4,5,6,7,8,9,10,11,12]`))
	if n := strings.Count(err.Error(), "; ") + 1; n != maxErrors {
		t.Errorf("got %d problems, want %d: %v", n, maxErrors, err)
	}
}

// FuzzValidate checks arbitrary values against arbitrary schemas: the
// checker never panics, and a value is valid against true.
func FuzzValidate(f *testing.F) {
	f.Add(`{"type":"object","properties":{"a":{"$ref":"#/$defs/n"}},"$defs":{"n":{"type":["number","null"],"minimum":1}},"required":["a"]}`, `{"a":0.5}`)
	f.Add(`{"items":[{"enum":[1,"x"]}],"additionalItems":{"anyOf":[{"pattern":"^a"},{"multipleOf":0}]}}`, `[1,"b",2]`)
	f.Add(`{"oneOf":[{"$ref":"#"}],"not":{"const":null},"if":{"minLength":2},"then":{"maxLength":1}}`, `"abc"`)
	f.Add(`{"patternProperties":{"(":{}},"additionalProperties":false,"propertyNames":{"maxLength":1},"dependentRequired":{"a":["b"]}}`, `{"a":1}`)
	f.Fuzz(func(t *testing.T, schema, value string) {
		if s, err := Compile([]byte(schema)); err == nil {
			_ = s.ValidateJSON([]byte(value))
		}
		if s, _ := Compile([]byte(`true`)); s.ValidateJSON([]byte(value)) != nil && json.Valid([]byte(value)) {
			t.Errorf("%s is refused by the schema true", value)
		}
	})
}
