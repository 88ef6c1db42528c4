"""A hostile program: it allocates memory without end, and keeps what it got when Python says no. In the
sandbox the address-space limit stops it (MemoryError), and the server's memory is untouched."""


def search(problem):
    hoard = []
    while True:
        hoard.append(bytearray(64 * 1024 * 1024))
