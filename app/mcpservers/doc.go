// Package mcpservers is the person's MCP servers as pair starts them:
// the mcp_servers entries of .pair.yml with ${VAR} and ${PAIR} expanded
// (Configs), started for a session with what did not start reported
// (Start), and pair mcp list without its flags (List).
package mcpservers
