/* fuzz_json.c: a libFuzzer target for the strict JSON reader and the
 * compare loader and printer, built by `make fuzz` like fuzz_parse.c.
 * Each input is a document; besides what the sanitizers catch it checks:
 *   - a refusal leaves a one-line, non-empty reason within the buffer;
 *   - what is accepted, written out again (strings escaped, numbers to 17
 *     digits), reads back as the same tree;
 *   - the compare loader accepts it or names one reason on one line,
 *     and what it accepts prints in lines of at most 79 bytes, and draws
 *     as a picture with no control byte and no markup of its own.
 * A crash it finds becomes a case in tests/test_fuzz_regress.c. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"
#include "util/json.h"
#include "util/json_read.h"
#include "report/sidebyside.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ERR_LEN 300
#define CANARY  0xA5u

static void
check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz_json: %s\n", what);
		abort();
	}
}

static void
check_reason(const char *err)
{
	size_t len = strnlen(err, ERR_LEN);

	check(len > 0 && len < ERR_LEN, "reason empty or not terminated");
	check((unsigned char)err[ERR_LEN] == CANARY, "reason overran its buffer");
}

static void
write_value(FILE *f, const struct json_node *n)
{
	size_t i;

	switch (n->type) {
	case JSON_NULL:
		fputs("null", f);
		break;
	case JSON_BOOL:
		fputs(n->boolean ? "true" : "false", f);
		break;
	case JSON_NUMBER:
		fprintf(f, "%.17g", n->number);
		break;
	case JSON_STRING:
		json_write_string(f, n->string);
		break;
	case JSON_ARRAY:
	case JSON_OBJECT:
		fputc(n->type == JSON_ARRAY ? '[' : '{', f);
		for (i = 0; i < n->count; i++) {
			if (i > 0)
				fputc(',', f);
			if (n->type == JSON_OBJECT) {
				json_write_string(f, n->keys[i]);
				fputc(':', f);
			}
			write_value(f, &n->items[i]);
		}
		fputc(n->type == JSON_ARRAY ? ']' : '}', f);
		break;
	}
}

static int
same_tree(const struct json_node *a, const struct json_node *b)
{
	size_t i;

	if (a->type != b->type || a->count != b->count)
		return 0;
	switch (a->type) {
	case JSON_BOOL:
		return a->boolean == b->boolean;
	case JSON_NUMBER:
		return a->number == b->number;
	case JSON_STRING:
		return strcmp(a->string, b->string) == 0;
	case JSON_ARRAY:
	case JSON_OBJECT:
		for (i = 0; i < a->count; i++) {
			if (a->type == JSON_OBJECT && strcmp(a->keys[i], b->keys[i]) != 0)
				return 0;
			if (!same_tree(&a->items[i], &b->items[i]))
				return 0;
		}
		return 1;
	default:
		return 1;
	}
}

static void
round_trip(const struct json_node *tree)
{
	char *buf = NULL, err[ERR_LEN + 1];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_node *again;

	if (f == NULL)
		return;
	write_value(f, tree);
	fclose(f);
	again = json_read(buf, len, err, ERR_LEN);
	check(again != NULL, "what was read does not read back once written");
	check(same_tree(tree, again), "what was read reads back as another tree");
	json_read_free(again);
	free(buf);
}

static void
compare_it(const struct json_node *tree)
{
	struct compare_run run;
	char err[ERR_LEN + 1], *buf = NULL, *p, *nl;
	size_t len = 0;
	FILE *f;

	memset(&run, 0, sizeof run);
	run.file = "fuzz.json";
	memset(err, CANARY, sizeof err);
	if (compare_load(tree, &run, err, ERR_LEN) == -1) {
		check_reason(err);
		check(strchr(err, '\n') == NULL, "a compare reason spans lines");
		compare_run_free(&run);
		return;
	}
	f = open_memstream(&buf, &len);
	if (f != NULL) {
		compare_print(f, &run, 1);
		fclose(f);
		for (p = buf; (nl = strchr(p, '\n')) != NULL; p = nl + 1)
			check(nl - p <= SBS_LINE_WIDTH, "a compare line over 79 bytes");
		free(buf);
	}
	buf = NULL;
	f = open_memstream(&buf, &len);
	if (f != NULL) {
		compare_svg(f, &run, 1);
		fclose(f);
		for (p = buf; *p != '\0'; p++)
			check((unsigned char)*p >= 0x20 || *p == '\n', "a control byte in a picture");
		check(strstr(buf, "<script") == NULL, "markup from a report in a picture");
		free(buf);
	}
	compare_run_free(&run);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[ERR_LEN + 1];
	struct json_node *tree;

	memset(err, CANARY, sizeof err);
	tree = json_read((const char *)data, size, err, ERR_LEN);
	if (tree == NULL) {
		check_reason(err);
		check(strchr(err, '\n') == NULL, "reason spans lines");
		return 0;
	}
	round_trip(tree);
	compare_it(tree);
	json_read_free(tree);
	return 0;
}
