/* durable_acks.c: format and read the writer's acknowledgement lines.
 * Reading is strict: a line is accepted only when all of it is understood
 * and it follows from the lines before it, because a verdict of "nothing
 * lost" is only as good as the acknowledgements it was checked against. */
#include "config.h"

#include "durability/durable_acks.h"

#include <stdio.h>
#include <string.h>

#include "util/escape.h"

#define HEADER_WORD "syncprobe-durability"
#define WORD_MAX    64
#define ACK_SHAPE   "ack RUNID SEQ OFFSET"
#define END_SHAPE   "end RUNID LAST_SEQ REASON"

static const char *const end_names[] = { "none", "count", "time", "signal", "error" };
static const char *const acks_on_names[] = { NULL, "same-filesystem", "same-device" };

void
durable_run_id_format(uint64_t run_id, char buf[DURABLE_RUN_ID_LEN])
{
	snprintf(buf, DURABLE_RUN_ID_LEN, "%016llx", (unsigned long long)run_id);
}

/* snprintf into buf; 0, or -1 when it was cut short. */
static int
fitted(int n, size_t len)
{
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int
durable_header_line(char *buf, size_t len, const struct durable_header *h,
    enum durable_acks_on acks_on, const char *file)
{
	char run[DURABLE_RUN_ID_LEN], shown[ESCAPE_LEN(PATH_MAX)];
	const char *on = durable_acks_on_name(acks_on);

	/* Escaped as ls -b writes a name: the line goes to a terminal as
	 * often as to a file, and a path's escape sequences or newline must
	 * not reach it raw; the reader undoes it. */
	escape_for_terminal(file, shown, sizeof shown);
	durable_run_id_format(h->run_id, run);
	return fitted(snprintf(buf, len,
	    "%s %u run=%s block=%u size=%llu pattern=%s method=%s direct=%s %s%s%sfile=%s\n",
	    HEADER_WORD, DURABLE_FORMAT_VERSION, run, (unsigned)h->geo.block_bytes,
	    (unsigned long long)h->geo.file_bytes, options_pattern_name(h->geo.pattern),
	    h->method, h->direct ? "on" : "off", on ? "acks=" : "", on ? on : "",
	    on ? " " : "", shown), len);
}

const char *
durable_acks_on_name(enum durable_acks_on on)
{
	return (unsigned)on < sizeof acks_on_names / sizeof acks_on_names[0] ?
	    acks_on_names[on] : NULL;
}

int
durable_ack_line(char *buf, size_t len, uint64_t run_id, uint64_t seq, uint64_t offset)
{
	char run[DURABLE_RUN_ID_LEN];

	durable_run_id_format(run_id, run);
	return fitted(snprintf(buf, len, "ack %s %llu %llu\n", run,
	    (unsigned long long)seq, (unsigned long long)offset), len);
}

int
durable_end_line(char *buf, size_t len, uint64_t run_id, uint64_t last_seq,
    enum durable_end why)
{
	char run[DURABLE_RUN_ID_LEN];

	durable_run_id_format(run_id, run);
	return fitted(snprintf(buf, len, "end %s %llu %s\n", run,
	    (unsigned long long)last_seq, durable_end_name(why)), len);
}

void
durable_acks_init(struct durable_acks *a)
{
	memset(a, 0, sizeof *a);
	a->end = DURABLE_END_NONE;
}

const char *
durable_end_name(enum durable_end e)
{
	return (unsigned)e < sizeof end_names / sizeof end_names[0] ? end_names[e] : "?";
}

/* The next word of *p (up to a space or the end) into buf, moving *p past
 * it and one space. -1 when there is none or it is too long. */
static int
next_word(const char **p, char *buf, size_t len)
{
	size_t n = strcspn(*p, " ");

	if (n == 0 || n >= len)
		return -1;
	memcpy(buf, *p, n);
	buf[n] = '\0';
	*p += n;
	/* Step over one space between words; a space that ends the line is
	 * left for the caller to refuse. */
	if ((*p)[0] == ' ' && (*p)[1] != '\0')
		(*p)++;
	return 0;
}

/* The value of the next word when it is "key=value", else NULL. */
static const char *
next_field(const char **p, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);

	if (next_word(p, buf, len) == -1 || strncmp(buf, key, klen) != 0 || buf[klen] != '=')
		return NULL;
	return buf + klen + 1;
}

/* Decimal digits only, 1..max: options' own strict parser. */
static int
parse_number(const char *s, uint64_t max, uint64_t *out)
{
	char ignored[ERRBUF_LEN];

	return s == NULL ? -1 : units_parse_count(s, max, out, ignored, sizeof ignored);
}

/* Exactly DURABLE_RUN_ID_LEN - 1 lowercase hex digits. */
static int
parse_run_id(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (s == NULL || strlen(s) != DURABLE_RUN_ID_LEN - 1)
		return -1;
	for (i = 0; s[i] != '\0'; i++) {
		const char *digits = "0123456789abcdef", *d = strchr(digits, s[i]);

		if (d == NULL)
			return -1;
		v = (v << 4) | (uint64_t)(d - digits);
	}
	*out = v;
	return 0;
}

static int
parse_pattern(const char *s, enum pattern *out)
{
	char ignored[ERRBUF_LEN];

	return s == NULL ? -1 : options_parse_pattern(s, out, ignored, sizeof ignored);
}

static int
parse_on_off(const char *s, bool *out)
{
	if (s == NULL || (strcmp(s, "on") != 0 && strcmp(s, "off") != 0))
		return -1;
	*out = strcmp(s, "on") == 0;
	return 0;
}

/* The value of the next field into out (len bytes); -1 when the next word
 * is not "key=value" or the value does not fit. */
static int
copy_field(const char **p, const char *key, char *out, size_t len)
{
	char word[WORD_MAX];
	const char *v = next_field(p, key, word, sizeof word);

	if (v == NULL || strlen(v) >= len)
		return -1;
	memcpy(out, v, strlen(v) + 1);
	return 0;
}

/* The optional acks=WHERE before file=: 0 (none, or one understood), or
 * -1. */
static int
parse_acks_on(struct durable_acks *a, const char **p)
{
	char word[WORD_MAX];
	const char *v, *q = *p;
	size_t i;

	a->acks_on = DURABLE_ACKS_ELSEWHERE;
	if (strncmp(q, "acks=", 5) != 0)
		return 0;
	if ((v = next_field(&q, "acks", word, sizeof word)) == NULL)
		return -1;
	for (i = 1; i < sizeof acks_on_names / sizeof acks_on_names[0]; i++)
		if (strcmp(v, acks_on_names[i]) == 0) {
			a->acks_on = (enum durable_acks_on)i;
			*p = q;
			return 0;
		}
	return -1;
}

/* The fields of a header line after its version, in their order; the file
 * name is the rest of the line, spaces and all. */
static int
parse_header_fields(struct durable_acks *a, const char *p)
{
	struct durable_header *h = &a->header;
	char word[WORD_MAX];
	uint64_t block;

	if (parse_run_id(next_field(&p, "run", word, sizeof word), &h->run_id) == -1 ||
	    parse_number(next_field(&p, "block", word, sizeof word), MAX_BLOCK_BYTES, &block) == -1 ||
	    parse_number(next_field(&p, "size", word, sizeof word), MAX_FILE_BYTES,
	    &h->geo.file_bytes) == -1 ||
	    parse_pattern(next_field(&p, "pattern", word, sizeof word), &h->geo.pattern) == -1 ||
	    copy_field(&p, "method", h->method, sizeof h->method) == -1 ||
	    parse_on_off(next_field(&p, "direct", word, sizeof word), &h->direct) == -1 ||
	    parse_acks_on(a, &p) == -1 || strncmp(p, "file=", 5) != 0 || p[5] == '\0' ||
	    escape_undo(p + 5, a->file, sizeof a->file) == -1)
		return -1;
	h->geo.block_bytes = (uint32_t)block;
	return 0;
}

/* "syncprobe-durability VERSION run=... file=PATH" */
static int
parse_header(struct durable_acks *a, const char *line, char *err, size_t errlen)
{
	const char *p = line;
	char word[WORD_MAX] = "";
	uint64_t v;

	memset(&a->header, 0, sizeof a->header);
	if (next_word(&p, word, sizeof word) == -1 || strcmp(word, HEADER_WORD) != 0) {
		snprintf(err, errlen, "not the header line of a durability writer "
		    "(the acknowledgements are the writer's standard output)");
		return -1;
	}
	if (next_word(&p, word, sizeof word) == -1 || parse_number(word, UINT32_MAX, &v) == -1 ||
	    v != DURABLE_FORMAT_VERSION) {
		snprintf(err, errlen, "format version '%s' (this syncprobe reads %u)",
		    word, DURABLE_FORMAT_VERSION);
		return -1;
	}
	if (parse_header_fields(a, p) == -1) {
		snprintf(err, errlen, "malformed header line (want %s %u run=RUNID block=N "
		    "size=N pattern=P method=M direct=on|off [acks=same-filesystem|same-device] "
		    "file=PATH)", HEADER_WORD,
		    DURABLE_FORMAT_VERSION);
		return -1;
	}
	if (!durable_geometry_valid(&a->header.geo)) {
		snprintf(err, errlen, "header line: block=%u size=%llu is no geometry a "
		    "writer uses", (unsigned)a->header.geo.block_bytes,
		    (unsigned long long)a->header.geo.file_bytes);
		return -1;
	}
	a->have_header = true;
	return 0;
}

/* The run id word of an ack or end line, which must be the header's;
 * shape is the line's form, for the message. */
static int
read_run(const struct durable_acks *a, const char **p, const char *shape,
    char *err, size_t errlen)
{
	char word[WORD_MAX], want[DURABLE_RUN_ID_LEN];
	uint64_t run;

	if (next_word(p, word, sizeof word) == -1 || parse_run_id(word, &run) == -1) {
		snprintf(err, errlen, "malformed line (want %s)", shape);
		return -1;
	}
	if (run != a->header.run_id) {
		durable_run_id_format(a->header.run_id, want);
		snprintf(err, errlen, "run %s, but the header is of run %s (not this run: "
		    "the acknowledgements of two runs mixed?)", word, want);
		return -1;
	}
	return 0;
}

/* "ack RUNID SEQ OFFSET" (the word "ack" already read). */
static int
parse_ack(struct durable_acks *a, const char *p, char *err, size_t errlen)
{
	char word[WORD_MAX];
	uint64_t seq, off, want;

	if (read_run(a, &p, ACK_SHAPE, err, errlen) == -1)
		return -1;
	if (next_word(&p, word, sizeof word) == -1 || parse_number(word, UINT64_MAX, &seq) == -1 ||
	    next_word(&p, word, sizeof word) == -1 || parse_number(word, MAX_FILE_BYTES, &off) == -1 ||
	    *p != '\0') {
		snprintf(err, errlen, "malformed line (want %s)", ACK_SHAPE);
		return -1;
	}
	if (seq != a->last_seq + 1) {
		snprintf(err, errlen, "record %llu acknowledged after record %llu "
		    "(acknowledgements come one by one: is this the whole file?)",
		    (unsigned long long)seq, (unsigned long long)a->last_seq);
		return -1;
	}
	want = durable_offset_of(&a->header.geo, seq);
	if (off != want) {
		snprintf(err, errlen, "record %llu at offset %llu, where the header puts it at %llu",
		    (unsigned long long)seq, (unsigned long long)off, (unsigned long long)want);
		return -1;
	}
	a->last_seq = seq;
	return 0;
}

/* "end RUNID LAST_SEQ REASON" (the word "end" already read). */
static int
parse_end(struct durable_acks *a, const char *p, char *err, size_t errlen)
{
	char word[WORD_MAX];
	uint64_t seq = 0;
	size_t i;

	if (read_run(a, &p, END_SHAPE, err, errlen) == -1)
		return -1;
	if (next_word(&p, word, sizeof word) == -1 ||
	    (strcmp(word, "0") != 0 && parse_number(word, UINT64_MAX, &seq) == -1) ||
	    seq != a->last_seq || next_word(&p, word, sizeof word) == -1 || *p != '\0') {
		snprintf(err, errlen, "malformed line (want %s, LAST_SEQ %llu)", END_SHAPE,
		    (unsigned long long)a->last_seq);
		return -1;
	}
	for (i = DURABLE_END_COUNT; i < sizeof end_names / sizeof end_names[0]; i++)
		if (strcmp(word, end_names[i]) == 0) {
			a->end = (enum durable_end)i;
			return 0;
		}
	snprintf(err, errlen, "end line: unknown reason '%s'", word);
	return -1;
}

int
durable_acks_feed(struct durable_acks *a, const char *line, char *err, size_t errlen)
{
	const char *p = line;
	char word[WORD_MAX];

	a->lines++;
	if (!a->have_header)
		return parse_header(a, line, err, errlen);
	if (a->end != DURABLE_END_NONE) {
		snprintf(err, errlen, "a line after the end line");
		return -1;
	}
	if (next_word(&p, word, sizeof word) == 0) {
		if (strcmp(word, "ack") == 0)
			return parse_ack(a, p, err, errlen);
		if (strcmp(word, "end") == 0)
			return parse_end(a, p, err, errlen);
	}
	snprintf(err, errlen, "not an acknowledgement line (want %s)", ACK_SHAPE);
	return -1;
}
