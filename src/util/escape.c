/* escape.c: UTF-8 validity, and text escaped for a terminal (see
 * escape.h). The JSON writer shares the validity check. */
#include "config.h"

#include "util/escape.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

size_t
escape_utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	size_t len, i;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF) {
		len = 2;
		cp = c & 0x1F;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		cp = c & 0x0F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
	    (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return len;
}

/* The C escape ls -b uses for c, or 0 where it writes octal. */
static char
c_escape(unsigned char c)
{
	static const char from[] = "\t\n\r\a\b\f\v\\", to[] = "tnrabfv\\";
	const char *p = c != '\0' ? strchr(from, c) : NULL;

	return p != NULL ? to[p - from] : 0;
}

/* Whether the n bytes at p (n from escape_utf8_len) are escaped: not
 * UTF-8, a C0 or C1 control, DEL, or the backslash itself. */
static int
needs_escape(const unsigned char *p, size_t n)
{
	return n == 0 || (n == 2 && p[0] == 0xC2 && p[1] < 0xA0) ||
	    (n == 1 && (*p < 0x20 || *p == 0x7F || *p == '\\'));
}

int
escape_is_plain(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p != '\0') {
		size_t n = escape_utf8_len(p);

		if (needs_escape(p, n))
			return 0;
		p += n;
	}
	return 1;
}

char *
escape_alloc(const char *s)
{
	size_t len = ESCAPE_LEN(strlen(s));
	char *buf = malloc(len), *fit;

	if (buf == NULL)
		return NULL;
	escape_for_terminal(s, buf, len);
	fit = realloc(buf, strlen(buf) + 1);
	return fit != NULL ? fit : buf;
}

void
escape_for_terminal(const char *s, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	struct strbuf b;

	strbuf_init(&b, buf, len);
	while (*p != '\0') {
		size_t n = escape_utf8_len(p), i;
		char piece[8];
		int bad = needs_escape(p, n);

		if (!bad) {
			if (strbuf_add_whole(&b, (const char *)p, n) == -1)
				break;
			p += n;
			continue;
		}
		/* Byte by byte: an invalid sequence's first byte, or each
		 * byte of a control character. */
		for (i = 0; i < (n == 0 ? 1 : n); i++) {
			char e = c_escape(p[i]);
			int k = e ? snprintf(piece, sizeof piece, "\\%c", e) :
			    snprintf(piece, sizeof piece, "\\%03o", p[i]);

			if (strbuf_add_whole(&b, piece, (size_t)k) == -1)
				return;
		}
		p += n == 0 ? 1 : n;
	}
}

/* The byte the C escape letter e stands for, or 0. */
static char
c_unescape(char e)
{
	static const char from[] = "tnrabfv\\", to[] = "\t\n\r\a\b\f\v\\";
	const char *p = e != '\0' ? strchr(from, e) : NULL;

	return p != NULL ? to[p - from] : 0;
}

int
escape_undo(const char *s, char *buf, size_t len)
{
	size_t at = 0;

	if (len == 0)
		return -1;
	while (*s != '\0') {
		char c = *s++;

		if (c == '\\') {
			char e = c_unescape(*s);

			if (e != 0) {
				c = e;
				s++;
			} else if (s[0] >= '0' && s[0] <= '3' && s[1] >= '0' && s[1] <= '7' &&
			    s[2] >= '0' && s[2] <= '7') {
				c = (char)((s[0] - '0') * 64 + (s[1] - '0') * 8 + (s[2] - '0'));
				s += 3;
				if (c == '\0')
					return -1;
			} else
				return -1;
		}
		if (at + 1 >= len)
			return -1;
		buf[at++] = c;
	}
	buf[at] = '\0';
	return 0;
}
