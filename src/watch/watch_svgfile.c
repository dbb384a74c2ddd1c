/* watch_svgfile.c: --svg's file, made when watch ends (watch_svgfile.h). */
#include "config.h"

#include "watch/watch_svgfile.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "probe/row.h"
#include "watch/watch_svg.h"

#define EXISTS_HINT "--svg writes only a file of its own: remove it, or name another"

enum exit_status
watch_svgfile_open(struct watch_svgfile *sf, const char *path, char *err, size_t errlen)
{
	memset(sf, 0, sizeof *sf);
	/* Refused now, not after a week of measuring: a file of that name may
	 * be anyone's, and syncprobe writes only files it made. */
	if (safefile_claim(&sf->file, path, "--svg", EXISTS_HINT, err, errlen) == -1)
		return STATUS_USAGE;
	sf->is_open = true;
	return STATUS_OK;
}

/* The picture into the file fd, synced: 0, or -1 with err. */
static int
write_picture(struct watch_svgfile *sf, int fd, const struct watch_setup *s,
    const struct watch_summary *sum, const struct watch_plot *p, char *err, size_t errlen)
{
	FILE *f = fdopen(fd, "w");
	int e;

	if (f == NULL) {
		snprintf(err, errlen, "%s: %s", sf->file.path, strerror(errno));
		(void)close(fd);
		return -1;
	}
	watch_svg(f, s, sum, p);
	if (fflush(f) == EOF || ferror(f)) {
		e = errno;
		(void)fclose(f);
		snprintf(err, errlen, "write %s: %s", sf->file.path, strerror(e));
		return -1;
	}
	if (safefile_sync(&sf->file, fd, err, errlen) == -1) {
		(void)fclose(f);
		return -1;
	}
	if (fclose(f) == EOF) {
		snprintf(err, errlen, "close %s: %s", sf->file.path, strerror(errno));
		return -1;
	}
	return 0;
}

int
watch_svgfile_write(struct watch_svgfile *sf, const struct watch_setup *s,
    const struct watch_summary *sum, const struct watch_plot *p, char *err, size_t errlen)
{
	char ignored[REASON_LEN];
	int fd, rc = -1;

	if (!sf->is_open)
		return 0;
	fd = safefile_create(&sf->file, NULL, EXISTS_HINT, err, errlen);
	if (fd != -1 && (rc = write_picture(sf, fd, s, sum, p, err, errlen)) == -1)
		(void)safefile_remove(&sf->file, ignored, sizeof ignored);
	if (rc == 0)
		safefile_keep(&sf->file);
	watch_svgfile_close(sf);
	return rc;
}

void
watch_svgfile_close(struct watch_svgfile *sf)
{
	if (!sf->is_open)
		return;
	safefile_close(&sf->file);
	sf->is_open = false;
}
