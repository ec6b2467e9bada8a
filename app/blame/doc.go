// Package blame is pair blame without its flags: for each line of a file,
// the commit that last changed it, as git blame finds it, and for the
// lines of pair's own commits the model, the session and the review's
// decision for the hunk that wrote them (Run); with Stats, for each file,
// the share of its lines a model wrote, by decision.
package blame
