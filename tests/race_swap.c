/* race_swap.c: a helper for tests/cli_race.sh, not a test itself. It plays
 * someone else who can write to the target directory: as fast as it can,
 * it renames every test file it sees there (.syncprobe.*, and the
 * durability writer's syncprobe-durability) away and puts a symbolic
 * link to DECOY in its place, until STOPFILE exists. Then it
 * prints how many swaps it made.
 *
 *   race_swap DIR DECOY STOPFILE
 *
 * Run as an unprivileged user against a syncprobe run as root, it is the
 * attack of issue 10: a root-run syncprobe that reopens its file by name
 * writes to DECOY. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PREFIX     ".syncprobe."
#define DURABILITY "syncprobe-durability"
#define MOVED      ".moved"
#define NAME_BYTES 256

/* Whether name is a test file (or the durability writer's file) that
 * has not been moved yet. */
static int
is_test_file(const char *name)
{
	size_t len = strlen(name);

	if (strcmp(name, DURABILITY) == 0)
		return 1;
	return strncmp(name, PREFIX, strlen(PREFIX)) == 0 &&
	    !(len > strlen(MOVED) && strcmp(name + len - strlen(MOVED), MOVED) == 0);
}

/* One pass over dir: every regular test file becomes a link to decoy. */
static unsigned long
swap_all(int dirfd, const char *decoy)
{
	unsigned long swaps = 0;
	struct dirent *e;
	struct stat st;
	int fd = dup(dirfd);
	DIR *d;

	if (fd == -1 || (d = fdopendir(fd)) == NULL) {
		if (fd != -1)
			close(fd);
		return 0;
	}
	rewinddir(d);
	while ((e = readdir(d)) != NULL) {
		char moved[NAME_BYTES + sizeof MOVED];

		if (!is_test_file(e->d_name) ||
		    fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == -1 ||
		    !S_ISREG(st.st_mode))
			continue;
		snprintf(moved, sizeof moved, "%s%s", e->d_name, MOVED);
		if (renameat(dirfd, e->d_name, dirfd, moved) == 0 &&
		    symlinkat(decoy, dirfd, e->d_name) == 0)
			swaps++;
	}
	closedir(d);
	return swaps;
}

int
main(int argc, char **argv)
{
	unsigned long swaps = 0;
	int dirfd;

	if (argc != 4) {
		fprintf(stderr, "usage: race_swap DIR DECOY STOPFILE\n");
		return 2;
	}
	dirfd = open(argv[1], O_RDONLY | O_DIRECTORY);
	if (dirfd == -1) {
		fprintf(stderr, "race_swap: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	while (access(argv[3], F_OK) == -1)
		swaps += swap_all(dirfd, argv[2]);
	printf("%lu\n", swaps);
	return 0;
}
