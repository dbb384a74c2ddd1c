/* storage_mountinfo.c: the mounts in /proc/self/mountinfo (proc(5)): the
 * one holding a path, its type, source and options, and an overlay's upper
 * directory. Plain C and POSIX, so the tests can feed made-up files. */
#include "config.h"

#include "storage/storage.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OPTION_LEN           256	/* longer than any option worth keeping */
#define MOUNTINFO_MIN_FIELDS 10	/* six before the optional ones, "-", three after */
#define MOUNTINFO_MAX_FIELDS 64	/* the kernel writes a handful of optional ones */

static const char *next_option(const char **p, size_t *len);
static void add_option(char *opts, size_t len, const char *opt);
static void merge_options(char *opts, size_t len, const char *mount_opts,
    const char *super_opts);
static void option_value(const char *opts, const char *name, char *buf, size_t len);
static void unescape_backslashes(char *s);
static void overlay_dir(const char *opts, const char *name, char *buf, size_t len);
static size_t split_fields(char *line, char **fields, size_t max);
static int copy_field(char *dst, size_t len, const char *field);


static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int
octal_digit(char c)
{
	return c >= '0' && c <= '7' ? c - '0' : -1;
}

void
storage_unescape(char *s)
{
	char *w = s;

	while (*s != '\0') {
		if (s[0] == '\\' && octal_digit(s[1]) >= 0 && octal_digit(s[2]) >= 0 &&
		    octal_digit(s[3]) >= 0) {
			int v = octal_digit(s[1]) * 64 + octal_digit(s[2]) * 8 + octal_digit(s[3]);

			/* \000 would cut the name short: keep it as written. */
			if (v != 0 && v <= 255) {
				*w++ = (char)v;
				s += 4;
				continue;
			}
		}
		*w++ = *s++;
	}
	*w = '\0';
}

/* Split at single spaces, keeping empty fields (an empty mount source
 * shows as two spaces); the count of fields, at most max. */
static size_t
split_fields(char *line, char **fields, size_t max)
{
	size_t n = 0;
	char *p = line;

	line[strcspn(line, "\n")] = '\0';
	while (n < max) {
		fields[n++] = p;
		p = strchr(p, ' ');
		if (p == NULL)
			break;
		*p++ = '\0';
	}
	return n;
}

/* The option of a comma-separated list at *p, its length in *len, and *p
 * moved past it; NULL at the end of the list. */
static const char *
next_option(const char **p, size_t *len)
{
	const char *opt = *p;

	if (*opt == '\0')
		return NULL;
	*len = strcspn(opt, ",");
	*p = opt + *len + (opt[*len] == ',' ? 1 : 0);
	return opt;
}

bool
storage_has_option(const char *opts, const char *opt)
{
	size_t olen = strlen(opt), tlen;
	const char *p = opts, *t;

	while ((t = next_option(&p, &tlen)) != NULL)
		if (tlen == olen && strncmp(t, opt, olen) == 0)
			return true;
	return false;
}

/* Append opt unless it is already there or would not fit whole: a cut
 * option ("nobarr") would say something untrue. */
static void
add_option(char *opts, size_t len, const char *opt)
{
	size_t used = strlen(opts), olen = strlen(opt);

	if (olen == 0 || storage_has_option(opts, opt))
		return;
	if (used + (used ? 1 : 0) + olen + 1 > len)
		return;
	if (used)
		opts[used++] = ',';
	memcpy(opts + used, opt, olen + 1);
}

/* The mount's options, then those of the superblock not already given
 * ("rw" is in both). */
static void
merge_options(char *opts, size_t len, const char *mount_opts, const char *super_opts)
{
	const char *lists[2] = { mount_opts, super_opts };
	char opt[OPTION_LEN];
	size_t i, tlen;

	opts[0] = '\0';
	for (i = 0; i < 2; i++) {
		const char *p = lists[i], *t;

		while ((t = next_option(&p, &tlen)) != NULL) {
			if (tlen < sizeof opt) {
				memcpy(opt, t, tlen);
				opt[tlen] = '\0';
				add_option(opts, len, opt);
			}
		}
	}
}

/* The value of option name=VALUE in opts, into buf; "" when there is none
 * or it does not fit (a cut path would name another directory). */
static void
option_value(const char *opts, const char *name, char *buf, size_t len)
{
	size_t nlen = strlen(name), tlen;
	const char *p = opts, *t;

	buf[0] = '\0';
	while ((t = next_option(&p, &tlen)) != NULL) {
		if (tlen > nlen && strncmp(t, name, nlen) == 0 && t[nlen] == '=' &&
		    tlen - nlen - 1 < len) {
			memcpy(buf, t + nlen + 1, tlen - nlen - 1);
			buf[tlen - nlen - 1] = '\0';
			return;
		}
	}
}

/* overlayfs takes "\," for a comma inside a path, and shows the option as
 * it was given: a backslash stands for the character after it. */
static void
unescape_backslashes(char *s)
{
	char *w = s;

	for (; *s != '\0'; s++) {
		if (*s == '\\' && s[1] != '\0')
			s++;
		*w++ = *s;
	}
	*w = '\0';
}

/* An overlay's directory option name=PATH from the superblock options
 * opts, decoded into buf; "" when there is none. */
static void
overlay_dir(const char *opts, const char *name, char *buf, size_t len)
{
	/* Found before decoding: a comma inside the path is escaped (\054). */
	option_value(opts, name, buf, len);
	storage_unescape(buf);
	unescape_backslashes(buf);
}

/* Copy a decoded field into dst: 0, or -1 when it is empty or too long. */
static int
copy_field(char *dst, size_t len, const char *field)
{
	size_t flen = strlen(field);

	if (flen == 0 || flen >= len)
		return -1;
	memcpy(dst, field, flen + 1);
	return 0;
}

int
storage_mountinfo_parse_line(const char *line, struct storage_mount *m)
{
	/* 36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
	 * mount ID, parent ID, major:minor, root, mount point, mount options,
	 * optional fields up to "-", fstype, source, superblock options. */
	char *copy, *fields[MOUNTINFO_MAX_FIELDS], *end;
	size_t n, sep;
	int rc = -1;

	memset(m, 0, sizeof *m);
	copy = strdup(line);
	if (copy == NULL)
		return -1;
	n = split_fields(copy, fields, sizeof fields / sizeof fields[0]);
	if (n < MOUNTINFO_MIN_FIELDS)
		goto out;
	/* The optional fields end at a lone "-". */
	for (sep = 6; sep < n && strcmp(fields[sep], "-") != 0; sep++)
		;
	if (sep + 3 >= n)
		goto out;
	/* strtoul would take "-1" and a leading space: digits only. */
	if (!is_digit(fields[2][0]))
		goto out;
	errno = 0;
	m->major = strtoul(fields[2], &end, 10);
	if (errno != 0 || *end != ':' || !is_digit(end[1]))
		goto out;
	m->minor = strtoul(end + 1, &end, 10);
	if (errno != 0 || *end != '\0')
		goto out;
	storage_unescape(fields[4]);
	storage_unescape(fields[sep + 1]);
	storage_unescape(fields[sep + 2]);
	if (fields[4][0] != '/' ||
	    copy_field(m->mount_point, sizeof m->mount_point, fields[4]) == -1 ||
	    copy_field(m->fstype, sizeof m->fstype, fields[sep + 1]) == -1)
		goto out;
	/* An empty source (two spaces) is allowed: some filesystems have none. */
	if (copy_field(m->source, sizeof m->source, fields[sep + 2]) == -1)
		m->source[0] = '\0';
	merge_options(m->options, sizeof m->options, fields[5], fields[sep + 3]);
	overlay_dir(fields[sep + 3], "upperdir", m->upperdir, sizeof m->upperdir);
	overlay_dir(fields[sep + 3], "workdir", m->workdir, sizeof m->workdir);
	rc = 0;
out:
	free(copy);
	return rc;
}


bool
storage_path_under(const char *path, const char *mp)
{
	size_t len = strlen(mp);

	if (strcmp(mp, "/") == 0)
		return path[0] == '/';
	return strncmp(path, mp, len) == 0 && (path[len] == '\0' || path[len] == '/');
}

int
storage_mountinfo_find(const char *mountinfo_path, const char *path,
    unsigned long maj, unsigned long min, struct storage_mount *out)
{
	struct storage_mount *m, *best_dev, *best_any;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int rc = -1;

	f = fopen(mountinfo_path, "r");
	if (f == NULL)
		return -1;
	/* Three mounts of PATH_MAX each: on the heap, not the stack. */
	m = calloc(3, sizeof *m);
	if (m == NULL) {
		(void)fclose(f);	/* already failing: the allocation is the error */
		return -1;
	}
	best_dev = &m[1];
	best_any = &m[2];
	best_dev->mount_point[0] = best_any->mount_point[0] = '\0';
	while (getline(&line, &cap, f) != -1) {
		size_t len;

		if (storage_mountinfo_parse_line(line, &m[0]) == -1 ||
		    !storage_path_under(path, m[0].mount_point))
			continue;
		len = strlen(m[0].mount_point);
		/* ">=": of mounts stacked on one point, the last listed is the
		 * one on top, the one a path lookup reaches. */
		if (len >= strlen(best_any->mount_point))
			*best_any = m[0];
		if (m[0].major == maj && m[0].minor == min &&
		    len >= strlen(best_dev->mount_point)) {
			*best_dev = m[0];
			best_dev->dev_matched = true;
		}
	}
	if (ferror(f) == 0) {
		if (best_dev->dev_matched) {
			*out = *best_dev;
			rc = 0;
		} else if (best_any->mount_point[0] != '\0') {
			*out = *best_any;
			out->dev_matched = false;
			rc = 0;
		}
	}
	free(line);
	free(m);
	if (fclose(f) == EOF)
		rc = -1;
	return rc;
}
