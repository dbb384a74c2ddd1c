/* test_safefile.c: the safe-file module (util/safefile.h) in a scratch
 * directory: exclusive creation that never follows or overwrites, unique
 * names, a reopen that tells the file created from whatever was put in
 * its place, removal only while the name is ours, the verifier's open of
 * an existing file, a file replaced whole by one written beside it (never
 * over anyone else's), and removal by a signal while the file is
 * registered (and not once it is kept), several files at once. Someone else's moves are made here by hand,
 * between two calls, as tests/cli_race.sh makes them with the fault shim. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "util/safefile.h"
#include "tap.h"

static char scratch[] = "/tmp/test_safefile.XXXXXX";
static char err[PATH_MAX + 512];

/* The path of name in the scratch directory; two at a time (symlink). */
static const char *
in_scratch(const char *name)
{
	static char paths[2][PATH_MAX];
	static unsigned next;
	char *path = paths[next++ % 2];

	snprintf(path, PATH_MAX, "%s/%s", scratch, name);
	return path;
}

static bool
exists(const char *name)
{
	struct stat st;

	return lstat(in_scratch(name), &st) == 0;
}

/* A file someone else made, holding text. */
static void
put_file(const char *name, const char *text)
{
	FILE *f = fopen(in_scratch(name), "w");

	if (f != NULL) {
		fputs(text, f);
		fclose(f);
	}
}

static bool
holds(const char *name, const char *text)
{
	char buf[256] = "";
	FILE *f = fopen(in_scratch(name), "r");
	size_t n;

	if (f == NULL)
		return false;
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return strcmp(buf, text) == 0;
}

/* A safefile for name in the scratch directory, the directory held. */
static int
place(struct safefile *sf, const char *name)
{
	if (safefile_locate(sf, scratch, name, NULL, err, sizeof err) == -1)
		return -1;
	return safefile_open_dir(sf, err, sizeof err);
}

static void
test_locate(void)
{
	struct safefile sf;

	ok(safefile_locate(&sf, "/some/dir/", "f", NULL, err, sizeof err) == 0 &&
	    strcmp(sf.path, "/some/dir/f") == 0 && strcmp(sf.dir, "/some/dir/") == 0,
	    "dir/ and name: path '/some/dir/f' (got '%s')", sf.path);
	ok(safefile_locate(&sf, NULL, NULL, "/x/y/z", err, sizeof err) == 0 &&
	    strcmp(sf.dir, "/x/y") == 0 && strcmp(sf.name, "z") == 0,
	    "exact /x/y/z: directory /x/y, name z");
	ok(safefile_locate(&sf, NULL, NULL, "/z", err, sizeof err) == 0 &&
	    strcmp(sf.dir, "/") == 0, "exact /z: directory /");
	ok(safefile_locate(&sf, NULL, NULL, "z", err, sizeof err) == 0 &&
	    strcmp(sf.dir, ".") == 0, "exact z: directory .");
	ok(safefile_locate(&sf, NULL, NULL, "/x/..", err, sizeof err) == -1 &&
	    strstr(err, "names a directory") != NULL, "exact /x/..: refused (%s)", err);
	ok(safefile_locate(&sf, NULL, NULL, "/x/", err, sizeof err) == -1,
	    "exact /x/: refused, no file name");
}

static void
test_create(void)
{
	struct safefile sf, again;
	int fd;

	ok(place(&sf, "created") == 0, "the scratch directory is held");
	fd = safefile_create(&sf, NULL, "hint", err, sizeof err);
	ok(fd >= 0 && exists("created"), "created exclusively");
	if (fd >= 0)
		close(fd);
	ok(place(&again, "created") == 0 &&
	    safefile_create(&again, NULL, "name a new one", err, sizeof err) == -1 &&
	    strstr(err, "already exists (name a new one)") != NULL,
	    "an existing name is refused with the hint: %s", err);
	safefile_close(&again);
	ok(safefile_remove(&sf, err, sizeof err) == 0 && !exists("created") && sf.dirfd == -1,
	    "removed while the name is ours, the directory let go");

	put_file("victim", "someone's data\n");
	if (symlink(in_scratch("victim"), in_scratch("link")) != 0)
		perror("symlink");
	ok(place(&sf, "link") == 0 &&
	    safefile_create(&sf, NULL, "hint", err, sizeof err) == -1 &&
	    holds("victim", "someone's data\n"), "a symbolic link in the name's place is "
	    "never followed, the file it leads to untouched");
	safefile_close(&sf);
	unlink(in_scratch("link"));

	ok(place(&sf, ".u.XXXXXX") == 0, "a unique name's pattern");
	fd = safefile_create(&sf, ".u.", "hint", err, sizeof err);
	ok(fd >= 0 && strncmp(sf.name, ".u.", 3) == 0 && strlen(sf.name) == 9 &&
	    strcmp(sf.path, in_scratch(sf.name)) == 0 && exists(sf.name),
	    "a unique name: .u. and six characters, its path kept (%s)", sf.name);
	if (fd >= 0)
		close(fd);
	ok(safefile_remove(&sf, err, sizeof err) == 0, "and removed");
}

/* Create name, close the creating descriptor; the held safefile. */
static int
created(struct safefile *sf, const char *name)
{
	int fd;

	if (place(sf, name) == -1 || (fd = safefile_create(sf, NULL, "hint", err, sizeof err)) == -1)
		return -1;
	close(fd);
	return 0;
}

static void
test_reopen(void)
{
	struct safefile sf;
	const char *what;
	char moved[PATH_MAX];
	int fd;

	ok(created(&sf, "r") == 0, "a file to reopen");
	fd = safefile_reopen(&sf, O_DSYNC, false, &what);
	ok(fd >= 0 && write(fd, "x", 1) == 1, "reopened for writing, with the flags asked for");
	if (fd >= 0)
		close(fd);

	snprintf(moved, sizeof moved, "%s", in_scratch("r.moved"));
	rename(in_scratch("r"), moved);
	put_file("r", "someone else's file\n");
	ok(safefile_reopen(&sf, 0, false, &what) == SAFEFILE_REPLACED,
	    "another file in its place: replaced, nothing opened");
	ok(holds("r", "someone else's file\n"), "that file is untouched");
	ok(safefile_remove(&sf, err, sizeof err) == -1 && strstr(err, "left as it is") &&
	    holds("r", "someone else's file\n"), "and not removed: %s", err);
	unlink(in_scratch("r"));
	unlink(moved);

	ok(created(&sf, "s") == 0, "a file swapped for a symbolic link");
	put_file("victim2", "data\n");
	rename(in_scratch("s"), moved);
	if (symlink(in_scratch("victim2"), in_scratch("s")) != 0)
		perror("symlink");
	ok(safefile_reopen(&sf, 0, false, &what) == SAFEFILE_REPLACED && holds("victim2", "data\n"),
	    "a symbolic link in its place: replaced, never followed");
	ok(safefile_remove(&sf, err, sizeof err) == -1 && exists("s"),
	    "the link is left where it is: %s", err);
	unlink(in_scratch("s"));
	unlink(moved);

	ok(created(&sf, "g") == 0, "a file removed by someone else");
	unlink(in_scratch("g"));
	ok(safefile_reopen(&sf, 0, false, &what) == SAFEFILE_REPLACED, "gone: replaced");
	ok(safefile_remove(&sf, err, sizeof err) == -1 && strstr(err, "removed by someone else"),
	    "its removal says so: %s", err);
}

static void
test_open_existing(void)
{
	struct safefile sf;
	bool gone;
	int fd = -1;

	put_file("old", "x");
	ok(place(&sf, "old") == 0 && (fd = safefile_open_existing(&sf, &gone, err, sizeof err)) >= 0,
	    "an existing regular file opens for reading");
	if (fd >= 0)
		close(fd);
	ok(safefile_remove(&sf, err, sizeof err) == 0 && !exists("old"),
	    "and is removed while its name is the file opened");

	ok(place(&sf, "none") == 0 && safefile_open_existing(&sf, &gone, err, sizeof err) == -1 &&
	    gone, "no such name: gone");
	ok(safefile_remove(&sf, err, sizeof err) == 0, "nothing opened: nothing to remove");

	if (mkfifo(in_scratch("fifo"), 0600) == 0) {
		ok(place(&sf, "fifo") == 0 &&
		    safefile_open_existing(&sf, &gone, err, sizeof err) == -1 && !gone &&
		    strstr(err, "not a regular file"), "a FIFO: refused at once (%s)", err);
		safefile_close(&sf);
		unlink(in_scratch("fifo"));
	}
	put_file("target", "t");
	if (symlink(in_scratch("target"), in_scratch("sym")) != 0)
		perror("symlink");
	ok(place(&sf, "sym") == 0 && safefile_open_existing(&sf, &gone, err, sizeof err) == -1 &&
	    strstr(err, "symbolic link"), "a symbolic link: refused (%s)", err);
	safefile_close(&sf);
	unlink(in_scratch("sym"));
	unlink(in_scratch("target"));
}

/* A directory made fresh: exclusively, 0700, the one opened; never
 * through a symbolic link or over a name that exists. */
static void
test_make_dir(void)
{
	struct safefile sf;
	struct stat st, fst;
	char first[NAME_MAX + 1];
	int fd, fd2;

	ok(place(&sf, "") == 0, "the scratch directory is held for a directory");
	fd = safefile_make_dir(&sf, ".d.", "hint", err, sizeof err);
	ok(fd >= 0 && strncmp(sf.name, ".d.", 3) == 0 && strlen(sf.name) == 9,
	    "a directory made with a unique name (%s)", fd >= 0 ? sf.name : err);
	ok(fd >= 0 && lstat(in_scratch(sf.name), &st) == 0 && S_ISDIR(st.st_mode) &&
	    (st.st_mode & 07777) == 0700, "... a directory, mode 0700");
	ok(fd >= 0 && fstat(fd, &fst) == 0 && fst.st_dev == sf.dev && fst.st_ino == sf.ino &&
	    st.st_ino == sf.ino, "... the descriptor and dev/ino are of the one made");
	snprintf(first, sizeof first, "%s", sf.name);
	fd2 = safefile_make_dir(&sf, ".d.", "hint", err, sizeof err);
	ok(fd2 >= 0 && strcmp(sf.name, first) != 0, "a second one has another name");
	if (fd2 >= 0) {
		close(fd2);
		rmdir(in_scratch(sf.name));
	}
	if (fd >= 0)
		close(fd);
	rmdir(in_scratch(first));
	safefile_close(&sf);

	/* A symbolic link planted at the name, to where someone wants a
	 * directory of ours: nothing is made there. */
	unlink(in_scratch("dlink"));
	symlink(in_scratch("dtarget"), in_scratch("dlink"));
	ok(place(&sf, "dlink") == 0 &&
	    safefile_make_dir(&sf, NULL, "hint", err, sizeof err) == -1 &&
	    strstr(err, "already exists (hint)") != NULL && !exists("dtarget"),
	    "a symbolic link at the name: refused, nothing made where it leads (%s)", err);
	safefile_close(&sf);
	unlink(in_scratch("dlink"));
	put_file("dfile", "theirs");
	ok(place(&sf, "dfile") == 0 &&
	    safefile_make_dir(&sf, NULL, "hint", err, sizeof err) == -1 &&
	    strstr(err, "already exists") != NULL && holds("dfile", "theirs"),
	    "a file at the name: refused, left as it is");
	safefile_close(&sf);
	unlink(in_scratch("dfile"));
	fd = place(&sf, "dnew") == 0 ?
	    safefile_make_dir(&sf, NULL, "hint", err, sizeof err) : -1;
	ok(fd >= 0 && strcmp(sf.path, in_scratch("dnew")) == 0,
	    "a free name given: made there (%s)", fd >= 0 ? sf.path : err);
	if (fd >= 0)
		close(fd);
	rmdir(in_scratch("dnew"));
	safefile_close(&sf);
}

/* A file written beside dest and put in its place, holding text; the
 * descriptor closed. 0, or -1 with err. */
static int
replaced_with(struct safefile *dest, const char *text)
{
	struct safefile tmp;
	int fd = safefile_create_beside(&tmp, dest, ".tmp.", err, sizeof err);

	if (fd == -1)
		return -1;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text) ||
	    safefile_sync(&tmp, fd, err, sizeof err) == -1 || close(fd) == -1 ||
	    safefile_replace(dest, &tmp, err, sizeof err) == -1) {
		(void)safefile_remove(&tmp, err, sizeof err);
		return -1;
	}
	return 0;
}

/* How many names in the scratch directory start with prefix. */
static int
names_starting(const char *prefix)
{
	char cmd[PATH_MAX + 64];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof cmd, "ls -A '%s' | grep -c '^%s' || :", scratch, prefix);
	if ((p = popen(cmd, "r")) != NULL) {
		if (fscanf(p, "%d", &n) != 1)
			n = -1;
		pclose(p);
	}
	return n;
}

static void
test_replace(void)
{
	struct safefile dest;

	ok(place(&dest, "m.prom") == 0 && safefile_check_absent(&dest, "hint", err,
	    sizeof err) == 0, "a free name: absent");
	ok(replaced_with(&dest, "one\n") == 0 && holds("m.prom", "one\n"),
	    "written beside it, then renamed into place (%s)", err);
	ok(replaced_with(&dest, "two\n") == 0 && holds("m.prom", "two\n"),
	    "replaced whole: the new text (%s)", err);
	ok(names_starting(".tmp.") == 0, "no copy left beside it");
	ok(safefile_check_absent(&dest, "hint", err, sizeof err) == -1 &&
	    strstr(err, "m.prom: already exists (hint)") != NULL,
	    "once there, the name is not absent: %s", err);
	/* Someone else's file in its place: left as it is. Made before ours
	 * goes, so that it cannot reuse our file's inode number. */
	put_file("theirs", "theirs");
	rename(in_scratch("theirs"), in_scratch("m.prom"));
	ok(replaced_with(&dest, "three\n") == -1 && holds("m.prom", "theirs") &&
	    strstr(err, "replaced by another file") != NULL,
	    "another file in its place: refused, left as it is (%s)", err);
	ok(names_starting(".tmp.") == 0, "... and the copy removed");
	unlink(in_scratch("m.prom"));
	ok(replaced_with(&dest, "four\n") == 0 && holds("m.prom", "four\n"),
	    "the name removed by someone: made again (%s)", err);
	ok(safefile_remove(&dest, err, sizeof err) == 0 && !exists("m.prom"),
	    "removed at the end, ours");
	/* A symbolic link: never followed, named for what it is. */
	put_file("victim", "victim's");
	ok(symlink(in_scratch("victim"), in_scratch("l.prom")) == 0 &&
	    place(&dest, "l.prom") == 0 &&
	    safefile_check_absent(&dest, "hint", err, sizeof err) == -1 &&
	    strstr(err, "already exists, a symbolic link (hint)") != NULL &&
	    holds("victim", "victim's"), "a symbolic link at the name: refused (%s)", err);
	safefile_close(&dest);
	unlink(in_scratch("l.prom"));
}

/* In a child: create name, keep it when keep, then die of SIGQUIT (a
 * signal that removes the registered file at once). */
static int
signalled_child(const char *name, bool keep)
{
	struct safefile sf;
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		cleanup_install();
		if (created(&sf, name) == -1)
			_exit(2);
		if (keep)
			safefile_keep(&sf);
		raise(SIGQUIT);
		_exit(3);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFSIGNALED(status) ? WTERMSIG(status) : -1;
}

/* In a child: a file placed as name (replaced twice), a second file and
 * one written beside the first, then SIGQUIT: all three registered. */
static int
signalled_three(void)
{
	struct safefile dest, other, tmp;
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		cleanup_install();
		if (place(&dest, "three.prom") == -1 || replaced_with(&dest, "a") == -1 ||
		    replaced_with(&dest, "b") == -1 || created(&other, "other") == -1 ||
		    safefile_create_beside(&tmp, &dest, ".tmp.", err, sizeof err) == -1)
			_exit(2);
		raise(SIGQUIT);
		_exit(3);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFSIGNALED(status) ? WTERMSIG(status) : -1;
}

static void
test_signals(void)
{
	struct sigaction sa;

	/* A parent that ignores SIGQUIT (a background shell) would have the
	 * child keep ignoring it: cleanup leaves ignored signals alone. */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGQUIT, &sa, NULL);
	ok(signalled_child("sig", false) == SIGQUIT && !exists("sig"),
	    "SIGQUIT while the file is registered: it is removed, and the process dies of it");
	ok(signalled_child("kept", true) == SIGQUIT && exists("kept"),
	    "SIGQUIT once the file is kept: it stays");
	unlink(in_scratch("kept"));
	ok(signalled_three() == SIGQUIT && !exists("three.prom") && !exists("other") &&
	    names_starting(".tmp.") == 0,
	    "SIGQUIT with three files registered, one of them renamed into place: "
	    "all three removed");
}

/* A name claimed at the start for a file made later: its directory held
 * when the name is free; refused, nothing held, when it is taken or its
 * directory is missing. */
static void
test_claim(void)
{
	struct safefile sf;

	ok(safefile_claim(&sf, in_scratch("c.svg"), "--svg", "hint", err, sizeof err) == 0 &&
	    sf.dirfd >= 0 && strcmp(sf.name, "c.svg") == 0, "a free name: claimed, its "
	    "directory held (%s)", err);
	safefile_close(&sf);
	put_file("c.svg", "theirs");
	ok(safefile_claim(&sf, in_scratch("c.svg"), "--svg", "hint", err, sizeof err) == -1 &&
	    sf.dirfd == -1 && strstr(err, "c.svg: already exists (hint)") != NULL,
	    "a taken name: refused, nothing held (%s)", err);
	unlink(in_scratch("c.svg"));
	ok(safefile_claim(&sf, in_scratch("none/c.svg"), "--svg", "hint", err,
	    sizeof err) == -1 && strncmp(err, "--svg: ", 7) == 0 && strstr(err, "none") != NULL,
	    "a missing directory: refused, named after what (%s)", err);
}

int
main(void)
{
	if (mkdtemp(scratch) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_locate();
	test_create();
	test_reopen();
	test_open_existing();
	test_make_dir();
	test_replace();
	test_claim();
	test_signals();
	ok(safefile_direct_refused(EINVAL) && !safefile_direct_refused(EIO),
	    "EINVAL means direct I/O refused; EIO is an I/O error");
	unlink(in_scratch("victim"));
	unlink(in_scratch("victim2"));
	if (rmdir(scratch) != 0)
		ok(0, "the scratch directory is empty at the end: %s", strerror(errno));
	return tap_done();
}
