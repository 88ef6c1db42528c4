"""Breitensuche (BFS): ergänze die TODOs.

Die Frontier ist eine Warteschlange, collections.deque: ein Zustand kommt rechts hinein (append) und
links heraus (popleft), also wird der älteste Zustand zuerst expandiert. `parent` hält jeden
erreichten Zustand und den Zustand, von dem aus er erreicht wurde: ein Zustand wird einmal erreicht,
und der Pfad wird von ihm aus zurückgelesen. Der Zieltest geschieht, wenn ein Zustand erzeugt wird
(wenn er zum ersten Mal erreicht wird), wie in der Breitensuche des Servers.

Jedes TODO löst NotImplementedError aus, bis du seinen Teil an seiner Stelle schreibst: ausführen,
die Meldung lesen, den Teil schreiben, noch einmal ausführen. Die API (problem.start,
problem.is_goal, problem.successors, ...) steht in der Hilfe des Bereichs.
"""

from collections import deque


def path_to(parent, state):
    """Die Zustände vom Start bis `state`, den Eltern zurück folgend."""
    path = []
    while state is not None:
        path.append(state)
        state = parent[state]
    return path[::-1]


def search(problem):
    state = problem.start
    if problem.is_goal(state):
        return [state]
    parent = {state: None}  # jeder erreichte Zustand -> der Zustand, von dem aus er erreicht wurde
    frontier = deque([state])  # die Warteschlange: wer zuerst kommt, geht zuerst
    while frontier:
        # TODO: nimm den ältesten Zustand aus der Frontier, nach `state`
        raise NotImplementedError("TODO: nimm den ältesten Zustand aus der Frontier")
        for nxt, _cost in problem.successors(state):  # eine Expansion von `state`
            # TODO: überspringe nxt, wenn er schon erreicht wurde; sonst merke, dass er von `state`
            # aus erreicht wurde
            raise NotImplementedError("TODO: überspringe einen erreichten Zustand; sonst merke sein parent")
            if problem.is_goal(nxt):  # der Zieltest, wenn ein Zustand erzeugt wird
                return path_to(parent, nxt)
            # TODO: lege nxt in die Frontier
            raise NotImplementedError("TODO: lege nxt in die Frontier")
    return None  # die Frontier ist leer: kein Ziel ist erreichbar
