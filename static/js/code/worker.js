// The student-code worker (docs/STUDENT.md, PROTOCOL.md "Student mode"): a module Web Worker that runs
// a student's Python in the browser with Pyodide (CPython compiled to WebAssembly, MPL-2.0, fetched
// into static/vendor/pyodide/ by scripts/setup.sh). Created by the page as
//   new Worker("/static/js/code/worker.js", {type: "module"})
// page → worker: {type: "run", code, space, steps, words}: `words` the worker's own messages in the
//   page's language (runner.js workerWords: templates with {name} placeholders); `space` is the answer of …/code/rules (the family's
//   own modules and the puzzle's data, which harness.py writes into Pyodide's file system and imports;
//   or an explicit graph)
// worker → page: {type: "loading"} once, as Python starts; {type: "ready", seconds} when it has started
//   (the page may start its time limit then); {type: "output", text} as the program prints (64 KB at
//   most in all, then one line saying the rest was cut); one {type: "done", expanded (the ids packed
//   as text), count, path, illegal, error, stopped, reached, seconds} per run.
// The page terminates the worker when no "done" came in time, and starts a fresh one for the next run.
import { loadPyodide } from "/static/vendor/pyodide/pyodide.mjs";

const INDEX_URL = "/static/vendor/pyodide/";
const HARNESS_URL = new URL("harness.py", import.meta.url);

// Everything that reaches the network (or storage that outlives the run) from a worker's global
// scope. Removed once Pyodide and the harness are loaded, before any student code runs: the student's
// Python sees the browser through `js` (globalThis), so `js.fetch` or pyodide.http.pyfetch find nothing.
// Nested workers go too: a new Worker would have all of these again.
const CUT = [
  "fetch",
  "XMLHttpRequest",
  "WebSocket",
  "WebSocketStream",
  "EventSource",
  "importScripts",
  "WebTransport",
  "indexedDB",
  "caches",
  "Worker",
  "SharedWorker",
];

let saved = null; // the values cut from the global scope: kept here only, to load Python again
let python = null; // a promise of the harness's run_json; null when Python must be (re)started
let pythonLog = []; // what Pyodide itself writes during a run: its report when it crashes

function cutNetwork() {
  // The global scope and its prototypes (WorkerGlobalScope's interfaces), wherever a name is defined:
  // deleting it from the global alone would leave a prototype's copy reachable through js.Reflect.
  const holders = [];
  for (let obj = globalThis; obj; obj = Object.getPrototypeOf(obj)) {
    holders.push(obj);
  }
  const first = saved === null;
  if (first) {
    saved = new Map();
  }
  for (const name of CUT) {
    if (first && globalThis[name] !== undefined) {
      saved.set(name, globalThis[name]);
    }
    for (const obj of holders) {
      if (Object.prototype.hasOwnProperty.call(obj, name)) {
        try {
          delete obj[name];
        } catch {
          // not configurable: shadowed on the global below
        }
      }
    }
    if (globalThis[name] !== undefined) {
      try {
        Object.defineProperty(globalThis, name, { value: undefined, writable: false, configurable: true });
      } catch {
        // checked below
      }
    }
  }
  const left = CUT.filter((name) => globalThis[name] !== undefined);
  if (left.length) {
    const err = new Error(left.join(", "));
    err.name = "NetworkLeft"; // said in the page's words at the next run
    throw err;
  }
}

/** Put the network back while Python is loaded again after a crash (no student code runs then). */
function restoreNetwork() {
  for (const [name, value] of saved) {
    Object.defineProperty(globalThis, name, { value, writable: true, configurable: true });
  }
}

/** Load Pyodide and the harness; the harness's run_json. The network is cut whatever happens. */
async function start() {
  postMessage({ type: "loading" });
  const began = performance.now();
  if (saved !== null) {
    restoreNetwork();
  }
  let runJson;
  try {
    const log = (line) => pythonLog.push(line);
    const pyodide = await loadPyodide({ indexURL: INDEX_URL, stdout: log, stderr: log });
    const answer = await fetch(HARNESS_URL);
    if (!answer.ok) {
      throw new Error(`harness.py → HTTP ${answer.status}`);
    }
    const namespace = pyodide.toPy({ __name__: "harness" });
    pyodide.runPython(await answer.text(), { globals: namespace, filename: "harness.py" });
    runJson = namespace.get("run_json");
    namespace.destroy();
  } finally {
    cutNetwork();
  }
  postMessage({ type: "ready", seconds: (performance.now() - began) / 1000 });
  return runJson;
}

function load() {
  python = start();
  python.catch(() => {}); // reported to the next run, not as an unhandled rejection
}

/** One run: the harness's answer, or an error done when Python could not start or crashed. */
async function run(message) {
  words = message.words && typeof message.words === "object" ? message.words : {};
  if (python === null) {
    load();
  }
  let runJson;
  try {
    runJson = await python;
  } catch (err) {
    python = null; // tried again at the next run
    const why = err && err.name === "NetworkLeft" ? say(words, "network_left", { names: reason(err) }) : reason(err);
    return failed("LoadError", say(words, "start_failed", { why }));
  }
  const write = (text) => postMessage({ type: "output", text });
  pythonLog = [];
  const began = performance.now();
  try {
    // The rules go to Python as JSON text (json.loads there): much faster than walking a JS proxy.
    const code = String(message.code ?? "");
    const answer = runJson(code, JSON.stringify(message.space ?? {}), message.steps ?? 150000, write,
      JSON.stringify(message.harness ?? {}));
    return { type: "done", ...JSON.parse(answer) };
  } catch (err) {
    // The harness catches the student's errors itself: this is Python itself failing. The usual
    // cause is the browser's stack, smaller than Python's limits assume: a recursion through C code
    // (a key= function, functools.cache) or a long chain of objects, each holding the next, freed at
    // once. That Python is dead: a fresh one is loaded for the next run.
    python = null;
    return crashed(err, (performance.now() - began) / 1000);
  }
}

function crashed(err, seconds) {
  // Pyodide's crash report lists the Python frames, innermost first: the student's are named yours.py.
  const frames = pythonLog.filter((line) => line.includes('File "yours.py"'));
  const found = frames.length ? /line (\d+)/.exec(frames[0]) : null;
  const overflow = /call stack/i.test(reason(err));
  const message = overflow ? say(words, "crashed_stack") : say(words, "crashed", { why: reason(err) });
  const done = failed(overflow ? "StackOverflow" : "Crash", message, seconds);
  done.error.line = found ? Number(found[1]) : null;
  done.error.traceback = crashStack(frames);
  return done;
}

/** The student's frames of a crash report as a traceback: most recent call last, repeats counted. */
function crashStack(frames) {
  const lines = [];
  let last = null;
  let repeats = 0;
  const flush = () => {
    if (repeats > 0) {
      lines.push(`  ${say(words, "repeated", { count: repeats })}`);
    }
    repeats = 0;
  };
  for (const frame of frames.slice().reverse()) {
    const line = "  " + frame.trim().replace(/, line (\d+) in /, ", line $1, in ");
    if (line === last) {
      repeats += 1;
    } else {
      flush();
      lines.push(line);
      last = line;
    }
  }
  flush();
  return lines.length ? `${say(words, "stack_head")}\n${lines.join("\n")}\n` : "";
}

/** The page's words for this run (runner.js workerWords). */
let words = {};

/** A message of the page's words, its {name} placeholders filled (the key itself if it is missing). */
function say(table, key, params = {}) {
  const template = typeof table[key] === "string" ? table[key] : key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

function reason(err) {
  return err && err.message ? err.message : String(err);
}

function failed(kind, message, seconds = 0) {
  return {
    type: "done",
    expanded: "",
    count: 0,
    path: null,
    illegal: null,
    error: { kind, message, line: null, traceback: "" },
    stopped: null,
    seconds,
  };
}

load(); // Python starts as soon as the worker does

let queue = Promise.resolve();
addEventListener("message", (event) => {
  const message = event.data;
  if (!message || message.type !== "run") {
    return;
  }
  // One run at a time, in the order they came.
  queue = queue.then(() => run(message)).then((done) => postMessage(done));
});
