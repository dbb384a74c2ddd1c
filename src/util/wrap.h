/* wrap.h: word-wrapping for the text report and --help, so that neither
 * runs past its width on any input. */
#ifndef SYNCPROBE_WRAP_H
#define SYNCPROBE_WRAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The length of text's first line in room columns: all of it when it
 * fits; else the longest prefix ending before a space; with commas, where
 * there is none, the longest ending after a comma; a word longer than the
 * room is cut at the room. */
size_t wrap_fit(const char *text, size_t room, bool commas);

/* Print text wrapped to width columns, one newline after each line: the
 * first line indented by first spaces, the others by rest. */
void wrap_print(FILE *out, int first, int rest, int width, const char *text, bool commas);

#endif
