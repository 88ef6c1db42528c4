"""IDA* (iterativ vertiefende A*-Suche): ergänze die TODOs.

Keine Open-Liste: die Frontier ist der aktuelle Pfad, `path`, per Rekursion in die Tiefe durchsucht.
Jede Iteration sucht innerhalb einer Schranke für f = g + h (h = problem.heuristic): ein Zustand,
dessen f über der Schranke liegt, wird abgewiesen, und die Schranke der nächsten Iteration ist das
kleinste abgewiesene f. Ein Zustand, der schon auf dem Pfad liegt, wird übersprungen (ein Zyklus).
`table` hält für eine Iteration das kleinste g, mit dem jeder Zustand betreten wurde: ein Zustand,
der nicht billiger wieder erreicht wird, wird übersprungen, wie im IDA* des Servers. Der Zieltest
geschieht, wenn die Suche einen Zustand betritt (ihn an den Pfad anhängt).

Jedes TODO löst NotImplementedError aus, bis du seinen Teil an seiner Stelle schreibst: ausführen,
die Meldung lesen, den Teil schreiben, noch einmal ausführen.
"""

import math


def search(problem):
    path = [problem.start]
    bound = problem.heuristic(problem.start)
    while True:
        found, refused = bounded(problem, path, 0, bound, {})
        if found:
            return path
        if refused == math.inf:
            return None  # nichts wurde abgewiesen: jeder Zustand wurde durchsucht
        # TODO: die nächste Schranke: das kleinste abgewiesene f
        raise NotImplementedError("TODO: erhöhe die Schranke")


def bounded(problem, path, g, bound, table):
    """Suche in die Tiefe ab path[-1] (erreicht mit Kosten g) innerhalb von `bound`.

    Gibt (True, _) zurück mit dem Pfad zu einem Ziel in `path`, oder (False, das kleinste f über der
    Schranke).
    """
    state = path[-1]
    f = g + problem.heuristic(state)
    # TODO: weise `state` ab, wenn f über der Schranke liegt: gib False und f zurück
    raise NotImplementedError("TODO: weise einen Zustand ab, dessen f über der Schranke liegt")
    if state in table and table[state] <= g:
        return False, math.inf  # in dieser Iteration schon mit nicht höheren Kosten betreten
    table[state] = g
    if problem.is_goal(state):
        return True, math.inf
    refused = math.inf
    for nxt, move_cost in problem.successors(state):  # eine Expansion von `state`
        if nxt in path:  # ein Zyklus
            continue
        # TODO: betritt nxt (häng ihn an den Pfad), suche mit bounded(...) von ihm aus mit Kosten
        # g + move_cost, kehre zurück, wenn ein Ziel gefunden wurde, sonst verlass ihn (pop) und
        # behalte das kleinere abgewiesene f
        raise NotImplementedError("TODO: betritt nxt, suche von ihm aus, verlass ihn")
    return False, refused
