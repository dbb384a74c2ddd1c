/* svg.h: one SVG document and what is drawn in it: text (every string from
 * outside made safe for XML), lines, boxes, polylines and markers. The
 * pictures (svg_dist, svg_sweep and their callers) are drawn twice: once
 * with out == NULL, which draws nothing and only lays out (the height),
 * then into the document, so that the document's size is known before its
 * first element. Everything written is a pure function of the arguments:
 * no time, no randomness, numbers with fixed decimals (golden files). */
#ifndef SYNCPROBE_SVG_H
#define SYNCPROBE_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define SVG_WIDTH  900	/* px: reads on a laptop screen, whole */
#define SVG_MARGIN 16	/* px around everything */
#define SVG_INK    "#222222"	/* text and axes */
#define SVG_MUTED  "#595959"	/* notes: still 7:1 against white */
#define SVG_GRID   "#d9d9d9"
#define SVG_BAND   "#f2f2f2"	/* every other row's background */
/* A character of the monospace font is 0.6 of its size wide (DejaVu Sans
 * Mono: 0.602; Liberation Mono, Courier: 0.6); a sans-serif one averages
 * less in words (DejaVu Sans: about 0.55, Helvetica, Arial: 0.5), so
 * text reckoned at these widths stays inside the room it was given. */
#define SVG_MONO_WIDTH 0.61
#define SVG_SANS_WIDTH 0.57

enum svg_font { SVG_SANS, SVG_MONO };
enum svg_anchor { SVG_START, SVG_MIDDLE, SVG_END };

struct svg_font_style {
	enum svg_font font;
	double size;		/* px */
	bool bold;
	bool italic;
	const char *fill;	/* NULL: SVG_INK */
	enum svg_anchor anchor;
};

struct svg_stroke {
	const char *colour;
	double width;
	const char *dash;	/* a stroke-dasharray, or NULL: solid */
};

/* The pictures' fonts: a title, a heading, text (bold, or muted for
 * what explains), and monospace for paths and settings. */
extern const struct svg_font_style svg_title_font, svg_head_font, svg_text_font,
    svg_bold_font, svg_muted_font, svg_mono_font, svg_mono_bold_font;

/* Marker shapes: told apart without colour. */
enum svg_shape {
	SVG_CIRCLE, SVG_SQUARE, SVG_TRIANGLE, SVG_DIAMOND, SVG_DOWN_TRIANGLE,
	SVG_SHAPE_COUNT
};

/* The document's start: the XML declaration, the root element of width x
 * height px on a white background, its <title> and its <desc> (both
 * escaped), the generic font families. */
void svg_begin(FILE *out, double width, double height, const char *title, const char *desc);
void svg_end(FILE *out);

/* s as the picture shows it, into buf (cut short at a whole character,
 * never overrun): valid UTF-8 that XML 1.0 allows stays as it is; each
 * control character (C0, DEL, C1) is written as the text report writes it
 * (\t, \n, ... or \ooo), as is each byte that is not valid UTF-8 and the
 * two non-characters U+FFFE and U+FFFF that XML forbids. A backslash
 * stays one: showing a shown string again changes nothing, so strings a
 * saved report held (compare escapes them as it reads them) are shown as
 * they were. */
void svg_shown(const char *s, char *buf, size_t len);

/* s shown (svg_shown), with &, <, >, " and ' as XML entities: safe in
 * text and in an attribute. */
void svg_put_text(FILE *out, const char *s);

/* How wide text (shown) is in the font, reckoned from its characters. */
double svg_text_width(const char *s, const struct svg_font_style *f);

/* A line of text at (x, y), the baseline. NULL out: nothing. */
void svg_text(FILE *out, double x, double y, const struct svg_font_style *f, const char *s);

/* The same, cut to fit width px, ending in "..." where it was cut. */
void svg_text_fit(FILE *out, double x, double y, const struct svg_font_style *f, double width,
    const char *s);

/* Text word-wrapped to width px, a line every line_height px from y (the
 * first baseline), the lines after the first indented by indent px; at
 * most max_lines lines, the last cut with "..." where more was left. The
 * number of lines it takes (drawn or not). */
size_t svg_text_wrap(FILE *out, double x, double y, const struct svg_font_style *f,
    double width, double indent, double line_height, size_t max_lines, const char *s);

void svg_line(FILE *out, double x1, double y1, double x2, double y2, const struct svg_stroke *s);

/* A rectangle filled with fill (NULL: none), outlined by s (NULL: none). */
void svg_rect(FILE *out, double x, double y, double w, double h, const char *fill,
    const struct svg_stroke *s);

/* A polyline through n points (x[i], y[i]). */
void svg_polyline(FILE *out, const double *x, const double *y, size_t n,
    const struct svg_stroke *s);

/* A marker of radius r centred on (x, y): filled with fill (NULL: white;
 * "none": a ring), outlined in colour. */
void svg_marker(FILE *out, enum svg_shape shape, double x, double y, double r, const char *fill,
    const char *colour);

#endif
