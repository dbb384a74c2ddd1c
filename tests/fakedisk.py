#!/usr/bin/python3
"""fakedisk.py: a FUSE filesystem for tests/cli_durability_fuse.sh only.

    fakedisk.py honest|lying PLATTER MOUNTPOINT

Writes land in memory, the disk's "cache"; PLATTER, a directory, is what
the disk has really persisted. A power cut is SIGKILL of this process: the
cache is gone, and the next mount over the same PLATTER sees only what was
persisted.

  honest  fsync and fdatasync copy the file's data to the platter before
          they return, as a disk that keeps its promises does.
  lying   fsync and fdatasync return at once and copy nothing, as a
          volatile write cache does. The cache is written back in the
          background: every WRITEBACK_SECONDS (counted from the first
          write) the platter gets the state the cache had one period
          before, so whatever was written in the last period or two -
          acknowledged or not - is lost to a cut.

In both modes creating, removing and renaming names reach the platter at
once (a journaled filesystem), and a clean unmount writes everything back
(a shutdown flushes every cache). Runs in the foreground, single-threaded;
needs fusepy (Debian: python3-fusepy, module "fusepy"; pip: module "fuse").
"""

import errno
import os
import stat
import sys
import time

try:
    from fusepy import FUSE, FuseOSError, Operations
except ImportError:
    from fuse import FUSE, FuseOSError, Operations

WRITEBACK_SECONDS = 0.25


class Node:
    def __init__(self, mode, data=None):
        self.mode = mode
        self.data = bytearray() if data is None else data
        now = time.time()
        self.times = (now, now)


class FakeDisk(Operations):
    def __init__(self, lying, platter):
        self.lying = lying
        self.platter = platter
        self.nodes = {"/": Node(stat.S_IFDIR | 0o755)}
        self.load("/")
        self.last_writeback = None
        self.snapshot = None

    # ---- the platter ----

    def real(self, path):
        return os.path.join(self.platter, path.lstrip("/"))

    def load(self, path):
        """The cache starts as the platter: what survived the last cut."""
        for name in os.listdir(self.real(path)):
            sub = os.path.join(path, name)
            st = os.lstat(self.real(sub))
            if stat.S_ISDIR(st.st_mode):
                self.nodes[sub] = Node(st.st_mode)
                self.load(sub)
            elif stat.S_ISREG(st.st_mode):
                with open(self.real(sub), "rb") as f:
                    self.nodes[sub] = Node(st.st_mode, bytearray(f.read()))

    def persist_file(self, path, data):
        with open(self.real(path), "wb") as f:
            f.write(data)

    def persist_all(self, nodes):
        for path, node in sorted(nodes.items()):
            if path != "/" and stat.S_ISREG(node.mode) and os.path.exists(self.real(path)):
                self.persist_file(path, node.data)

    def writeback_tick(self):
        """Lying mode: persist the snapshot of one period ago, take a new one."""
        now = time.monotonic()
        if self.last_writeback is None:
            self.last_writeback = now
            return
        if now - self.last_writeback < WRITEBACK_SECONDS:
            return
        if self.snapshot is not None:
            self.persist_all(self.snapshot)
        self.snapshot = {p: Node(n.mode, bytearray(n.data)) for p, n in self.nodes.items()}
        self.last_writeback = now

    # ---- names ----

    def node(self, path):
        if path not in self.nodes:
            raise FuseOSError(errno.ENOENT)
        return self.nodes[path]

    def getattr(self, path, fh=None):
        n = self.node(path)
        return {
            "st_mode": n.mode, "st_nlink": 2 if stat.S_ISDIR(n.mode) else 1,
            "st_size": len(n.data), "st_uid": os.getuid(), "st_gid": os.getgid(),
            "st_atime": n.times[0], "st_mtime": n.times[1], "st_ctime": n.times[1],
            "st_blocks": (len(n.data) + 511) // 512,
        }

    def readdir(self, path, fh):
        prefix = path.rstrip("/") + "/"
        names = [p[len(prefix):] for p in self.nodes
                 if p != "/" and p.startswith(prefix) and "/" not in p[len(prefix):]]
        return [".", ".."] + names

    def mkdir(self, path, mode):
        os.mkdir(self.real(path))
        self.nodes[path] = Node(stat.S_IFDIR | mode)

    def rmdir(self, path):
        os.rmdir(self.real(path))
        del self.nodes[path]

    def create(self, path, mode, fi=None):
        if path in self.nodes:
            raise FuseOSError(errno.EEXIST)
        open(self.real(path), "wb").close()
        self.nodes[path] = Node(stat.S_IFREG | mode)
        return 0

    def unlink(self, path):
        os.unlink(self.real(path))
        del self.nodes[path]

    def rename(self, old, new):
        os.rename(self.real(old), self.real(new))
        self.nodes[new] = self.nodes.pop(old)

    def chmod(self, path, mode):
        n = self.node(path)
        n.mode = (n.mode & ~0o7777) | (mode & 0o7777)

    def chown(self, path, uid, gid):
        pass

    def utimens(self, path, times=None):
        self.node(path).times = times or (time.time(), time.time())

    def statfs(self, path):
        sv = os.statvfs(self.platter)
        return {k: getattr(sv, k) for k in (
            "f_bsize", "f_frsize", "f_blocks", "f_bfree", "f_bavail",
            "f_files", "f_ffree", "f_favail", "f_namemax")}

    # ---- data ----

    def open(self, path, flags):
        self.node(path)
        return 0

    def read(self, path, size, offset, fh):
        return bytes(self.node(path).data[offset:offset + size])

    def write(self, path, data, offset, fh):
        if self.lying:
            self.writeback_tick()
        n = self.node(path)
        if offset > len(n.data):
            n.data.extend(bytes(offset - len(n.data)))
        n.data[offset:offset + len(data)] = data
        return len(data)

    def truncate(self, path, length, fh=None):
        n = self.node(path)
        del n.data[length:]
        n.data.extend(bytes(length - len(n.data)))

    def fsync(self, path, datasync, fh):
        if not self.lying:
            self.persist_file(path, self.node(path).data)
        return 0

    def fsyncdir(self, path, datasync, fh):
        return 0

    def flush(self, path, fh):
        return 0

    def release(self, path, fh):
        return 0

    def destroy(self, path):
        """A clean unmount: a shutdown flushes every cache."""
        self.persist_all(self.nodes)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("honest", "lying"):
        sys.exit("usage: fakedisk.py honest|lying PLATTER MOUNTPOINT")
    FUSE(FakeDisk(sys.argv[1] == "lying", os.path.abspath(sys.argv[2])), sys.argv[3],
         foreground=True, nothreads=True)


if __name__ == "__main__":
    main()
