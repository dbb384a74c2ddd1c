/* cleanup.c: the signal-cleanup path. The handler only sets a flag, or
 * checks and unlinks the file (fstatat, unlinkat) and re-raises: all
 * async-signal-safe. */
#include "config.h"

#include "util/cleanup.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/platform.h"

/* The files a signal must remove. Written with the handled signals
 * blocked, read only by the handler. */
struct registered_file {
	int dirfd;
	char name[NAME_MAX + 1];
	dev_t dev;
	ino_t ino;
	volatile sig_atomic_t in_use;
};
static struct registered_file registered[CLEANUP_MAX_FILES];
static pid_t registered_group;
static volatile sig_atomic_t have_group;
/* Set by the handler, read by the run: the signal that asked it to stop. */
static volatile sig_atomic_t stop_signal;
/* cleanup_hold(): later signals are only counted (cleanup_later_signals). */
static volatile sig_atomic_t holding;
static volatile sig_atomic_t later;

/* The signals that ask for the report of what was measured: a user's
 * Ctrl-C, a service manager's stop, a closed terminal. */
static int
stops_gently(int sig)
{
	return sig == SIGINT || sig == SIGTERM || sig == SIGHUP;
}

/* A crash: the process cannot be trusted to clean up beyond the handler. */
static int
is_crash(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE ||
	    sig == SIGABRT || sig == SIGTRAP || sig == SIGSYS;
}

/* Every registered file, while its name still leads to it
 * (async-signal-safe: see cleanup_remove_file). */
static void
remove_registered(void)
{
	size_t i;

	for (i = 0; i < CLEANUP_MAX_FILES; i++)
		if (registered[i].in_use)
			(void)cleanup_remove_file(registered[i].dirfd, registered[i].name,
			    registered[i].dev, registered[i].ino);
}

/* The children first: they must not outlive us (kill is
 * async-signal-safe). */
static void
kill_group(void)
{
	if (have_group)
		(void)kill(-registered_group, SIGKILL);
}

static void
on_signal(int sig)
{
	int saved = errno;

	if (holding && !is_crash(sig)) {
		if (stop_signal == 0)
			stop_signal = sig;
		else if (later < 1000)
			later++;
		errno = saved;
		return;
	}
	if (stops_gently(sig) && stop_signal == 0) {
		stop_signal = sig;
		return;
	}
	kill_group();
	remove_registered();
	/* Die of the same signal, so the caller's shell sees 128+N. */
	signal(sig, SIG_DFL);
	raise(sig);
	errno = saved;
}

enum cleanup_outcome
cleanup_remove_file(int dirfd, const char *name, dev_t dev, ino_t ino)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == -1)
		return errno == ENOENT ? CLEANUP_GONE : CLEANUP_FAILED;
	/* Between this check and the unlink someone could still swap the
	 * name; unlinking their entry then removes a name they put in a
	 * directory they can write, and touches no file's data. */
	if (st.st_dev != dev || st.st_ino != ino)
		return CLEANUP_REPLACED;
	if (unlinkat(dirfd, name, 0) == -1)
		return errno == ENOENT ? CLEANUP_GONE : CLEANUP_FAILED;
	return CLEANUP_REMOVED;
}

/* Every signal whose default action would end syncprobe, SIGXFSZ too. */
static void
terminating_set(sigset_t *set)
{
	int sigs[PLATFORM_MAX_SIGNALS];
	size_t i, n = platform_terminating_signals(sigs, PLATFORM_MAX_SIGNALS);

	sigemptyset(set);
	for (i = 0; i < n; i++)
		sigaddset(set, sigs[i]);
}

void
cleanup_install(void)
{
	int sigs[PLATFORM_MAX_SIGNALS];
	size_t i, n = platform_terminating_signals(sigs, PLATFORM_MAX_SIGNALS);
	struct sigaction sa, old;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	/* The run goes on after a gentle stop to write its report: a write
	 * to a slow terminal or pipe must not fail with EINTR then. */
	sa.sa_flags = SA_RESTART;
	terminating_set(&sa.sa_mask);
	for (i = 0; i < n; i++) {
		/* A file size limit must show as EFBIG, which is reported,
		 * and the file then removed: not as a death. */
		if (sigs[i] == SIGXFSZ) {
			signal(SIGXFSZ, SIG_IGN);
			continue;
		}
		/* A signal ignored when we start stays ignored: nohup, or a
		 * shell's background job (SIGINT), asked for that. One already
		 * handled (a sanitizer's crash report) keeps its handler. */
		if (sigaction(sigs[i], NULL, &old) == -1 ||
		    (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

void
cleanup_block(sigset_t *old)
{
	sigset_t set;

	terminating_set(&set);
	sigprocmask(SIG_BLOCK, &set, old);
}

void
cleanup_unblock(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

/* Fill slot i, signals blocked by the caller. */
static void
fill_slot(int i, int dirfd, const char *name, dev_t dev, ino_t ino)
{
	struct registered_file *r = &registered[i];

	r->dirfd = dirfd;
	strncpy(r->name, name, sizeof r->name - 1);
	r->name[sizeof r->name - 1] = '\0';
	r->dev = dev;
	r->ino = ino;
	r->in_use = 1;
}

int
cleanup_register(int dirfd, const char *name, dev_t dev, ino_t ino)
{
	sigset_t old;
	int i;

	cleanup_block(&old);
	for (i = 0; i < CLEANUP_MAX_FILES && registered[i].in_use; i++)
		continue;
	if (i < CLEANUP_MAX_FILES)
		fill_slot(i, dirfd, name, dev, ino);
	else
		i = -1;
	cleanup_unblock(&old);
	return i;
}

void
cleanup_rename(int slot, const char *name)
{
	sigset_t old;

	if (slot < 0 || slot >= CLEANUP_MAX_FILES)
		return;
	cleanup_block(&old);
	fill_slot(slot, registered[slot].dirfd, name, registered[slot].dev,
	    registered[slot].ino);
	cleanup_unblock(&old);
}

void
cleanup_forget(int slot)
{
	if (slot >= 0 && slot < CLEANUP_MAX_FILES)
		registered[slot].in_use = 0;
}

void
cleanup_register_group(pid_t pgid)
{
	sigset_t old;

	cleanup_block(&old);
	registered_group = pgid;
	have_group = 1;
	cleanup_unblock(&old);
}

void
cleanup_forget_group(void)
{
	have_group = 0;
}

void
cleanup_child(void)
{
	int sigs[PLATFORM_MAX_SIGNALS];
	size_t i, n = platform_terminating_signals(sigs, PLATFORM_MAX_SIGNALS);
	sigset_t set;
	struct sigaction old;

	for (i = 0; i < CLEANUP_MAX_FILES; i++)
		registered[i].in_use = 0;
	have_group = 0;
	for (i = 0; i < n; i++)
		if (sigaction(sigs[i], NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
		    old.sa_handler == on_signal)
			signal(sigs[i], SIG_DFL);
	terminating_set(&set);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

void
cleanup_hold(void)
{
	holding = 1;
}

int
cleanup_later_signals(void)
{
	return later;
}

/* Empty the directory open as fd (which this closes), depth first. */
static int
empty_tree(int fd)
{
	DIR *d = fdopendir(fd);
	struct dirent *e;
	int rc = 0;

	if (d == NULL) {
		close(fd);
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		struct stat st;
		int sub;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == -1) {
			rc = -1;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			sub = openat(dirfd(d), e->d_name,
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub == -1 || empty_tree(sub) == -1 ||
			    unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR) == -1)
				rc = -1;
		} else if (unlinkat(dirfd(d), e->d_name, 0) == -1)
			rc = -1;
	}
	closedir(d);
	return rc;
}

int
cleanup_remove_tree(int dirfd, const char *name, dev_t dev, ino_t ino)
{
	struct stat st;
	int fd, saved;

	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd == -1)
		return -1;
	if (fstat(fd, &st) == -1) {
		saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	if (st.st_dev != dev || st.st_ino != ino) {
		/* Someone else's directory under our name: left alone. */
		close(fd);
		errno = EEXIST;
		return -1;
	}
	if (empty_tree(fd) == -1)
		return -1;
	return unlinkat(dirfd, name, AT_REMOVEDIR);
}

int
cleanup_stop_signal(void)
{
	return stop_signal;
}

const volatile sig_atomic_t *
cleanup_stop_flag(void)
{
	return &stop_signal;
}

void
cleanup_die(void)
{
	int sig = stop_signal;
	sigset_t set;

	if (sig == 0)
		return;
	kill_group();
	remove_registered();
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}

const char *
cleanup_signal_name(int sig)
{
	switch (sig) {
	case SIGINT:  return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP:  return "SIGHUP";
	case SIGPIPE: return "SIGPIPE";
	}
	return "a signal";
}
