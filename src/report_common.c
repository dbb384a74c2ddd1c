/* report_common.c: the table of report formats, and what every report
 * says the same way. */
#include "config.h"

#include "report.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

const struct report_format report_formats[] = {
	{ "text", report_text, false, REPORT_TEXT },
	{ "json", report_json, false, REPORT_JSON },
	{ "conf", report_conf, true, REPORT_CONF },
};

const struct name_list report_format_names =
    NAME_LIST(report_formats, struct report_format, name);

/* Whether no layer lies under layer i. */
static bool
layer_is_leaf(const struct storage_info *st, size_t i)
{
	size_t j;

	for (j = i + 1; j < st->nlayers; j++)
		if (st->layers[j].parent == (int)i)
			return false;
	return true;
}

/* Append to buf what fits. */
static void
summary_append(char *buf, size_t len, const char *text)
{
	size_t used = strlen(buf);

	if (used + 1 < len)
		snprintf(buf + used, len - used, "%s", text);
}

/* One branch of the tree, from below the filesystem down to leaf i, with
 * what the report says of its end: the device's model and cache. */
static void
summary_branch(const struct storage_info *st, size_t i, char *buf, size_t len)
{
	const struct storage_layer *l = &st->layers[i];
	const struct storage_device *d;
	char chain[STORAGE_CHAIN_LEN];

	storage_layer_chain(st, i, chain, sizeof chain);
	summary_append(buf, len, chain);
	if (l->kind == STORAGE_LAYER_FILESYSTEM) {
		summary_append(buf, len, ", no block device");
		return;
	}
	if (l->kind != STORAGE_LAYER_DEVICE)
		return;
	d = storage_device_at(st, (size_t)l->device);
	if (d->have_model) {
		summary_append(buf, len, " ");
		summary_append(buf, len, d->model);
	}
	summary_append(buf, len, ", write cache: ");
	summary_append(buf, len, d->have_write_cache ? d->write_cache : "unknown");
}

void
report_storage_summary(const struct storage_info *st, char *buf, size_t len)
{
	size_t i, branches = 0;

	if (len == 0)
		return;
	snprintf(buf, len, "%s (", st->have_filesystem ? st->filesystem : "unknown filesystem");
	/* Every branch of the tree ends in a device, a gap, or a filesystem
	 * with no device (an upper directory on tmpfs). */
	for (i = 1; i < st->nlayers; i++) {
		if (!layer_is_leaf(st, i))
			continue;
		summary_append(buf, len, branches++ ? "; " : "");
		summary_branch(st, i, buf, len);
	}
	summary_append(buf, len, branches ? ")" : "no block device)");
}

const char *
report_tristate(int v)
{
	return v < 0 ? "unknown" : v ? "yes" : "no";
}
