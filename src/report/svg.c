/* svg.c: the SVG document and its elements (see svg.h). Every number is
 * written with at most one decimal, so that a picture is the same bytes on
 * every machine; every string goes through svg_put_text. */
#include "config.h"

#include "report/svg.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/escape.h"
#include "util/wrap.h"

#define PIECE_LEN 20	/* one character shown: at most 4 bytes, or 4 escapes */
#define ELLIPSIS  "..."

const struct svg_font_style svg_title_font = { SVG_SANS, 16.0, true, false, NULL, SVG_START };
const struct svg_font_style svg_head_font = { SVG_SANS, 13.0, true, false, NULL, SVG_START };
const struct svg_font_style svg_text_font = { SVG_SANS, 11.0, false, false, NULL, SVG_START };
const struct svg_font_style svg_bold_font = { SVG_SANS, 11.0, true, false, NULL, SVG_START };
const struct svg_font_style svg_muted_font = { SVG_SANS, 11.0, false, false, SVG_MUTED,
    SVG_START };
const struct svg_font_style svg_mono_font = { SVG_MONO, 11.0, false, false, NULL, SVG_START };
const struct svg_font_style svg_mono_bold_font = { SVG_MONO, 11.0, true, false, NULL,
    SVG_START };

/* A coordinate or size: one decimal, none when it is whole, never "-0". */
static void
put_num(FILE *out, double v)
{
	long long tenths;

	if (!isfinite(v))
		v = 0.0;
	tenths = llround(v * 10.0);
	if (tenths < 0) {
		fputc('-', out);
		tenths = -tenths;
	}
	fprintf(out, "%lld", tenths / 10);
	if (tenths % 10 != 0)
		fprintf(out, ".%lld", tenths % 10);
}

/* name="v" with a space before it. */
static void
put_attr_num(FILE *out, const char *name, double v)
{
	fprintf(out, " %s=\"", name);
	put_num(out, v);
	fputc('"', out);
}

/* Whether the n bytes at p (valid UTF-8, n > 1) are a character the
 * picture shows as it is: not a C1 control (U+0080..U+009F), which a
 * terminal may obey, nor U+FFFE or U+FFFF, which XML 1.0 does not allow. */
static bool
shows_as_is(const unsigned char *p, size_t n)
{
	if (n == 2 && p[0] == 0xC2 && p[1] < 0xA0)
		return false;
	return !(n == 3 && p[0] == 0xEF && p[1] == 0xBF && (p[2] == 0xBE || p[2] == 0xBF));
}

/* The character at p as the picture shows it, into piece (NUL-ended);
 * how many bytes of p it took. */
static size_t
shown_piece(const unsigned char *p, char *piece)
{
	static const char from[] = "\t\n\r\a\b\f\v", to[] = "tnrabfv";
	size_t n = escape_utf8_len(p), i, at = 0;

	if ((n == 1 && *p >= 0x20 && *p != 0x7F) || (n > 1 && shows_as_is(p, n))) {
		memcpy(piece, p, n);
		piece[n] = '\0';
		return n;
	}
	/* Byte by byte: an invalid sequence's first byte, or each byte of a
	 * control character, as the text report escapes them. */
	for (i = 0; i < (n == 0 ? 1 : n); i++) {
		const char *c = strchr(from, p[i]);

		if (p[i] != '\0' && c != NULL)
			at += (size_t)snprintf(piece + at, PIECE_LEN - at, "\\%c", to[c - from]);
		else
			at += (size_t)snprintf(piece + at, PIECE_LEN - at, "\\%03o", p[i]);
	}
	return n == 0 ? 1 : n;
}

void
svg_shown(const char *s, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	char piece[PIECE_LEN];
	size_t at = 0, k;

	if (len == 0)
		return;
	while (*p != '\0') {
		p += shown_piece(p, piece);
		k = strlen(piece);
		if (at + k >= len)
			break;
		memcpy(buf + at, piece, k);
		at += k;
	}
	buf[at] = '\0';
}

/* s shown, whole, in memory of its own (free it); NULL when out of memory. */
static char *
shown_alloc(const char *s)
{
	size_t len = 4 * strlen(s) + 1;
	char *buf = malloc(len);

	if (buf != NULL)
		svg_shown(s, buf, len);
	return buf;
}

void
svg_put_text(FILE *out, const char *s)
{
	static const char specials[] = "&<>\"'";
	static const char *const entities[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;" };
	const unsigned char *p = (const unsigned char *)s;
	char piece[PIECE_LEN];
	const char *special;

	while (*p != '\0') {
		p += shown_piece(p, piece);
		special = piece[0] != '\0' && piece[1] == '\0' ? strchr(specials, piece[0]) : NULL;
		fputs(special != NULL ? entities[special - specials] : piece, out);
	}
}

/* Characters in s (UTF-8 sequences count one, a stray byte one). */
static size_t
char_count(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			n++;
	return n;
}

/* The width of one character of the font, in px. */
static double
char_width(const struct svg_font_style *f)
{
	return f->size * (f->font == SVG_MONO ? SVG_MONO_WIDTH : SVG_SANS_WIDTH);
}

double
svg_text_width(const char *s, const struct svg_font_style *f)
{
	char *shown = shown_alloc(s);
	double w = (double)char_count(shown != NULL ? shown : s) * char_width(f);

	free(shown);
	return w;
}

/* The byte length of the first chars characters of s (all of it when it
 * has fewer). */
static size_t
chars_prefix(const char *s, size_t chars)
{
	size_t i = 0, n = 0;

	while (s[i] != '\0') {
		if (((unsigned char)s[i] & 0xC0) != 0x80 && n++ == chars)
			break;
		i++;
	}
	return i;
}

static void
open_text(FILE *out, double x, double y, const struct svg_font_style *f)
{
	static const char *const anchors[] = { "start", "middle", "end" };

	fputs("<text", out);
	put_attr_num(out, "x", x);
	put_attr_num(out, "y", y);
	if (f->font == SVG_MONO)
		fputs(" font-family=\"monospace\"", out);
	put_attr_num(out, "font-size", f->size);
	if (f->bold)
		fputs(" font-weight=\"bold\"", out);
	if (f->italic)
		fputs(" font-style=\"italic\"", out);
	if (f->anchor != SVG_START)
		fprintf(out, " text-anchor=\"%s\"", anchors[f->anchor]);
	fprintf(out, " fill=\"%s\">", f->fill != NULL ? f->fill : SVG_INK);
}

void
svg_text(FILE *out, double x, double y, const struct svg_font_style *f, const char *s)
{
	if (out == NULL || s[0] == '\0')
		return;
	open_text(out, x, y, f);
	svg_put_text(out, s);
	fputs("</text>\n", out);
}

/* The first n bytes of shown text, with "..." after them when cut. */
static void
put_cut(FILE *out, double x, double y, const struct svg_font_style *f, const char *shown,
    size_t n, bool cut)
{
	char *part = malloc(n + sizeof ELLIPSIS);

	if (part == NULL)
		return;
	memcpy(part, shown, n);
	snprintf(part + n, sizeof ELLIPSIS, "%s", cut ? ELLIPSIS : "");
	svg_text(out, x, y, f, part);
	free(part);
}

/* How many characters of the font fit in width px (at least one). */
static size_t
chars_in(double width, const struct svg_font_style *f)
{
	double n = floor(width / char_width(f));

	return n < 1.0 ? 1 : (size_t)n;
}

void
svg_text_fit(FILE *out, double x, double y, const struct svg_font_style *f, double width,
    const char *s)
{
	size_t room = chars_in(width, f), keep;
	char *shown;

	if (out == NULL || (shown = shown_alloc(s)) == NULL)
		return;
	if (char_count(shown) <= room)
		svg_text(out, x, y, f, shown);
	else {
		keep = chars_prefix(shown, room > strlen(ELLIPSIS) ? room - strlen(ELLIPSIS) : 0);
		put_cut(out, x, y, f, shown, keep, true);
	}
	free(shown);
}

/* The bytes of the next line of p in room characters: wrap_fit's break,
 * moved back to a whole character where it cut one (wrap_fit counts
 * bytes; a line of UTF-8 then holds fewer characters than room). */
static size_t
line_bytes(const char *p, size_t room)
{
	size_t n = wrap_fit(p, chars_prefix(p, room), false);

	while (n > 0 && ((unsigned char)p[n] & 0xC0) == 0x80)
		n--;
	return n > 0 ? n : chars_prefix(p, 1);
}

size_t
svg_text_wrap(FILE *out, double x, double y, const struct svg_font_style *f, double width,
    double indent, double line_height, size_t max_lines, const char *s)
{
	char *shown = shown_alloc(s);
	const char *p;
	size_t lines = 0;

	if (shown == NULL)
		return 0;
	for (p = shown; *p == ' '; p++)
		;
	while (*p != '\0' && lines < max_lines) {
		double in = lines > 0 ? indent : 0.0;
		size_t room = chars_in(width - in, f), n = line_bytes(p, room);
		bool last = lines + 1 == max_lines && p[n] != '\0';

		if (last)	/* room for the "..." that says more was cut */
			n = line_bytes(p, room > strlen(ELLIPSIS) ? room - strlen(ELLIPSIS) : 1);
		put_cut(out, x + in, y + (double)lines * line_height, f, p, n, last);
		lines++;
		for (p += n; *p == ' '; p++)
			;
	}
	free(shown);
	return lines;
}

void
svg_begin(FILE *out, double width, double height, const char *title, const char *desc)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"", out);
	put_attr_num(out, "width", width);
	put_attr_num(out, "height", height);
	fputs(" viewBox=\"0 0 ", out);
	put_num(out, width);
	fputc(' ', out);
	put_num(out, height);
	fputs("\" role=\"img\" aria-labelledby=\"title desc\" font-family=\"sans-serif\" "
	    "font-size=\"12\">\n<title id=\"title\">", out);
	svg_put_text(out, title);
	fputs("</title>\n<desc id=\"desc\">", out);
	svg_put_text(out, desc);
	fputs("</desc>\n", out);
	svg_rect(out, 0, 0, width, height, "#ffffff", NULL);
}

void
svg_end(FILE *out)
{
	fputs("</svg>\n", out);
}

static void
put_stroke(FILE *out, const struct svg_stroke *s)
{
	if (s == NULL) {
		fputs(" stroke=\"none\"", out);
		return;
	}
	fprintf(out, " stroke=\"%s\"", s->colour);
	put_attr_num(out, "stroke-width", s->width);
	if (s->dash != NULL)
		fprintf(out, " stroke-dasharray=\"%s\"", s->dash);
}

void
svg_line(FILE *out, double x1, double y1, double x2, double y2, const struct svg_stroke *s)
{
	if (out == NULL)
		return;
	fputs("<line", out);
	put_attr_num(out, "x1", x1);
	put_attr_num(out, "y1", y1);
	put_attr_num(out, "x2", x2);
	put_attr_num(out, "y2", y2);
	put_stroke(out, s);
	fputs("/>\n", out);
}

void
svg_rect(FILE *out, double x, double y, double w, double h, const char *fill,
    const struct svg_stroke *s)
{
	if (out == NULL)
		return;
	fputs("<rect", out);
	put_attr_num(out, "x", x);
	put_attr_num(out, "y", y);
	put_attr_num(out, "width", w > 0 ? w : 0);
	put_attr_num(out, "height", h > 0 ? h : 0);
	fprintf(out, " fill=\"%s\"", fill != NULL ? fill : "none");
	if (s != NULL)
		put_stroke(out, s);
	fputs("/>\n", out);
}

/* "x,y x,y ...": the points of a polygon or polyline. */
static void
put_points(FILE *out, const double *x, const double *y, size_t n)
{
	size_t i;

	fputs(" points=\"", out);
	for (i = 0; i < n; i++) {
		if (i > 0)
			fputc(' ', out);
		put_num(out, x[i]);
		fputc(',', out);
		put_num(out, y[i]);
	}
	fputc('"', out);
}

void
svg_polyline(FILE *out, const double *x, const double *y, size_t n, const struct svg_stroke *s)
{
	if (out == NULL || n == 0)
		return;
	fputs("<polyline", out);
	put_points(out, x, y, n);
	fputs(" fill=\"none\"", out);
	put_stroke(out, s);
	fputs(" stroke-linejoin=\"round\"/>\n", out);
}

void
svg_marker(FILE *out, enum svg_shape shape, double x, double y, double r, const char *fill,
    const char *colour)
{
	/* Each shape's corners on a unit circle; the triangles a little
	 * larger, so that they look as big as the others. */
	static const struct {
		size_t n;
		double dx[4], dy[4];
	} polys[] = {
		[SVG_TRIANGLE] = { 3, { 0, 1.15, -1.15 }, { -1.25, 0.75, 0.75 } },
		[SVG_DIAMOND] = { 4, { 0, 1.3, 0, -1.3 }, { -1.3, 0, 1.3, 0 } },
		[SVG_DOWN_TRIANGLE] = { 3, { 0, 1.15, -1.15 }, { 1.25, -0.75, -0.75 } },
	};
	struct svg_stroke s = { colour, 1.3, NULL };
	double px[4], py[4];
	size_t i;

	if (out == NULL)
		return;
	if (fill == NULL)
		fill = "#ffffff";
	switch (shape) {
	case SVG_CIRCLE:
		fputs("<circle", out);
		put_attr_num(out, "cx", x);
		put_attr_num(out, "cy", y);
		put_attr_num(out, "r", r);
		break;
	case SVG_SQUARE:
		fputs("<rect", out);
		put_attr_num(out, "x", x - 0.9 * r);
		put_attr_num(out, "y", y - 0.9 * r);
		put_attr_num(out, "width", 1.8 * r);
		put_attr_num(out, "height", 1.8 * r);
		break;
	default:
		for (i = 0; i < polys[shape].n; i++) {
			px[i] = x + r * polys[shape].dx[i];
			py[i] = y + r * polys[shape].dy[i];
		}
		fputs("<polygon", out);
		put_points(out, px, py, polys[shape].n);
		break;
	}
	fprintf(out, " fill=\"%s\"", fill);
	put_stroke(out, &s);
	fputs("/>\n", out);
}
