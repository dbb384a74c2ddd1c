/* capture.h: what a writer wrote, in memory, for the tests that compare
 * it: capture_open() gives the stream to hand the writer, capture_close()
 * the text (free it), NULL when the stream could not be made. */
#ifndef SYNCPROBE_CAPTURE_H
#define SYNCPROBE_CAPTURE_H

#include <stdio.h>

struct capture {
	char *buf;
	size_t len;
};

static FILE *
capture_open(struct capture *c)
{
	c->buf = NULL;
	c->len = 0;
	return open_memstream(&c->buf, &c->len);
}

static char *
capture_close(struct capture *c, FILE *f)
{
	if (f == NULL)
		return NULL;
	fclose(f);
	return c->buf;
}

#endif
