package agent

import (
	"regexp"
	"strings"
	"sync"
)

// The task types of a request (docs/ARCHITECTURE.md, "From a model's reply to a commit").
const (
	TaskRepoQnA     = "repo_qna"
	TaskDocs        = "doc_generation"
	TaskRefactor    = "refactor_plan"
	TaskCommandHelp = "command_help"
	TaskTests       = "test_workflow"
	TaskCodeChange  = "code_change"
	TaskUnsupported = "unsupported"
)

var (
	// Things outside a repository that pair cannot do at all.
	unsupportedRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(weather|stock prices?|send (an? )?(e-?mail|text|sms)|book (a|an|me)|buy me|purchase|order (a|me)|tweet|post (it )?(on|to) (twitter|facebook|linkedin|slack)|credit card|bank account|phone number of|lottery|write (me )?an? (poem|song|story|novel)|tell (me )?a joke|recipe for|horoscope|capital (city )?of|who won|hack into|ddos|steal)\b`)
	})
	testsRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(tests?|testing|unit tests?|test suite|failing test|coverage|go test|pytest|jest|ci is (red|failing))\b`)
	})
	docsRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(document(ation)?|docs?|docstrings?|doc comments?|godoc|readme|changelog|comments? (for|to|on)|jsdoc|javadoc)\b`)
	})
	refactorRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(refactor(ing)? (plan|strategy|approach)|plan (a|the|for|to)|migration plan|how (should|would|could|can|do) (i|we|you) (best )?(refactor|restructure|split|organi[sz]e|modulari[sz]e|decouple|clean up)|(suggest|propose|outline|sketch)( a| the)? (plan|design|way|approach|steps)|(suggest|propose|outline) how to (refactor|restructure|split|organi[sz]e)|design (a|the) )`)
	})
	commandRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("(?i)(\\bhow (do|can|to) (i|we|you)? ?(run|build|install|start|deploy|lint|format|compile|debug|release|use)\\b|\\bwhich (command|flag|option)\\b|\\bwhat (command|flag)\\b|\\bcommand (to|for|line)\\b|\\bgit (rebase|bisect|stash|cherry-pick|reset|revert)\\b|`[a-z-]+ [^`]*`\\?)")
	})
	changeRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^\s*(please\s+)?(add|fix|change|implement|rename|remove|delete|update|replace|refactor|rewrite|make|create|convert|extract|move|use|support|handle|return|log|bump|upgrade|port|write|generate|improve|optimi[sz]e|clean up|simplify)\b`)
	})
)

// Classify decides a request's task type from its words alone, without
// a model call. mode is "edit" or "ask": an edit defaults to a code
// change, a question to repo_qna.
func Classify(request string, mode Mode) string {
	r := strings.TrimSpace(request)
	switch {
	case unsupportedRE().MatchString(r):
		return TaskUnsupported
	case refactorRE().MatchString(r):
		return TaskRefactor
	case commandRE().MatchString(r):
		return TaskCommandHelp
	case docsRE().MatchString(r) && !testsRE().MatchString(r):
		return TaskDocs
	case testsRE().MatchString(r):
		return TaskTests
	case changeRE().MatchString(r):
		if mode == ModeAsk {
			return TaskRepoQnA
		}
		return TaskCodeChange
	}
	if mode == ModeAsk || strings.HasSuffix(r, "?") {
		return TaskRepoQnA
	}
	return TaskCodeChange
}
