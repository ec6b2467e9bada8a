// Package safetext makes untrusted text safe to print: text that comes from
// a patch, a model or a repository (hunk lines, file names, commit
// subjects, the model's words) can hold escape sequences that move the
// cursor or erase lines, and Unicode characters that reorder or hide text,
// so that a terminal or a page shows something other than what is there.
//
// Every such character is shown in a visible form instead, and a line that
// held one is marked, so that a reviewer cannot miss it:
//
//   - the C0 controls U+0000–U+001F and DEL in caret notation: ESC is ^[,
//     a carriage return ^M, a newline ^J, NUL ^@, DEL ^?; tab stays a tab
//     in text (it is shown as ^I only in names);
//   - the C1 controls U+0080–U+009F, the line and paragraph separators
//     U+2028 and U+2029, and every Unicode format character (category Cf:
//     the bidi controls U+202A–U+202E and U+2066–U+2069, the zero-width
//     characters U+200B–U+200F, U+FEFF, the tag characters…) as \u202e, or
//     \U000e0041 above U+FFFF;
//   - a byte that is not valid UTF-8 as \xff;
//   - the characters that print as nothing or as a blank, the same way:
//     Unicode's default-ignorable code points (the Hangul fillers U+115F,
//     U+1160, U+3164 and U+FFA0, valid in JavaScript names; the variation
//     selectors U+FE00–FE0F and U+E0100–E01EF…), every white space but
//     space, tab and newline, the Braille blank U+2800, and code points not
//     yet assigned;
//   - a letter of Cyrillic, Greek, Armenian or Cherokee that looks like a
//     Latin one, inside a word otherwise Latin ("p\u0430ssword"), or the
//     Latin letters of a word mostly in one of those scripts. A word
//     wholly in one script, accented letters and other scripts are shown
//     as they are.
//
// The marker is Marker, after the line (or NameMarker, after a name inside
// a sentence); a line that held no control or format character is marked
// InvisibleMarker, or LookalikeMarker. A visible form such as ^[ written literally in the text is
// shown as it is; the marker tells the two apart.
//
// Escaping is for display only: the bytes that are applied, committed or
// sent are never changed.
package safetext
