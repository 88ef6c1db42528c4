// The pseudo-code explain mode shows for each algorithm: the structure and the names of the real code
// in server/search/algorithms/ (breadth_first.py, depth_first.py, best_first.py, iterative.py,
// bidirectional.py, and the families' own: jump point search and the wall followers), shortened only
// where Python's bookkeeping says nothing about the search. A listing's `frontier` is how its frontier
// is kept ("walk": none, a walker that steps from cell to cell). A line
// with a `key` is one a trace record can put the playhead on (lineOf below).
//
// The code stays code in every language (identifiers, keywords, the algorithms' names); the words for
// people in it — each listing's title and every comment — come from the catalog
// (static/i18n/<lang>/explain_code.json, keys explain_code.*). They are rendered when a listing is asked
// for (listingFor), never when this module loads: the catalog is loaded after the imports ran.

import { lang, t } from "../i18n.js";

/** A code fragment: a tagged template, so that its identifiers are not taken for words for people. */
const code = String.raw;

/**
 * Words for people at the end of a line, after its code: a comment when the code ends in `# `.
 * @param {string} name the catalog key after "explain_code."
 * @param {Record<string, any>} [params]
 */
const words = (name, params) => ({ name, params });

/**
 * A comment after the code: four spaces, "# ", the words.
 * @param {string} name the catalog key after "explain_code."
 * @param {Record<string, any>} [params]
 */
const note = (name, params) => ({ name, params, comment: true });

/**
 * Per line: [key or "", code, words (optional)]; indentation is four spaces a level; lines are kept
 * short (a side panel). The rendered line is the code followed by the words in the current language.
 */
const BFS = [
  ["def", code`def breadth_first(problem):`, note("note.lee_wave")],
  ["", code`    score = {}`, note("note.steps_from_start")],
  ["", code`    frontier = deque()`, note("note.fifo")],
  ["", code`    for start in problem.initial_states():`],
  ["open-start", code`        score[start] = 0`],
  ["", code`        if problem.is_goal(start):`],
  ["path-start", code`            return lee_backtrace(score, start)`],
  ["", code`        frontier.append(start)`],
  ["", code`    while frontier:`],
  ["pop", code`        current = frontier.popleft()`],
  ["", code`        for nxt, _ in problem.successors(current):`],
  ["", code`            if nxt in score:`],
  ["", code`                continue`, note("note.reached_already")],
  ["open", code`            score[nxt] = score[current] + 1`],
  ["goal", code`            if problem.is_goal(nxt):`, note("note.on_generation")],
  ["path", code`                return lee_backtrace(score, nxt)`],
  ["", code`            frontier.append(nxt)`],
  ["none", code`    return None`],
];

const DFS = [
  ["def", code`def depth_first(problem):`],
  ["", code`    came_from = {}`],
  ["", code`    g = {}`],
  ["", code`    frontier = []`, note("note.lifo")],
  ["", code`    for start in reversed(problem.initial_states()):`],
  ["open-start", code`        came_from[start], g[start] = None, 0.0`],
  ["", code`        if problem.is_goal(start):`],
  ["path-start", code`            return backtrace(came_from, g, start)`],
  ["", code`        frontier.append(start)`],
  ["", code`    while frontier:`],
  ["pop", code`        current = frontier.pop()`],
  ["", code`        for nxt, step_cost in reversed(`],
  ["", code`                list(problem.successors(current))):`],
  ["", code`            if nxt in g:`, note("note.on_stack_or_expanded")],
  ["", code`                continue`],
  ["open", code`            came_from[nxt] = current`],
  ["", code`            g[nxt] = g[current] + step_cost`],
  ["goal", code`            if problem.is_goal(nxt):`, note("note.on_generation")],
  ["path", code`                return backtrace(came_from, g, nxt)`],
  ["", code`            frontier.append(nxt)`],
  ["none", code`    return None`],
];

const PRIORITY = {
  dijkstra: "f = g, h = 0",
  greedy: "f = h",
  astar: "f = g + w·h",
};

const bestFirst = (mode) => [
  ["def", code`def best_first(problem, mode="${mode}"):`],
  ["", code`    # `, words("note.priority", { formula: PRIORITY[mode] })],
  ["", code`    cost_so_far = {}`],
  ["", code`    came_from = {}`],
  ["", code`    closed = set()`],
  ["", code`    frontier = []`, note("note.heap_entries")],
  ["", code`    for start in problem.initial_states():`],
  ["", code`        cost_so_far[start] = 0.0`],
  ["", code`        came_from[start] = None`],
  ["", code`        h = h_of(start)`],
  ["", code`        f = priority(0.0, h)`],
  ["open-start", code`        heappush(frontier, (f, h, order, 0.0, start))`],
  ["", code`        order += 1`],
  ["", code`    while frontier:`],
  ["pop", code`        f, h, order, g, current = heappop(frontier)`],
  ["stale", code`        if (current in closed`],
  ["", code`                or g > cost_so_far[current]):`],
  ["", code`            continue`, note("note.stale_lazy")],
  ["close", code`        closed.add(current)`],
  ["goal", code`        if problem.is_goal(current):`, note("note.on_expansion")],
  ["path", code`            return backtrace(came_from, current)`],
  ["", code`        for nxt, step_cost in problem.successors(current):`],
  ["", code`            if nxt in closed:`],
  ["", code`                continue`],
  ["", code`            new_cost = g + step_cost`],
  ["", code`            known = cost_so_far.get(nxt)`],
  ["", code`            if (known is not None`],
  ["", code`                    and new_cost >= known):`],
  ["", code`                continue`],
  ["", code`            cost_so_far[nxt] = new_cost`],
  ["", code`            came_from[nxt] = current`],
  ["", code`            h = h_of(nxt)`],
  ["", code`            f = priority(new_cost, h)`],
  ["push", code`            heappush(frontier, (f, h, order, new_cost, nxt))`],
  ["", code`            order += 1`],
  ["none", code`    return None`],
];

/** `measure` is a formula (code) or the words for one. */
const deepening = (name, measure) => [
  typeof measure === "string"
    ? ["def", code`def ${name}(problem):    # measure = ${measure}`]
    : ["def", code`def ${name}(problem):    # measure = `, measure],
  ["", code`    bound = min(measure(s) for s in starts)`],
  ["", code`    while True:`, note("note.one_pass_a_bound")],
  ["", code`        refused = inf`],
  ["", code`        for start in starts:`],
  ["", code`            found = bounded(start, bound)`],
  ["", code`            if found: return found`],
  ["none", code`        if refused == inf: return None`],
  ["", code`        bound = refused`, note("note.least_cut_off")],
  ["", ""],
  ["", code`def bounded(start, bound):`, note("note.memory_path")],
  ["open-start", code`    path = [start]`],
  ["path-start", code`    if problem.is_goal(start): return path`],
  ["", code`    while path:`],
  ["", code`        step = next(children[-1], None)`],
  ["", code`        if step is None:`, note("note.successors_done")],
  ["close", code`            path.pop()`],
  ["", code`            continue`],
  ["", code`        nxt, step_cost = step`],
  ["", code`        if nxt in on_path: continue`, note("note.cycle")],
  ["", code`        g = costs[-1] + step_cost`],
  ["", code`        if measure(nxt, g) > bound:`],
  ["", code`            refused = min(refused, measure(nxt, g))`],
  ["", code`            continue`],
  ["", code`        if table.get(nxt, inf) <= g: continue`],
  ["", code`        table[nxt] = g`],
  ["open", code`        path.append(nxt)`],
  ["goal", code`        if problem.is_goal(nxt):`],
  ["path", code`            return path`],
];

const BIDIRECTIONAL = [
  ["def", code`def bidirectional(problem):`, note("note.uniform_cost")],
  ["", code`    forward = Side(problem.successors)`],
  ["", code`    backward = Side(problem.predecessors)`],
  ["open-start", code`    forward.push(starts); backward.push(goals)`],
  ["", code`    best = inf`],
  ["", code`    while best > forward.top() + backward.top():`],
  ["", code`        side = `, words("code.smaller_side")],
  ["pop", code`        g, _, current = heappop(side.frontier)`],
  ["", code`        side.closed.add(current)`],
  ["", code`        for nxt, step_cost in side.neighbours(current):`],
  ["", code`            if nxt in side.closed: continue`],
  ["", code`            new_cost = g + step_cost`],
  ["", code`            if new_cost >= side.cost_so_far.get(nxt, inf):`],
  ["", code`                continue`],
  ["push", code`            side.push(nxt, new_cost, current)`],
  ["", code`            if nxt in other.cost_so_far:`],
  ["", code`                best = min(best, new_cost`],
  ["", code`                           + other.cost_so_far[nxt])`],
  ["path", code`    return forward.chain(meet) + backward.chain(meet)`],
  ["none", code`    return None`, note("note.never_met")],
];

// Jump point search (the board's own algorithm: Harabor & Grabowski 2011): A*'s loop over jump points;
// jump() scans a straight or diagonal run up to the goal, a wall, or a cell with a forced neighbour.
const JPS = [
  ["def", code`def jump_point_search(problem):`, note("note.astar_on_jump_points")],
  ["", code`    # `, words("note.equal_costs")],
  ["open-start", code`    heappush(frontier, (h(start), start, no_direction))`],
  ["", code`    while frontier:`],
  ["pop", code`        f, x, d = heappop(frontier)`],
  ["stale", code`        if x in closed: continue`, note("note.stale")],
  ["close", code`        closed.add(x)`],
  ["goal", code`        if problem.is_goal(x):`, note("note.on_expansion")],
  ["path", code`            return fill_in_jumps(came_from, x)`],
  ["", code`        for d2 in pruned(x, d):`, note("note.natural_forced")],
  ["", code`            y, steps = jump(x, d2)`],
  ["", code`            if y is None or y in closed: continue`],
  ["", code`            g_y = g[x] + steps * cost(d2)`],
  ["", code`            if g_y >= g.get(y, inf): continue`],
  ["push", code`            heappush(frontier, (g_y + h(y), y, d2))`],
  ["none", code`    return None`],
  ["", ""],
  ["", code`def jump(x, d):`, note("note.jump_skips")],
  ["", code`    while free(x + d):`, note("note.diagonal_sides_free")],
  ["", code`        x += d`],
  ["", code`        if problem.is_goal(x): return x`],
  ["", code`        if forced_neighbour(x, d): return x`],
  ["", code`        if diagonal(d) and (jump(x, d.row) or`],
  ["", code`                            jump(x, d.col)): return x`],
  ["", code`    return None`, note("note.wall_nothing")],
  ["", ""],
  ["", code`def forced_neighbour(x, d):`, note("note.straight_only")],
  ["", code`    # `, words("note.forced_rule")],
  ["", code`    return any(free(x + s) and not free(x - d + s)`],
  ["", code`               for s in sides(d))`],
  ["", ""],
  ["", code`def pruned(x, d):`, note("note.pruned_where")],
  ["", code`    if d is diagonal: return [d.row, d.col, d]`],
  ["", code`    return [d] + `, words("code.forced_sides")],
];

// The hand-on-the-wall rule: no frontier, a walker with a heading.
const wallFollower = (hand) => [
  ["def", code`def wall_follower(problem):`, note(`note.hand_${hand}`)],
  ["open-start", code`    here, heading = start, first_open_direction(start)`],
  ["", code`    seen = {(here, heading)}`],
  ["", code`    while True:`],
  ["close", code`        walk.append(here)`, note("note.walk_onto")],
  ["goal", code`        if problem.is_goal(here):`],
  ["path", code`            return walk`, note("note.as_walked")],
  ["open", code`        `, words("code.look_beside")],
  ["", code`        for turn in (${hand}, straight, ${hand === "left" ? "right" : "left"}, back):`],
  ["", code`            if free(ahead(here, heading + turn)):`],
  ["", code`                heading += turn; break`],
  ["", code`        here = ahead(here, heading)`],
  ["", code`        if (here, heading) in seen:`],
  ["none", code`            return None`, note("note.loop")],
  ["", code`        seen.add((here, heading))`],
];

const LISTINGS = {
  bfs: { title: "title.bfs", lines: BFS, frontier: "fifo" },
  dfs: { title: "title.dfs", lines: DFS, frontier: "lifo" },
  dijkstra: { title: "title.dijkstra", lines: bestFirst("dijkstra"), frontier: "heap", mode: "dijkstra" },
  greedy: { title: "title.greedy", lines: bestFirst("greedy"), frontier: "heap", mode: "greedy" },
  astar: { title: "title.astar", lines: bestFirst("astar"), frontier: "heap", mode: "astar" },
  idastar: { title: "title.idastar", lines: deepening("idastar", "g + w·h"), frontier: "path" },
  iddfs: { title: "title.iddfs", lines: deepening("iddfs", words("note.depth")), frontier: "path" },
  bidirectional: { title: "title.bidirectional", lines: BIDIRECTIONAL, frontier: "both" },
  jps: { title: "title.jps", lines: JPS, frontier: "heap", mode: "astar" },
  wall_left: { title: "title.wall_left", lines: wallFollower("left"), frontier: "walk" },
  wall_right: { title: "title.wall_right", lines: wallFollower("right"), frontier: "walk" },
};

/** The words `part` in the current language ("explain_code." + its name). */
const say = (part) => t(`explain_code.${part.name}`, part.params);

/** A line as shown: its code, then its words (a comment after four spaces when it is a note). */
const lineText = ([, text, part]) => {
  if (!part) return text;
  return part.comment ? `${text}    # ${say(part)}` : `${text}${say(part)}`;
};

/** The listings rendered, per language and algorithm (a listing keeps its identity within a language). */
const rendered = new Map();

/**
 * The listing of an algorithm's name in the current language, or null when explain mode has none for
 * it: {title, lines: [key or "", text] per line (the line numbers are the indices + 1), frontier, mode}.
 * A new language gives a new object, so a viewer that keeps the shown listing draws it again.
 * @param {string} algorithm
 */
export function listingFor(algorithm) {
  if (!Object.hasOwn(LISTINGS, algorithm)) return null;
  const id = `${lang()}:${algorithm}`;
  const known = rendered.get(id);
  if (known) return known;
  const source = LISTINGS[algorithm];
  const title = say({ name: source.title });
  const listing = { ...source, title, lines: source.lines.map((line) => [line[0], lineText(line)]) };
  if (title !== `explain_code.${source.title}`) rendered.set(id, listing); // not before the catalog is loaded
  return listing;
}
