"""A search that never returns and never expands: only the page's time limit stops it."""


def search(problem):
    while True:
        pass
