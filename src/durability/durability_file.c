/* durability_file.c: the durability file's place (durability_file.h). */
#include "config.h"

#include "durability/durability_file.h"

#include "durability/durability.h"

int
durability_locate(struct safefile *sf, const char *dir, const char *filename, char *err,
    size_t errlen)
{
	return safefile_locate(sf, dir != NULL ? dir : ".", DURABILITY_FILE_NAME, filename,
	    err, errlen);
}
