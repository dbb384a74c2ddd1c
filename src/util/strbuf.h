/* strbuf.h: text built piece by piece in a fixed buffer: cut short, never
 * overrun, always ended by a NUL. The one way syncprobe appends to a
 * buffer. */
#ifndef SYNCPROBE_STRBUF_H
#define SYNCPROBE_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len;		/* buf's size */
	size_t used;		/* bytes written, the NUL aside */
	bool cut;		/* something did not fit: nothing more is added */
};

/* Build into buf (len bytes, 0 allowed), emptied. */
void strbuf_init(struct strbuf *b, char *buf, size_t len);

/* Build on after what buf holds already (a NUL-ended string). */
void strbuf_resume(struct strbuf *b, char *buf, size_t len);

/* Append the printf-style text, or as much of it as fits. */
void strbuf_add(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Append the n bytes at piece only if all of them fit: 0, or -1 with
 * nothing of them written (an escape sequence is never cut in two). */
int strbuf_add_whole(struct strbuf *b, const char *piece, size_t n);

#endif
