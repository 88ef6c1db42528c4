"""A*-Suche: ergänze die TODOs.

Die Frontier ist ein binärer Heap (heapq) von Einträgen (f, h, order, g, state): f = g + h, wobei g
die Kosten des billigsten gefundenen Wegs zum Zustand sind und h = problem.heuristic(state) die
Schätzung des Rests. Bei gleichem f zuerst das kleinere h (der Zustand näher am Ziel), dann der
ältere Eintrag (`order`, ein Zähler). Ein Zustand, der billiger wiedergefunden wird, bekommt einen
neuen Eintrag; der alte wird übersprungen, wenn er herauskommt (veraltet). Ein expandierter Zustand
ist geschlossen. Der Zieltest geschieht, wenn ein Zustand expandiert wird: mit einer zulässigen
Heuristik wird das erste expandierte Ziel über einen billigsten Pfad erreicht.

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
    h = problem.heuristic
    state = problem.start
    order = itertools.count()  # 0, 1, 2, ...: bei gleichem f und h der ältere Eintrag zuerst
    g = {state: 0}  # die billigsten bisher gefundenen Kosten zu jedem erreichten Zustand
    parent = {state: None}
    closed = set()  # die expandierten Zustände
    heap = [(h(state), h(state), next(order), 0, state)]  # die Frontier: (f, h, order, g, state)
    while heap:
        # TODO: nimm den Eintrag mit dem kleinsten (f, h, order) vom Heap, nach `_f, _h, _, cost, state`;
        # überspringe ihn (continue), wenn `state` geschlossen oder der Eintrag veraltet ist
        # (cost > g[state])
        raise NotImplementedError("TODO: nimm den besten Eintrag; überspringe ihn, wenn geschlossen/veraltet")
        closed.add(state)
        if problem.is_goal(state):  # der Zieltest, wenn ein Zustand expandiert wird
            return path_to(parent, state)
        for nxt, move_cost in problem.successors(state):  # eine Expansion von `state`
            if nxt in closed:
                continue
            new = g[state] + move_cost
            # TODO: wenn nxt neu ist oder `new` unter g[nxt] liegt: setze g[nxt] und parent[nxt] und lege
            # den Eintrag (f, h, order, g, nxt) mit f = new + h(nxt) auf den Heap
            raise NotImplementedError("TODO: merke einen billigeren Weg zu nxt, mit seinem f auf den Heap")
    return None  # der Heap ist leer: kein Ziel ist erreichbar
