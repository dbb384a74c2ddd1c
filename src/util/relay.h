/* relay.h: output written to a descriptor without waiting for ever on its
 * reader. A command that must end on time (watch's --for, a service
 * manager's SIGTERM) cannot block in write(2) while a reader at the other
 * end of a pipe takes nothing: SA_RESTART restarts that write after the
 * signal, and the SIGKILL that follows leaves the test file behind. So
 * the bytes go out in pieces that fit (poll, then at most PIPE_BUF), and
 * the wait for room gives up at a deadline or a stop signal. */
#ifndef SYNCPROBE_RELAY_H
#define SYNCPROBE_RELAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What relay_write returns. */
enum relay_result {
	RELAY_DONE,	/* every byte written */
	RELAY_FAILED,	/* a write failed: errno says why (EPIPE...) */
	RELAY_STALLED	/* the reader took nothing before the deadline or a
			 * stop signal (util/cleanup): the rest was not written */
};

/* Write len bytes of buf to fd, waiting for room while the reader takes
 * them, but not past deadline_ns (platform_now_ns; 0: none) nor once a
 * stop signal came; *done counts the bytes written. After either, what the
 * descriptor takes at once is still written. */
enum relay_result relay_write(int fd, const void *buf, size_t len, uint64_t deadline_ns,
    size_t *done);

/* A report written with stdio into memory (f, an open_memstream) and
 * moved to fd by relay_push; once a push has stalled or failed, the rest
 * is dropped, not written after a gap. */
struct relay {
	FILE *f;		/* write the report here */
	char *buf;		/* open_memstream's */
	size_t len;
	int fd;
	enum relay_result state;	/* RELAY_DONE until a push fails or stalls */
	int error;		/* errno of the failed write */
	uint64_t dropped;	/* bytes never written */
};

/* 0, or -1 (out of memory) with errno. */
int relay_open(struct relay *r, int fd);

/* What f holds, to fd (relay_write with deadline_ns); r->state after. */
enum relay_result relay_push(struct relay *r, uint64_t deadline_ns);

void relay_close(struct relay *r);

#endif
