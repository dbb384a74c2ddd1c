/* postgres.c: a value as PostgreSQL would take it. */
#include "config.h"

#include "util/postgres.h"

#include <math.h>

long
postgres_commit_delay(double usecs)
{
	if (!(usecs > 0.0))
		return 0;
	if (usecs >= (double)COMMIT_DELAY_MAX_USECS)
		return COMMIT_DELAY_MAX_USECS;
	return lround(usecs);
}
