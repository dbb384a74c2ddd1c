/* strbuf.c: text built piece by piece in a fixed buffer (strbuf.h). */
#include "config.h"

#include "util/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void
strbuf_init(struct strbuf *b, char *buf, size_t len)
{
	b->buf = buf;
	b->len = len;
	b->used = 0;
	b->cut = len == 0;
	if (len > 0)
		buf[0] = '\0';
}

void
strbuf_resume(struct strbuf *b, char *buf, size_t len)
{
	b->buf = buf;
	b->len = len;
	b->used = len > 0 ? strlen(buf) : 0;
	b->cut = b->used + 1 >= len;
}

void
strbuf_add(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->cut)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->buf + b->used, b->len - b->used, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->buf[b->used] = '\0';
		b->cut = true;
	} else if ((size_t)n >= b->len - b->used) {
		b->used = b->len - 1;
		b->cut = true;
	} else {
		b->used += (size_t)n;
	}
}

int
strbuf_add_whole(struct strbuf *b, const char *piece, size_t n)
{
	if (b->cut || b->used + n >= b->len) {
		b->cut = true;
		return -1;
	}
	memcpy(b->buf + b->used, piece, n);
	b->used += n;
	b->buf[b->used] = '\0';
	return 0;
}
