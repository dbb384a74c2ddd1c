/* cleanup.h: remove the test file on every way out, signals included.
 * This is the one place with global mutable state: a signal handler can
 * reach nothing else. */
#ifndef SYNCPROBE_CLEANUP_H
#define SYNCPROBE_CLEANUP_H

#include <signal.h>
#include <sys/types.h>

/* Install, for every signal whose default action ends the process
 * (platform_terminating_signals: SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT,
 * SIGUSR1, SIGALRM, a crash's SIGSEGV...), a handler that removes the
 * registered file and then dies of the same signal. A signal ignored at
 * start (as under nohup) stays ignored, and one already handled (a
 * sanitizer's crash report) keeps its handler. SIGXFSZ is ignored, so
 * that a file size limit shows as EFBIG, which is reported, and the file
 * is removed on that way out.
 * The first SIGINT, SIGTERM or SIGHUP only asks the run to stop (see
 * cleanup_stop_signal): the measuring ends at the next operation, the file
 * is removed and the report of what was measured printed, and then
 * cleanup_die() ends syncprobe with that signal. A second one, and every
 * other terminating signal, remove the registered file and die of the
 * signal at once. */
void cleanup_install(void);

/* For a command that runs other programs (syncprobe pgbench): from now on
 * no handled signal but a crash's (SIGSEGV, SIGBUS, SIGILL, SIGFPE,
 * SIGABRT, SIGTRAP, SIGSYS) ends syncprobe at once. The first only asks
 * the run to stop, every later one is counted (cleanup_later_signals): a
 * server and a directory tree cannot be stopped and removed from a
 * handler, so the run does it, and gives up waiting when asked often
 * enough, and then calls cleanup_die(). */
void cleanup_hold(void);

/* How many signals came after the first while holding. */
int cleanup_later_signals(void);

/* The signal that asked the run to stop, or 0. */
int cleanup_stop_signal(void);

/* The flag itself, for the timed loop to read between operations without a
 * call: only the measured calls belong in a timed operation. */
const volatile sig_atomic_t *cleanup_stop_flag(void);

/* Die of the signal that stopped the run, as its default action does (the
 * shell sees 128+N); returns only when no signal stopped it. */
void cleanup_die(void);

/* "SIGINT" for SIGINT: the signals handled here, else "a signal". */
const char *cleanup_signal_name(int sig);

/* Block (and later restore) the handled signals, so that creating the file
 * and registering it happen as one step. */
void cleanup_block(sigset_t *old);
void cleanup_unblock(const sigset_t *old);

/* Files a signal must remove at once: the test file, and watch's metrics
 * file with the copy being written beside it. */
#define CLEANUP_MAX_FILES 4

/* A file a signal must remove: name in the directory dirfd, for as long
 * as that name leads to the file dev/ino. Returns its slot, for
 * cleanup_forget() when it is gone (or kept); -1 when CLEANUP_MAX_FILES
 * are registered already. The directory descriptor, not a path: the
 * directory may be renamed while syncprobe runs. */
int cleanup_register(int dirfd, const char *name, dev_t dev, ino_t ino);
/* The file of slot now has this name in the same directory (renamed
 * there, with signals blocked by the caller across the rename). */
void cleanup_rename(int slot, const char *name);
void cleanup_forget(int slot);

/* The process group of children (-t group's committers) that must not
 * outlive syncprobe: a signal that ends syncprobe at once kills the group
 * (SIGKILL) before it dies. The run reaps them on every other way out and
 * then forgets the group. */
void cleanup_register_group(pid_t pgid);
void cleanup_forget_group(void);

/* In a child just forked: every handled signal back to its default
 * action and unblocked, so that the child never runs syncprobe's handler
 * (which would remove the parent's file) and a signal meant for it ends
 * it. */
void cleanup_child(void);

enum cleanup_outcome {
	CLEANUP_REMOVED,	/* it was our file, and it is gone */
	CLEANUP_GONE,		/* no such name any more: nothing removed */
	CLEANUP_REPLACED,	/* the name leads elsewhere: left alone */
	CLEANUP_FAILED		/* fstatat or unlinkat failed: errno says why */
};

/* Remove name from the directory dirfd, but only while it is still the
 * file dev/ino: never someone else's file. Async-signal-safe (fstatat and
 * unlinkat), so the handler and the normal way out share it. */
enum cleanup_outcome cleanup_remove_file(int dirfd, const char *name, dev_t dev, ino_t ino);

/* Remove the directory name in dirfd and everything in it, but only while
 * name is still the directory dev/ino; never following a symbolic link
 * (each level is opened with O_NOFOLLOW through the descriptor of the one
 * above, so a link swapped in leads nowhere). 0, or -1 with errno. */
int cleanup_remove_tree(int dirfd, const char *name, dev_t dev, ino_t ino);

#endif
