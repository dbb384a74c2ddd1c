/* diag.h: the one place an error message reaches stderr. Every message is
 * one line, "syncprobe: WHAT: WHY", and what it quotes from outside (a path,
 * an option's value, a reason read from a file) is escaped as the text
 * report escapes a path (util/escape, ls -b style): a name holding escape
 * sequences or a newline cannot move the cursor, retitle the window or
 * forge a line of its own. */
#ifndef SYNCPROBE_DIAG_H
#define SYNCPROBE_DIAG_H

#define DIAG_LEN 8192	/* a message before escaping: a path and its reason */

/* Print "syncprobe: " and the message, escaped, and a newline on stderr. */
void diag_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
