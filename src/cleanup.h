/* cleanup.h: remove the test file on every way out, signals included.
 * This is the one place with global mutable state: a signal handler can
 * reach nothing else. */
#ifndef SYNCPROBE_CLEANUP_H
#define SYNCPROBE_CLEANUP_H

#include <signal.h>

/* Install handlers for SIGINT, SIGTERM, SIGHUP and SIGPIPE (one ignored at
 * start, as under nohup, stays ignored); ignore SIGXFSZ so that a file size
 * limit shows as EFBIG, which is reported, not as a silent death.
 * The first SIGINT, SIGTERM or SIGHUP only asks the run to stop (see
 * cleanup_stop_signal): the measuring ends at the next operation, the file
 * is removed and the report of what was measured printed, and then
 * cleanup_die() ends syncprobe with that signal. A second one, and SIGPIPE,
 * remove the registered file and die of the signal at once. */
void cleanup_install(void);

/* The signal that asked the run to stop, or 0. A read of one flag, cheap
 * enough for the timed loop to make between operations. */
int cleanup_stop_signal(void);

/* Die of the signal that stopped the run, as its default action does (the
 * shell sees 128+N); returns only when no signal stopped it. */
void cleanup_die(void);

/* "SIGINT" for SIGINT: the signals handled here, else "a signal". */
const char *cleanup_signal_name(int sig);

/* Block (and later restore) the handled signals, so that creating the file
 * and registering it happen as one step. */
void cleanup_block(sigset_t *old);
void cleanup_unblock(const sigset_t *old);

/* The file a signal must remove; cleanup_forget() when it is gone. */
void cleanup_register(const char *path);
void cleanup_forget(void);

#endif
