"""Tiefensuche (DFS): ergänze die TODOs.

Die Frontier ist ein Stapel, eine Python-Liste: ein Zustand wird hinten aufgelegt (append) und der
neueste hinten wieder genommen (pop). Die Nachfolger werden vom letzten zum ersten aufgelegt, damit
der erste Nachfolger oben liegt und zuerst expandiert wird. `parent` hält jeden erreichten Zustand:
ein einmal erreichter Zustand wird nie wieder aufgelegt. Der Zieltest geschieht, wenn ein Zustand
erzeugt wird, wie in der Tiefensuche des Servers.

Jedes TODO löst NotImplementedError aus, bis du seinen Teil an seiner Stelle schreibst: ausführen,
die Meldung lesen, den Teil schreiben, noch einmal ausführen.
"""


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
    stack = [state]  # die Frontier: wer zuletzt kommt, geht zuerst
    while stack:
        # TODO: nimm den neuesten Zustand vom Stapel, nach `state`
        raise NotImplementedError("TODO: nimm den neuesten Zustand vom Stapel")
        successors = problem.successors(state)  # eine Expansion von `state`
        # TODO: kehre die Reihenfolge von `successors` um, damit der erste oben auf dem Stapel landet
        raise NotImplementedError("TODO: kehre die Nachfolger um")
        for nxt, _cost in successors:
            if nxt in parent:  # schon erreicht: auf dem Stapel oder expandiert
                continue
            parent[nxt] = state
            if problem.is_goal(nxt):  # der Zieltest, wenn ein Zustand erzeugt wird
                return path_to(parent, nxt)
            # TODO: lege nxt auf den Stapel
            raise NotImplementedError("TODO: lege nxt auf den Stapel")
    return None  # der Stapel ist leer: kein Ziel ist erreichbar
