/* cleanup.h: remove the test file on every way out, signals included.
 * This is the one place with global mutable state: a signal handler can
 * reach nothing else. */
#ifndef SYNCPROBE_CLEANUP_H
#define SYNCPROBE_CLEANUP_H

#include <signal.h>

/* Install handlers for SIGINT, SIGTERM, SIGHUP and SIGPIPE that remove the
 * registered file and then die of the same signal (one ignored at start, as
 * under nohup, stays ignored); ignore SIGXFSZ so that a file size limit
 * shows as EFBIG, which is reported, not as a silent death. */
void cleanup_install(void);

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
