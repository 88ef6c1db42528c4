"""A hostile program: it tries to read the host's files (/etc/passwd, the server's own folder, /work)
and to write outside /tmp, and raises what it managed. In the sandbox it reads none of them and writes
nowhere but its own /tmp."""

import os

# a test adds the project's own files by their absolute paths
READ = ["/etc/passwd", "/etc/shadow", "/etc/hostname", "/work", "/root/.ssh", "/var"]
WRITE = ["/usr/lib/hostile.txt", "/sandbox/harness.py", "/hostile.txt", "/dev/hostile.txt",
         "/proc/hostile.txt"]


def search(problem):
    read, wrote = [], []
    for path in READ:
        try:
            if os.path.isdir(path):
                os.listdir(path)
            else:
                with open(path, "rb") as handle:
                    handle.read(64)
            read.append(path)
        except OSError:
            pass
    for path in WRITE:
        try:
            with open(path, "w") as handle:
                handle.write("hostile")
            wrote.append(path)
        except OSError:
            pass
    with open("/tmp/mine.txt", "w") as handle:  # its own scratch space works
        handle.write("fine")
    raise PermissionError(f"read {read or 'nothing'}; wrote {wrote or 'nothing'}")
