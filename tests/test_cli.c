/* test_cli.c: the command and option tables, and a test generated from
 * them: every option, long and short, given to every command that does
 * not take it is refused by the real binary ($SYNCPROBE) with exit 2 and
 * a message naming it; every probe option that needs a test group is
 * refused without it. A row added to any table is tried without a line
 * here. */
#include "config.h"

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "probe/plan.h"
#include "tap.h"

#define MAX_ARGS 8
#define ERR_MAX 1024

static const char *syncprobe;

/* Run syncprobe with args (NULL-terminated); its exit status (-1: not an
 * exit) and the first ERR_MAX - 1 bytes of its stderr. */
static int
run(char *const *args, char *err, size_t errlen)
{
	int fds[2], status;
	ssize_t n;
	size_t got = 0;
	pid_t pid;

	fflush(NULL);	/* the child must not print what is buffered here */
	if (pipe(fds) == -1 || (pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		FILE *null = freopen("/dev/null", "w", stdout);

		(void)null;
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		execv(syncprobe, args);
		_exit(127);
	}
	close(fds[1]);
	while (got + 1 < errlen && (n = read(fds[0], err + got, errlen - 1 - got)) > 0)
		got += (size_t)n;
	err[got] = '\0';
	close(fds[0]);
	if (waitpid(pid, &status, 0) == -1 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* args: the program, then the words of cmd's name. */
static size_t
command_words(const struct cli_command *cmd, char *words, char **args)
{
	size_t n = 0;
	char *w;

	args[n++] = (char *)syncprobe;
	snprintf(words, 64, "%s", cmd->name);
	for (w = strtok(words, " "); w != NULL && n < MAX_ARGS - 3; w = strtok(NULL, " "))
		args[n++] = w;
	return n;
}

/* Give opt to cmd, as "--name=x" or as "-X x" (shortly). */
static void
expect_refused(const struct cli_command *cmd, const struct cli_option *opt, bool shortly)
{
	char words[64], spelled[96], want[96], err[ERR_MAX];
	char *args[MAX_ARGS];
	size_t n = command_words(cmd, words, args);
	bool one_line;
	int rc;

	if (shortly) {
		snprintf(spelled, sizeof spelled, "-%c", opt->letter);
		args[n++] = spelled;
		if (opt->has_arg == required_argument)
			args[n++] = (char *)(opt->example != NULL ? opt->example : "x");
	} else if (opt->has_arg == required_argument) {
		snprintf(spelled, sizeof spelled, "--%s=%s", opt->name,
		    opt->example != NULL ? opt->example : "x");
		args[n++] = spelled;
	} else {
		snprintf(spelled, sizeof spelled, "--%s", opt->name);
		args[n++] = spelled;
	}
	args[n] = NULL;
	rc = run(args, err, sizeof err);
	snprintf(want, sizeof want, "syncprobe: --%s: not an option of syncprobe", opt->name);
	one_line = err[0] != '\0' && strchr(err, '\n') == err + strlen(err) - 1;
	if (one_line)
		err[strlen(err) - 1] = '\0';
	ok(rc == 2 && one_line && strncmp(err, want, strlen(want)) == 0,
	    "'%s' %s: exit 2, one line naming it (exit %d: %s)",
	    cmd->name[0] ? cmd->name : "(probe)", spelled, rc, err);
}

/* The first row of opt's name in the tables: each option is tried once. */
static bool
first_of_name(const struct cli_option *opt)
{
	size_t c, i;

	for (c = 0; c < cli_table.n; c++)
		for (i = 0; i < cli_table.commands[c]->noptions; i++)
			if (strcmp(cli_table.commands[c]->options[i].name, opt->name) == 0)
				return &cli_table.commands[c]->options[i] == opt;
	return false;
}

/* Every option of every command, given to each command without it. */
static void
test_elsewhere(void)
{
	size_t c, d, i;

	for (c = 0; c < cli_table.n; c++)
		for (i = 0; i < cli_table.commands[c]->noptions; i++) {
			const struct cli_option *opt = &cli_table.commands[c]->options[i];

			if (!first_of_name(opt))
				continue;
			for (d = 0; d < cli_table.n; d++) {
				if (cli_option_in(cli_table.commands[d], opt->name) != NULL)
					continue;
				expect_refused(cli_table.commands[d], opt, false);
				if (opt->letter)
					expect_refused(cli_table.commands[d], opt, true);
			}
		}
}

/* The probe's options that need a test group, given with a group outside
 * their set. */
static void
test_groups(void)
{
	const struct cli_command *cmd = &cli_probe_command;
	char spelled[96], want[96], err[ERR_MAX], group[32];
	size_t i;
	int rc;

	for (i = 0; i < cmd->noptions; i++) {
		const struct cli_option *opt = &cmd->options[i];
		char *args[] = { (char *)syncprobe, (char *)"-t", group, spelled, NULL };
		unsigned g;

		if (opt->groups == 0)
			continue;
		for (g = 0; g < GROUP_COUNT && (opt->groups & (1u << g)); g++)
			continue;
		ok(g < GROUP_COUNT, "--%s leaves a group out", opt->name);
		snprintf(group, sizeof group, "%s", plan_group_name((enum group)g));
		ok(opt->example != NULL, "--%s has an example value", opt->name);
		snprintf(spelled, sizeof spelled, "--%s=%s", opt->name,
		    opt->example != NULL ? opt->example : "x");
		rc = run(args, err, sizeof err);
		err[strcspn(err, "\n")] = '\0';
		snprintf(want, sizeof want, "syncprobe: --%s: only -t ", opt->name);
		ok(rc == 2 && strncmp(err, want, strlen(want)) == 0,
		    "-t %s %s: exit 2, naming the groups it needs (exit %d: %s)", group,
		    spelled, rc, err);
	}
}

/* The exact message for each option refused where it does nothing. */
static void
test_group_messages(void)
{
	static const struct {
		const char *tests, *option, *want;
	} cases[] = {
		{ "etcd", "-mfsync", "--methods: only -t one, two or group uses it" },
		{ "nosync", "--methods=fsync", "--methods: only -t one, two or group uses it" },
		{ "sizes", "-mfdatasync", "--methods: only -t one, two or group uses it" },
		{ "etcd", "-b4k", "--block-size: only -t one, two, descriptor, nosync or group "
		  "uses it" },
		{ "sizes", "--block-size=4k", "--block-size: only -t one, two, descriptor, nosync "
		  "or group uses it" },
		{ "etcd", "--pattern=append", "--pattern: only -t one, two, sizes, descriptor, "
		  "nosync or group uses it" },
		{ "etcd", "--file-size=1G", "--file-size: only -t one, two, sizes, descriptor, "
		  "nosync or group uses it" },
		{ "etcd", "-fx", "--filename: only -t one, two, sizes, descriptor, nosync or "
		  "group uses it" },
		{ "nosync", "--direct=on", "--direct: only -t one, two, sizes or group uses it" },
		{ "descriptor", "--direct=on", "--direct: only -t one, two, sizes or group uses it" },
		{ "etcd", "--direct=on", "--direct: only -t one, two, sizes or group uses it" },
	};
	char want[256], err[ERR_MAX];
	size_t i;
	int rc;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *args[] = { (char *)syncprobe, (char *)"-t", (char *)cases[i].tests,
		    (char *)cases[i].option, NULL };

		rc = run(args, err, sizeof err);
		err[strcspn(err, "\n")] = '\0';
		snprintf(want, sizeof want, "syncprobe: %s (add one of them to --tests)",
		    cases[i].want);
		ok(rc == 2 && strcmp(err, want) == 0, "-t %s %s: exit 2, '%s' (exit %d: %s)",
		    cases[i].tests, cases[i].option, want, rc, err);
	}
	{
		char *args[] = { (char *)syncprobe, (char *)"-t", (char *)"one",
		    (char *)"--clients=4", NULL };

		rc = run(args, err, sizeof err);
		err[strcspn(err, "\n")] = '\0';
		ok(rc == 2 && strcmp(err, "syncprobe: --clients: only -t group uses it (add "
		    "group to --tests)") == 0, "a one-group option names its group (exit %d: %s)",
		    rc, err);
	}
}

/* One option, one spelling: a long name has one letter and one kind of
 * value in every command, and a letter one long name. */
static void
test_consistent(void)
{
	size_t c, d, i, j;
	int bad = 0;

	for (c = 0; c < cli_table.n; c++)
		for (i = 0; i < cli_table.commands[c]->noptions; i++)
			for (d = 0; d < cli_table.n; d++)
				for (j = 0; j < cli_table.commands[d]->noptions; j++) {
					const struct cli_option *x = &cli_table.commands[c]->options[i];
					const struct cli_option *y = &cli_table.commands[d]->options[j];
					bool same_name = strcmp(x->name, y->name) == 0;

					if ((same_name && (x->letter != y->letter ||
					    x->has_arg != y->has_arg)) ||
					    (!same_name && x->letter != 0 && x->letter == y->letter)) {
						printf("# --%s and --%s\n", x->name, y->name);
						bad++;
					}
				}
	ok(bad == 0, "a long name has one letter and one kind of value everywhere, "
	    "a letter one name");
}

/* What completion reads: every choice option lists its values. */
static void
test_values(void)
{
	size_t c, i;
	char buf[256];

	for (c = 0; c < cli_table.n; c++)
		for (i = 0; i < cli_table.commands[c]->noptions; i++) {
			const struct cli_option *opt = &cli_table.commands[c]->options[i];

			if (cli_option_kind(opt) == CLI_VALUE_FREE || cli_option_kind(opt) == CLI_VALUE_FILE)
				continue;
			cli_option_values(opt, " ", buf, sizeof buf);
			ok(buf[0] != '\0', "'%s' --%s lists its values (%s)",
			    cli_table.commands[c]->name, opt->name, buf);
		}
}

/* Every typed row's field is as wide as what its type stores there: a
 * pointer for a row, a method or a text, an enum for a choice, a bool for
 * a flag, a whole integer type for numbers; a CLI_CHOICE row set into a
 * pointer field would write an index into half of it. */
static void
test_field_widths(void)
{
	size_t c, i, want;

	for (c = 0; c < cli_table.n; c++)
		for (i = 0; i < cli_table.commands[c]->noptions; i++) {
			const struct cli_option *opt = &cli_table.commands[c]->options[i];

			switch (opt->type) {
			case CLI_NONE:
			case CLI_CODE:
				continue;
			case CLI_ROW:
			case CLI_METHOD:
			case CLI_TEXT:
				want = sizeof(void *);
				break;
			case CLI_CHOICE:
				want = sizeof(enum cli_type);
				break;
			case CLI_FLAG:
				want = sizeof(bool);
				break;
			default:
				want = opt->width == 1 || opt->width == 2 || opt->width == 4 ||
				    opt->width == 8 ? opt->width : 0;
				break;
			}
			ok(opt->width == want, "'%s' --%s: its field is %zu bytes wide (%zu)",
			    cli_table.commands[c]->name, opt->name, opt->width, want);
		}
}

/* The one parser of typed rows: each value lands in its field, whatever
 * the field's width, and nowhere else; a list sets its count; limits and
 * an empty text are refused with the reason. */
struct typed {
	unsigned char narrow;
	uint16_t mid;
	unsigned word;
	uint64_t wide;
	size_t bytes;
	unsigned list[3];
	size_t nlist;
	const char *text;
	unsigned guard;
};

static void
test_typed_rows(void)
{
	const struct cli_option rows[] = {
		{ .name = "narrow", .type = CLI_NUMBER, CLI_FIELD(struct typed, narrow), .max = 200 },
		{ .name = "mid", .type = CLI_NUMBER, CLI_FIELD(struct typed, mid), .max = 60000 },
		{ .name = "word", .type = CLI_NUMBER, CLI_FIELD(struct typed, word), .min = 1,
		  .max = 100000 },
		{ .name = "wide", .type = CLI_COUNT, CLI_FIELD(struct typed, wide),
		  .max = 10000000000ULL },
		{ .name = "bytes", .type = CLI_SIZE, CLI_FIELD(struct typed, bytes), .min = 512,
		  .max = 65536, .flags = CLI_POW2 },
		{ .name = "list", .type = CLI_LIST, CLI_ARRAY(struct typed, list, nlist), .max = 9 },
		{ .name = "text", .type = CLI_TEXT, CLI_FIELD(struct typed, text), .empty = "name" },
	};
	struct typed t;
	char err[128];

	memset(&t, 0xff, sizeof t);
	ok(cli_set_value(&rows[0], &t, "200", err, sizeof err) == 0 && t.narrow == 200 &&
	    t.mid == 0xffff, "a number into a byte, its neighbour untouched");
	ok(cli_set_value(&rows[1], &t, "60000", err, sizeof err) == 0 && t.mid == 60000 &&
	    t.narrow == 200 && t.word == 0xffffffffu, "a number into 16 bits");
	ok(cli_set_value(&rows[2], &t, "100000", err, sizeof err) == 0 && t.word == 100000,
	    "a number into an unsigned");
	ok(cli_set_value(&rows[2], &t, "0", err, sizeof err) == -1 && strstr(err, "1") != NULL,
	    "a number under its least refused (%s)", err);
	ok(cli_set_value(&rows[3], &t, "10000000000", err, sizeof err) == 0 &&
	    t.wide == 10000000000ULL, "a count past 32 bits into a uint64_t");
	ok(cli_set_value(&rows[4], &t, "4k", err, sizeof err) == 0 && t.bytes == 4096,
	    "a size into a size_t");
	ok(cli_set_value(&rows[4], &t, "3k", err, sizeof err) == -1 &&
	    strstr(err, "power of two") != NULL, "a size not a power of two refused (%s)", err);
	ok(cli_set_value(&rows[5], &t, "1,9", err, sizeof err) == 0 && t.nlist == 2 &&
	    t.list[0] == 1 && t.list[1] == 9 && t.list[2] == 0xffffffffu,
	    "a list: its items and its count, the rest untouched");
	ok(cli_set_value(&rows[6], &t, "", err, sizeof err) == -1 &&
	    strcmp(err, "empty name") == 0, "an empty text refused (%s)", err);
	ok(cli_set_value(&rows[6], &t, "x", err, sizeof err) == 0 && strcmp(t.text, "x") == 0 &&
	    t.guard == 0xffffffffu, "a text kept as given, the field after it untouched");
}

int
main(void)
{
	syncprobe = getenv("SYNCPROBE");
	if (syncprobe == NULL) {
		printf("1..0 # SKIP SYNCPROBE is not set\n");
		return 0;
	}
	test_consistent();
	test_values();
	test_typed_rows();
	test_field_widths();
	test_elsewhere();
	test_groups();
	test_group_messages();
	return tap_done();
}
