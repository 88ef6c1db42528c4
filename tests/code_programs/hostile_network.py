"""A hostile program: it tries the network (the host's own loopback, a server on the internet) and
raises what it saw. In the sandbox no connection is made: its own network namespace has no route out,
and its loopback is not the host's."""

import socket

TARGETS = [("127.0.0.1", 5000), ("1.1.1.1", 80), ("8.8.8.8", 53)]  # a test puts its own port first


def search(problem):
    reached, refused = [], []
    for host, port in TARGETS:
        try:
            socket.create_connection((host, port), timeout=2).close()
            reached.append(f"{host}:{port}")
        except OSError as err:
            refused.append(f"{host}:{port} {err.strerror or err}")
    if reached:
        raise PermissionError("reached " + ", ".join(reached))
    raise ConnectionError("; ".join(refused))
