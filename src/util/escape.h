/* escape.h: text from outside syncprobe (paths, and the reasons and device
 * facts that hold them) read as UTF-8 and made safe for a terminal. A path
 * can carry escape sequences; printed as it is, it could move the cursor,
 * retitle the window or hide the text around it. */
#ifndef SYNCPROBE_ESCAPE_H
#define SYNCPROBE_ESCAPE_H

#include <stddef.h>

/* The buffer escape_for_terminal needs for n bytes of text: each byte
 * becomes at most four ("\ooo"), and the terminating NUL. */
#define ESCAPE_LEN(n) (4 * (n) + 1)

/* Length of the valid UTF-8 sequence at s, or 0 if it is not one: no
 * overlong forms, no surrogates, nothing above U+10FFFF. */
size_t escape_utf8_len(const unsigned char *s);

/* s into buf (cut short at a whole escape, never overrun), as ls -b
 * writes a name, spaces aside: \t, \n, \r, \a, \b, \f, \v and \\ for
 * themselves; every other control character, C0 and DEL, and the C1 ones
 * (U+0080..U+009F, which some terminals obey too), as octal bytes \ooo;
 * each byte that is not valid UTF-8 as \ooo too. Valid UTF-8 text stays
 * as it is. */
void escape_for_terminal(const char *s, char *buf, size_t len);

/* escape_for_terminal undone: s (escaped) into buf, NUL-terminated. 0, or
 * -1 when s holds an escape escape_for_terminal never writes (a lone
 * backslash at the end, \x, \400, a NUL by \000) or buf is too small. A
 * string that is escaped, then read back this way, is the one escaped:
 * what syncprobe writes escaped for a reader of its own (the durability
 * writer's file=) and reads back. */
int escape_undo(const char *s, char *buf, size_t len);

/* Whether escape_for_terminal leaves s as it is. */
int escape_is_plain(const char *s);

/* s escaped, whole, in memory of its own (free() it); NULL when out of
 * memory. */
char *escape_alloc(const char *s);

#endif
