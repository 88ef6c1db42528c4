"""Uniforme Kostensuche (Dijkstra): ergänze die TODOs.

Die Frontier ist ein binärer Heap (heapq) von Einträgen (g, order, state): g sind die Kosten des
billigsten bisher gefundenen Wegs zum Zustand, `order` ein Zähler, der bei gleichem g den älteren
Eintrag vorzieht. Ein Zustand, der billiger wiedergefunden wird, bekommt einen neuen Eintrag; der
alte bleibt im Heap und wird übersprungen, wenn er herauskommt (er ist veraltet). Ein expandierter
Zustand ist geschlossen (Closed-Liste): nie wieder expandiert. Der Zieltest geschieht, wenn ein
Zustand expandiert wird: darum sind die gefundenen Kosten die billigsten.

Jedes TODO löst NotImplementedError aus, bis du seinen Teil an seiner Stelle schreibst: ausführen,
die Meldung lesen, den Teil schreiben, noch einmal ausführen.
"""

import heapq
import itertools


def path_to(parent, state):
    """Die Zustände vom Start bis `state`, den Eltern zurück folgend."""
    path = []
    while state is not None:
        path.append(state)
        state = parent[state]
    return path[::-1]


def search(problem):
    state = problem.start
    order = itertools.count()  # 0, 1, 2, ...: bei gleichem g der ältere Eintrag zuerst
    g = {state: 0}  # die billigsten bisher gefundenen Kosten zu jedem erreichten Zustand
    parent = {state: None}
    closed = set()  # die expandierten Zustände
    heap = [(0, next(order), state)]  # die Frontier: (g, order, state)
    while heap:
        # TODO: nimm den Eintrag mit dem kleinsten g vom Heap, nach `cost, _, state`; überspringe ihn
        # (continue), wenn `state` geschlossen oder der Eintrag veraltet ist (cost > g[state])
        raise NotImplementedError("TODO: nimm den billigsten Eintrag; überspringe ihn, falls veraltet")
        closed.add(state)
        if problem.is_goal(state):  # der Zieltest, wenn ein Zustand expandiert wird
            return path_to(parent, state)
        for nxt, move_cost in problem.successors(state):  # eine Expansion von `state`
            if nxt in closed:
                continue
            new = g[state] + move_cost
            # TODO: wenn nxt neu ist oder `new` unter g[nxt] liegt: setze g[nxt] und parent[nxt] und lege
            # den Eintrag (new, next(order), nxt) auf den Heap
            raise NotImplementedError("TODO: merke einen billigeren Weg zu nxt, auf den Heap damit")
    return None  # der Heap ist leer: kein Ziel ist erreichbar
