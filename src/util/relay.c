/* relay.c: writes that wait for a reader only while it takes something
 * (relay.h). poll says when a piece fits: for a pipe POSIX promises
 * room for PIPE_BUF bytes then, which a write of at most that takes
 * whole without blocking; a regular file is always ready. */
#include "config.h"

#include "util/relay.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "util/platform.h"

#define RELAY_POLL_MS 100	/* how soon a stop signal is seen while waiting */

/* How long the next wait for room may be, in ms: 0 once the deadline has
 * passed or a stop signal came (what fits now is still written). */
static int
wait_ms(uint64_t deadline_ns)
{
	uint64_t now;

	if (*cleanup_stop_flag())
		return 0;
	if (deadline_ns == 0)
		return RELAY_POLL_MS;
	now = platform_now_ns();
	if (now >= deadline_ns)
		return 0;
	return deadline_ns - now >= (uint64_t)RELAY_POLL_MS * 1000000u ? RELAY_POLL_MS :
	    (int)((deadline_ns - now + 999999u) / 1000000u);
}

enum relay_result
relay_write(int fd, const void *buf, size_t len, uint64_t deadline_ns, size_t *done)
{
	const char *p = buf;

	*done = 0;
	while (*done < len) {
		struct pollfd pf = { fd, POLLOUT, 0 };
		int ms = wait_ms(deadline_ns), n;
		size_t piece = len - *done < PIPE_BUF ? len - *done : PIPE_BUF;
		ssize_t w;

		n = poll(&pf, 1, ms);
		if (n == -1 && errno != EINTR)
			return RELAY_FAILED;
		if (n <= 0) {
			if (ms == 0)
				return RELAY_STALLED;
			continue;	/* a signal, or no room yet: look again */
		}
		/* Ready, or an error or hang-up that the write reports. */
		w = write(fd, p + *done, piece);
		if (w == -1 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (w == -1)
			return RELAY_FAILED;
		*done += (size_t)w;
	}
	return RELAY_DONE;
}

int
relay_open(struct relay *r, int fd)
{
	r->buf = NULL;
	r->len = 0;
	r->fd = fd;
	r->state = RELAY_DONE;
	r->error = 0;
	r->dropped = 0;
	r->f = open_memstream(&r->buf, &r->len);
	return r->f != NULL ? 0 : -1;
}

enum relay_result
relay_push(struct relay *r, uint64_t deadline_ns)
{
	size_t done = 0;

	if (fflush(r->f) == EOF) {
		r->state = RELAY_FAILED;
		r->error = errno;
	}
	if (r->state == RELAY_DONE) {
		r->state = relay_write(r->fd, r->buf, r->len, deadline_ns, &done);
		if (r->state == RELAY_FAILED)
			r->error = errno;
	}
	r->dropped += r->len - done;
	/* The next push starts from the stream's beginning: its size is the
	 * position then (open_memstream's rule), so memory stays small. */
	if (fseeko(r->f, 0, SEEK_SET) == -1 && r->state == RELAY_DONE) {
		r->state = RELAY_FAILED;
		r->error = errno;
	}
	return r->state;
}

void
relay_close(struct relay *r)
{
	if (r->f != NULL)
		fclose(r->f);
	r->f = NULL;
	free(r->buf);
	r->buf = NULL;
}
