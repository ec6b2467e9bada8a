// Package schema checks JSON values against the part of JSON Schema that
// MCP servers use to describe a tool's arguments (drafts 4 to 2020-12
// read alike): type, properties, required, additionalProperties,
// patternProperties, items and prefixItems, enum, const, the numeric and
// length bounds, pattern, anyOf, oneOf, allOf, not, if/then/else and
// $ref within the document.
//
// A keyword it does not know is ignored, and so is a pattern that Go's
// regexp cannot read or a $ref to another document: a value is refused
// only for a reason the schema states and the checker understands. Its
// messages name the schema's location, the field of the value, and what
// was expected, for a model to correct its call.
package schema
