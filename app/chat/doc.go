// Package chat runs pair edit, ask and review without their flags: it
// opens or continues a session, adapts the agent to a review front end
// (the terminal, letters given ahead, --yes, or the local web page),
// shows the loop's events, runs the chat with its slash commands, and
// maps a turn's outcome to pair's exit status.
//
// It sits between agent and review, which do not know each other: it
// turns the agent's Proposal into a review.Review and the decisions back
// into an agent.Outcome.
package chat
