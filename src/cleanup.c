/* cleanup.c: the signal-cleanup path. The handler only sets a flag, or
 * unlinks and re-raises: all async-signal-safe. */
#include "config.h"

#include "cleanup.h"

#include <limits.h>
#include <string.h>
#include <unistd.h>

static const int handled[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

/* Written with the handled signals blocked, read only by the handler. */
static char registered_path[PATH_MAX];
static volatile sig_atomic_t have_path;
/* Set by the handler, read by the run: the signal that asked it to stop. */
static volatile sig_atomic_t stop_signal;

/* The signals that ask for the report of what was measured: a user's
 * Ctrl-C, a service manager's stop, a closed terminal. */
static int
stops_gently(int sig)
{
	return sig == SIGINT || sig == SIGTERM || sig == SIGHUP;
}

static void
on_signal(int sig)
{
	if (stops_gently(sig) && stop_signal == 0) {
		stop_signal = sig;
		return;
	}
	if (have_path)
		unlink(registered_path);
	/* Die of the same signal, so the caller's shell sees 128+N. */
	signal(sig, SIG_DFL);
	raise(sig);
}

void
cleanup_install(void)
{
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	/* The run goes on after a gentle stop to write its report: a write
	 * to a slow terminal or pipe must not fail with EINTR then. */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof handled / sizeof handled[0]; i++)
		sigaddset(&sa.sa_mask, handled[i]);
	for (i = 0; i < sizeof handled / sizeof handled[0]; i++) {
		/* A signal ignored when we start stays ignored: nohup, or a
		 * shell's background job (SIGINT), asked for that. */
		if (sigaction(handled[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(handled[i], &sa, NULL);
	}
	signal(SIGXFSZ, SIG_IGN);
}

void
cleanup_block(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof handled / sizeof handled[0]; i++)
		sigaddset(&set, handled[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

void
cleanup_unblock(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

void
cleanup_register(const char *path)
{
	sigset_t old;

	cleanup_block(&old);
	strncpy(registered_path, path, sizeof registered_path - 1);
	registered_path[sizeof registered_path - 1] = '\0';
	have_path = 1;
	cleanup_unblock(&old);
}

void
cleanup_forget(void)
{
	have_path = 0;
}

int
cleanup_stop_signal(void)
{
	return stop_signal;
}

void
cleanup_die(void)
{
	int sig = stop_signal;
	sigset_t set;

	if (sig == 0)
		return;
	if (have_path)
		unlink(registered_path);
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
