/* status.h: the exit statuses, defined once for main.c and every module
 * that decides how a run ended. */
#ifndef SYNCPROBE_STATUS_H
#define SYNCPROBE_STATUS_H

enum exit_status {
	STATUS_OK = 0,		/* the run completed (warnings included) */
	STATUS_IO = 1,		/* an I/O error or a signal stopped the run */
	STATUS_USAGE = 2,	/* bad usage, or a target that cannot be used */
	STATUS_LOST = 3		/* durability verify: acknowledged records were lost */
};

#endif
