// Package edit reads, places, applies, splits and renders unified diffs.
//
// It is pure: text in, text out, with no access to files or git. Models
// write imperfect diffs, so Parse is lenient and Place finds each hunk by
// its content, using line numbers only to choose between equally good
// places. A hunk that fits two places equally well is refused rather
// than guessed: applying a hunk in the wrong place is the worst thing
// this package could do.
//
// # Placement
//
// Placement is a pipeline, one file at a time, that reads top to bottom
// in place.go (choosePlaces, then finish); one value (hunkPlace) holds a
// hunk's state:
//
//  1. candidates: the places a hunk might go, at the strictest pass that
//     finds any (exact; whitespace; Unicode look-alikes; then the fuzzy
//     pass, forgiving a missing, extra or slightly changed context line;
//     two hunks fused into one; a git hunk at an edge of the file). A
//     candidate carries its alignment and its cost, nothing more;
//  2. choice: one place among the candidates, by the hunks around it and
//     the header's line number;
//  3. reading: the place resolved into the lines to write. Indentation is
//     decided by an ordered table of named cases over the evidence of the
//     hunk's deleted and context lines (indentCases); file lines the
//     patch left out beside added lines are ordered by another
//     (orderCases);
//  4. checks of one hunk, then checks of the file's hunks together, in
//     the order written down once in readLines and finish.
//
// Each rule has an id, a stage, a one-line statement (see Rules) and
// gives a verdict: certain; likely, with a reason (the hunk is refused,
// with the reading offered for review as uncertain, which --yes never
// takes); or refuse, with a reason. Every placed hunk (Resolved.Rules)
// and every refused one (PlacementError.Rules) carries the ids of the
// rules that decided it. The pass that found a place is its label
// (Resolved.Label); "interpreted" and "uncertain" are labels of trust,
// given to readings offered on a refusal, not passes; "conflict" is a
// hunk that writes git's conflict markers, where a three-way reading
// against a patch's preimage found the file and the patch changing the
// same lines (FilePlan.Conflicts). A hunk that need
// not be applied (it changes nothing, is applied already, or repeats
// another) is skipped and reported, not refused (PlacementError.Skip,
// FilePlan.Skipped), unless the whole patch would then change nothing.
// The rules, by stage:
//
//   - candidates: hasContext, zeroContext, reducedContext,
//     ignoreWhitespace, changesSomething, alreadyApplied,
//     appliedSkipped, fitsSomewhere, duplicateOnce, looseReadings,
//     addedInstead, sameEffect, keepShaped, fused, atEdge, blankEdge,
//     blankRunLength, noNewlineAtEnd, atGitEdges, contextAsGit,
//     pinnedEdge
//   - choice: onePlace, assignTwins, betweenNeighbours, nearestHeader,
//     ambiguous, distinctive, pinnedByNumber
//   - reading: indentLearnt, offStyle, unanimousFit, deletedUnchanged,
//     blankAdds, addsAtNeighbours, indentFromOneLine, indentUnknown,
//     lentStyle, indentsFit, fallbackStyle, spacedOnly, unchangedPair,
//     movedInComment, movedInRawString, orderByShape, gitOrder,
//     blanksFit, editsInPlace, orderUnknown
//   - check: completeEdge, checkShape, lostAtEdge, checkLostTrail,
//     checkNearEdge, interpreted, noOpAsContext, contextFits
//   - file: noOpSkipped, nothingToApply, readingSyntax, dropTwins,
//     dropBound, noOverlap, guard, chooseOrders
//
// A Resolved hunk holds the exact lines of the file it covers and the
// lines that replace them, so what a reviewer approves is what Apply
// writes. Apply keeps line endings, the final newline (or its absence) and
// everything outside the hunks byte for byte. Render writes resolved hunks
// back as a unified diff that git apply accepts, and Split cuts a hunk at
// the context lines between its changes, like the "s" of git add -p.
//
// ParseEdits reads the other forms models write as well (Aider's
// SEARCH/REPLACE blocks, the V4A apply_patch form, a whole file in a fence
// under its path) into the same FileDiff and Hunk model, so that one
// placement engine, with the same refusals, places them all.
//
// git's binary patches ("GIT binary patch", literal or delta, base85 and
// zlib) are decoded by Parse and applied whole by FileDiff.ApplyBinary,
// which checks the content and the result against the blob ids of the
// "index" line, as git apply does.
package edit
