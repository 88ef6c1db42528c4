"""Assignments (issue 31, ``/work/contract`` in docs/PROTOCOL.md "Assignments"): a teacher's exercise on a
pinned puzzle, the class's submissions, graded by graders off the request (``grader.py``) from a
queue (``queue.py``), kept on disk or in Redis (``store.py``), exported to gradebooks
(``gradebook.py``). ``model.py`` holds the records and checks what comes from outside."""
