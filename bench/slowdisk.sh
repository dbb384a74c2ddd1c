#!/bin/sh
# bench/slowdisk.sh: table 5, table 4 on a slow disk: tests/faultshim.so
# adds SLOW_US (default 5000) microseconds to every sync of syncprobe and
# pg_test_fsync alike. Wall time, the basis row's operations and the CV of
# commit_delay; targets: the time cap, enough samples. See bench/README.
set -u
SLOW_US=${SLOW_US:-5000} TABLE=5
export SLOW_US TABLE
exec sh "$(dirname "$0")/cv.sh" "$@"
