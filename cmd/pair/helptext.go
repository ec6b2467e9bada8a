package main

import "github.com/urfave/cli/v2"

// appHelpExtra follows the commands and options in pair --help: examples
// to start from, and the environment variables pair reads.
const appHelpExtra = `
EXAMPLES:
   pair demo                                  try the review on a throwaway repository
   pair edit calc.go                          chat about calc.go; review each hunk before it is written
   pair edit -m 'guard against an empty name' greet.go
                                              one request, reviewed, then exit
   pair ask 'where are sessions saved?'       a read-only question
   pair review                                finish the review a session is waiting for
   pair apply fix.diff                        review and apply a patch, hunk by hunk
   git diff main | pair apply                 the same from standard input (keys from the terminal)
   pair log                                   pair's commits with their reviews
   pair undo                                  take back the last pair commit

ENVIRONMENT:
   OPENAI_BASE_URL    the model server's address, e.g. http://localhost:11434/v1 (Ollama);
                      OPENAI_API_BASE is read when it is not set
   OPENAI_API_KEY     the server's key (a local server may need none)
   PAIR_MODEL         the model, when --model is not given (e.g. qwen2.5-coder, anthropic/claude-sonnet-4)
   GIT_EDITOR, VISUAL, EDITOR
                      the editor of the e key, chosen as git chooses it (with core.editor)
   GIT_PAGER, PAGER   the pager of long output, chosen as git chooses it (with core.pager)
   NO_COLOR           not empty: no colour; CLICOLOR_FORCE (not 0): colour even on a pipe
   TERM               dumb: no colour and no line editing
   GIT_AUTHOR_NAME, GIT_AUTHOR_EMAIL, GIT_COMMITTER_NAME, GIT_COMMITTER_EMAIL, EMAIL
                      who pair's commits are by, as git reads them
   GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, GIT_CONFIG_NOSYSTEM, XDG_CONFIG_HOME, HOME
                      where git's configuration (and ~/.pair.yml) is read from, as git reads them
   PAIR               pair's own path in the MCP servers of .pair.yml (${PAIR}), unless set
`

// appHelpTemplate is urfave/cli's help with appHelpExtra after it.
var appHelpTemplate = cli.AppHelpTemplate + appHelpExtra
