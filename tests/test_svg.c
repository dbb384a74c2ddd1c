/* test_svg.c: the SVG writer's parts, exactly: strings shown as the text
 * report shows them and made safe for XML (controls, bytes that are not
 * UTF-8, what XML 1.0 forbids, markup), text cut and wrapped at whole
 * characters, numbers that are the same bytes everywhere, the scales'
 * ticks, and series styles that stay apart. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "report/svg.h"
#include "report/svg_plot.h"
#include "capture.h"
#include "tap.h"

#define NASTY "<script>alert(\"x\")</script> & 'q' \001\033[2J\t\377\357\277\276\302\205\\"

static const struct svg_font_style mono = { SVG_MONO, 10.0, false, false, NULL, SVG_START };

static void
check_shown(const char *in, const char *want, const char *what)
{
	char got[256];

	svg_shown(in, got, sizeof got);
	ok(strcmp(got, want) == 0, "shown: %s: got '%s'", what, got);
}

/* got, a line of the document or more, as TAP diagnostics. */
static void
show(bool pass, const char *got)
{
	const char *p = got != NULL ? got : "(nothing)";

	while (!pass && *p != '\0') {
		size_t n = strcspn(p, "\n");

		printf("# %.*s\n", (int)n, p);
		p += n + (p[n] != '\0');
	}
}

/* What f wrote into memory; the caller frees it. */
static char *
written(void (*f)(FILE *, const void *), const void *arg)
{
	struct capture c;
	FILE *out = capture_open(&c);

	if (out != NULL)
		f(out, arg);
	return capture_close(&c, out);
}

static void
put_text(FILE *out, const void *s)
{
	svg_put_text(out, s);
}

static void
check_put(const char *in, const char *want, const char *what)
{
	char *got = written(put_text, in);

	ok(got != NULL && strcmp(got, want) == 0, "XML: %s: got '%s'", what, got ? got : "");
	free(got);
}

/* Every byte of s is one XML 1.0 allows in text, and no markup starts. */
static bool
xml_safe(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p != '\0'; p++)
		if ((*p < 0x20 && *p != '\n') || *p == 0x7F || *p == '<' || *p == '>' ||
		    *p >= 0x80)
			return false;
	return true;
}

static void
fit_nasty(FILE *out, const void *width)
{
	svg_text_fit(out, 0, 0, &mono, *(const double *)width, NASTY);
}

static void
fit_utf8(FILE *out, const void *width)
{
	/* Twelve e-acutes: two bytes each. */
	svg_text_fit(out, 0, 0, &mono, *(const double *)width, "\303\251\303\251\303\251"
	    "\303\251\303\251\303\251\303\251\303\251\303\251\303\251\303\251\303\251");
}

static void
wrap_words(FILE *out, const void *lines)
{
	*(size_t *)lines = svg_text_wrap(out, 0, 0, &mono, 61.0, 0, 10, 3,
	    "one two three four five six seven eight nine ten eleven twelve");
}

static void
negative_zero(FILE *out, const void *arg)
{
	(void)arg;
	svg_line(out, -0.04, 0.04, -0.06, 12.34, NULL);
}

static void
check_text(void)
{
	double w = 61.0;	/* ten characters of the 10 px monospace font */
	size_t lines = 0;
	char *got, once[256], twice[256];
	bool pass;

	check_shown("/srv/pg data", "/srv/pg data", "plain text stays");
	check_shown("/srv/tab\there", "/srv/tab\\there", "a tab is \\t, as the text report says");
	check_shown("a\nb", "a\\nb", "a newline is \\n");
	check_shown("x\033[31m", "x\\033[31m", "an escape sequence is defused");
	check_shown("\001\177", "\\001\\177", "C0 and DEL in octal");
	check_shown("\302\205", "\\302\\205", "a C1 control in octal");
	check_shown("l\377x", "l\\377x", "a byte that is not UTF-8 in octal");
	check_shown("\357\277\276\357\277\277", "\\357\\277\\276\\357\\277\\277",
	    "U+FFFE and U+FFFF, which XML forbids, in octal");
	check_shown("caf\303\251 \360\237\222\276", "caf\303\251 \360\237\222\276",
	    "valid UTF-8 stays, outside the BMP too");
	check_shown("back\\slash", "back\\slash", "a backslash stays one");
	svg_shown(NASTY, once, sizeof once);
	svg_shown(once, twice, sizeof twice);
	ok(strcmp(once, twice) == 0, "shown twice is shown once (compare's escaped strings)");
	check_put("<script>&\"'", "&lt;script&gt;&amp;&quot;&apos;", "markup and quotes as entities");
	check_put("a\001b", "a\\001b", "a control byte never reaches the document");
	got = written(put_text, NASTY);
	pass = got != NULL && xml_safe(got) && strstr(got, "<script") == NULL;
	ok(pass, "XML: the hostile label is text, every byte one XML allows");
	show(pass, got);
	free(got);

	got = written(fit_nasty, &w);
	pass = got != NULL && strstr(got, ">&lt;script...</text>") != NULL;
	ok(pass, "fit: cut to ten characters, the last three \"...\"");
	show(pass, got);
	free(got);
	got = written(fit_utf8, &w);
	pass = got != NULL && strstr(got, ">\303\251\303\251\303\251\303\251\303\251\303\251"
	    "\303\251...</text>") != NULL;
	ok(pass, "fit: UTF-8 cut at whole characters, counted as characters");
	show(pass, got);
	free(got);
	got = written(wrap_words, &lines);
	pass = got != NULL && lines == 3 && strstr(got, ">one two</text>") != NULL &&
	    strstr(got, ">three four</text>") != NULL && strstr(got, ">five...</text>") != NULL;
	ok(pass, "wrap: at spaces within ten characters, three lines at most, the last cut");
	show(pass, got);
	free(got);
	lines = svg_text_wrap(NULL, 0, 0, &mono, 61.0, 0, 10, 99, "one two three four five");
	ok(lines == 3, "wrap: measured without drawing: %zu lines", lines);
	got = written(negative_zero, NULL);
	pass = got != NULL && strstr(got, "x1=\"0\" y1=\"0\" x2=\"-0.1\" y2=\"12.3\"") != NULL;
	ok(pass, "numbers: one decimal, none when whole, never -0");
	show(pass, got);
	free(got);
}

static void
check_scales(void)
{
	struct svg_scale s;
	double ticks[SVG_MAX_TICKS];
	bool labelled[SVG_MAX_TICKS];
	size_t n;
	char label[32];

	svg_scale_log(&s, 3.2, 870.0, 0.01);
	s.px_lo = 0;
	s.px_hi = 300;
	n = svg_scale_ticks(&s, ticks, labelled, SVG_MAX_TICKS);
	ok(s.lo == 1.0 && s.hi == 1000.0 && n == 10 && ticks[0] == 1.0 && ticks[1] == 2.0 &&
	    ticks[2] == 5.0 && ticks[9] == 1000.0, "log scale: decades around 3.2..870, "
	    "1, 2 and 5 in each (%zu ticks)", n);
	ok(labelled[0] && !labelled[1] && labelled[3],
	    "log scale: 100 px a decade labels the decades only");
	is_near(svg_scale_at(&s, 10.0), 100.0, 1e-9, "log scale: 10 a third of the way");
	ok(svg_scale_at(&s, 0.0) == 0.0 && svg_scale_at(&s, 1e9) == 300.0,
	    "log scale: 0 and past the end clamped to the ends");
	svg_scale_log(&s, 0.0, 0.0, 0.01);
	ok(s.lo == 0.01 && s.hi == 0.1, "log scale: nothing above 0 starts at the floor");
	svg_scale_linear(&s, 0.0, 183.0, true);
	s.px_lo = 0;
	s.px_hi = 400;
	n = svg_scale_ticks(&s, ticks, labelled, SVG_MAX_TICKS);
	ok(s.lo == 0.0 && s.hi == 200.0 && n == 5 && ticks[1] == 50.0,
	    "linear scale: 0..183 as 0 to 200 in steps of 50 (%zu ticks)", n);
	svg_scale_linear(&s, 29100.0, 36100.0, false);
	ok(s.lo == 29000.0 && s.hi == 37000.0, "linear scale: around the rates, "
	    "not from 0: %g..%g", s.lo, s.hi);
	svg_tick_label(0.5, label, sizeof label);
	ok(strcmp(label, "0.5") == 0, "tick label 0.5");
	svg_tick_label(20000.0, label, sizeof label);
	ok(strcmp(label, "20000") == 0, "tick label 20000");
	svg_tick_label(1e7, label, sizeof label);
	ok(strcmp(label, "1e7") == 0, "tick label ten million: 1e7, not 1e+07 (%s)", label);
	svg_tick_label(2.5e10, label, sizeof label);
	ok(strcmp(label, "2.5e10") == 0, "tick label 2.5e10 (%s)", label);
	svg_tick_label(9.97e7, label, sizeof label);
	ok(strcmp(label, "1e8") == 0, "tick label 9.97e7 rounds up a decade: 1e8 (%s)", label);
}

/* Series of distinct colours or variants never look alike. */
static void
check_styles(void)
{
	struct svg_style a, b;
	size_t i, j, same = 0;

	for (i = 0; i < 140; i++)
		for (j = 0; j < i; j++) {
			svg_style_of(i, &a);
			svg_style_of(j, &b);
			same += strcmp(a.colour, b.colour) == 0 && a.shape == b.shape &&
			    (a.dash == b.dash || (a.dash && b.dash && strcmp(a.dash, b.dash) == 0));
		}
	ok(same == 0, "the first 140 series' styles all differ (%zu pairs alike)", same);
	for (i = 0; i < 7; i++)
		for (j = 0; j < 7; j++) {
			svg_style_variant(i, 1, &a);
			svg_style_variant(j, 0, &b);
			same += a.shape == b.shape && a.dash == b.dash;
		}
	ok(same == 0, "a variant's dash and marker are no other series' (%zu alike)", same);
}

int
main(void)
{
	check_text();
	check_scales();
	check_styles();
	return tap_done();
}
