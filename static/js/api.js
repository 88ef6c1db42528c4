// Fetch wrappers for the HTTP API (docs/PROTOCOL.md). Every failure becomes an ApiError whose
// message is plain words for the page: the server's {error} text when it sent one (in the page's
// language: the server answers in the language of the request's `lang` cookie), else the catalog's.

import { setCatalogFetch, t } from "./i18n.js";

/**
 * @typedef {(url: string, init?: RequestInit) => Promise<Response>} Transport  how a request to the
 *   server is made: `fetch` in the page; in a notebook the widget's comm, whose kernel answers from
 *   the same Flask app (./notebook/widget.js), as a Response built from its reply.
 */

/** @type {Transport} */
let transport = (url, init) => fetch(url, init);

/**
 * Send every request of this module and every catalog of ./i18n.js through `fn` from now on (the
 * notebook widget's comm); the page never calls it and keeps `fetch`.
 * @param {Transport} fn
 */
export function setTransport(fn) {
  transport = fn;
  setCatalogFetch(fn);
}

export class ApiError extends Error {
  /** @param {string} message @param {number | null} [status] the HTTP status, when there was an answer */
  constructor(message, status = null) {
    super(message);
    this.status = status;
  }
}

/**
 * What went wrong, in words for the page: the server's own (an ApiError's message), else `fallback`;
 * an error that is not the server's (a bug, a failure in the page) also goes to the console, for
 * whoever looks into it.
 * @param {unknown} err
 * @param {string} fallback
 * @returns {string}
 */
export function errorWords(err, fallback) {
  if (err instanceof ApiError) return err.message;
  console.warn(err);
  return fallback;
}

/** The words for an HTTP status with no message of the server's. @param {number} status */
const statusWords = (status) => ([400, 404, 413, 500].includes(status) ? t(`api.${status}`) : t("api.answered", { status }));

async function errorFrom(response) {
  // The API answers {error}; a proxy or Werkzeug itself may answer HTML (e.g. 413), which we never show.
  try {
    const body = await response.json();
    if (body && typeof body.error === "string" && body.error) return new ApiError(body.error, response.status);
  } catch { /* not JSON */ }
  return new ApiError(statusWords(response.status), response.status);
}

export async function request(url, options = {}) {
  let response;
  try {
    response = await transport(url, options);
  } catch {
    throw new ApiError(t("api.unreachable"));
  }
  if (!response.ok) throw await errorFrom(response);
  return response;
}

export async function json(url, options) {
  return (await request(url, options)).json();
}

export const getAlgorithms = () => json("/api/algorithms");
export const getFamilies = () => json("/api/families");
export const getGallery = () => json("/api/gallery");
export const getPuzzle = (id) => json(`/api/puzzles/${encodeURIComponent(id)}`);

/** An upload the page cancelled (its `signal` aborted): no error to show. */
export class UploadCancelled extends ApiError {}

const ID_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** A random upload id for the header X-Upload-Id (16 of [A-Za-z0-9_-]). */
function uploadId() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => ID_LETTERS[byte & 63]).join("");
}

/**
 * @typedef {{phase: string, fraction: number | null, message: string, loaded?: number, total?: number}} UploadProgress
 *   `phase` "upload" while the file is sent (`loaded` of `total` bytes), then the server's
 *   (docs/PROTOCOL.md, "Uploads with progress"): "received", "decode", "cells", "lattice", "storing".
 */

/**
 * Upload a maze file (multipart field `file`); resolves to the puzzle info. Sent with
 * XMLHttpRequest, whose upload reports its progress (fetch has none), under a random `X-Upload-Id`;
 * once the file is sent, the server's phases are polled at `GET /api/uploads/<id>` every `pollMs`
 * until the answer comes. `onProgress` hears both. `signal` aborts it: the request while it is
 * sent, the server's reading after (`DELETE /api/uploads/<id>`); it then rejects with UploadCancelled.
 * @param {File} file
 * @param {{onProgress?: (progress: UploadProgress) => void, signal?: AbortSignal, pollMs?: number}} [options]
 * @returns {Promise<any>}
 */
export function uploadPuzzle(file, { onProgress = () => {}, signal, pollMs = 300 } = {}) {
  const id = uploadId();
  const form = new FormData();
  form.append("file", file, file.name);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let sent = false; // the whole file is on the server: its phases are polled
    let ended = false;
    let timer = 0;
    const end = (settle) => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
      settle();
    };
    const poll = async () => {
      try {
        const answer = await fetch(`/api/uploads/${id}`);
        const status = answer.ok ? await answer.json() : null;
        if (!ended && status && !["unknown", "done", "error"].includes(status.phase)) onProgress(status);
      } catch { /* the POST's answer says what went wrong */ }
      if (!ended) timer = setTimeout(poll, pollMs);
    };
    function abort() {
      xhr.abort();
      if (sent) fetch(`/api/uploads/${id}`, { method: "DELETE" }).catch(() => {});
      end(() => reject(new UploadCancelled(t("api.upload_cancelled"))));
    }
    if (signal?.aborted) {
      reject(new UploadCancelled(t("api.upload_cancelled")));
      return;
    }
    signal?.addEventListener("abort", abort);
    xhr.upload.addEventListener("progress", (event) => {
      const total = event.lengthComputable ? event.total : file.size;
      onProgress({ phase: "upload", fraction: total ? event.loaded / total : null, message: "", loaded: event.loaded, total });
    });
    xhr.upload.addEventListener("load", () => {
      sent = true;
      onProgress({ phase: "received", fraction: null, message: t("api.reading_upload") });
      poll();
    });
    xhr.addEventListener("load", () => end(() => {
      let body = null;
      try { body = JSON.parse(xhr.responseText); } catch { /* not JSON: a proxy's page */ }
      if (xhr.status >= 200 && xhr.status < 300 && body) resolve(body);
      else if (body && typeof body.error === "string" && body.error) reject(new ApiError(body.error, xhr.status));
      else reject(new ApiError(statusWords(xhr.status), xhr.status));
    }));
    xhr.addEventListener("error", () => end(() => reject(new ApiError(t("api.unreachable")))));
    xhr.open("POST", "/api/puzzles");
    xhr.setRequestHeader("X-Upload-Id", id);
    xhr.send(form);
  });
}

/** Load a bundled maze by its gallery name; resolves to the puzzle info. */
export function loadGalleryPuzzle(name) {
  return json("/api/puzzles", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ gallery: name }),
  });
}

/** Read a stored puzzle's file again with other load options (e.g. {lattice: "off"}); the new puzzle's info. */
export function rereadPuzzle(id, options) {
  return json("/api/puzzles", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ puzzle: id, options }),
  });
}

/** The maze's cells, one byte each, row-major: 0 = wall, 1..9 = free with that cost. */
export async function getCells(id) {
  const response = await request(`/api/puzzles/${encodeURIComponent(id)}/cells`);
  return new Uint8Array(await response.arrayBuffer());
}

const postJson = (url, body) => json(url, {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

/** Apply edit operations (the family's, docs/PROTOCOL.md) to a puzzle: the edited puzzle's info (a new id). */
export const editPuzzle = (id, edits) => postJson(`/api/puzzles/${encodeURIComponent(id)}/edit`, { edits });

/** Generate a puzzle: {kind, rows, cols, seed, ...the kind's options, steps?}; its info plus `generated`. */
export const generatePuzzle = (body) => postJson("/api/generate", body);

/** Where the puzzle downloads as a file of its family's format (`fmt`: "txt", "png", "json", "csv"). */
export function fileUrl(id, fmt, name = "") {
  const query = new URLSearchParams({ format: fmt });
  if (name) query.set("name", name);
  return `/api/puzzles/${encodeURIComponent(id)}/file?${query}`;
}

/**
 * The heuristic lab (docs/PROTOCOL.md): `formula` judged against the true cost-to-go of every state
 * reachable under `options` (the run options the rules depend on). Resolves to the verdict
 * {admissible, consistent, states, overestimates, worst, heat, …}; a bad formula is an ApiError
 * naming the column.
 */
export const judgeHeuristic = (id, formula, options = {}) =>
  postJson(`/api/puzzles/${encodeURIComponent(id)}/heuristic`, { formula, options });

/**
 * Check a solution handed in as text (any of the family's notations) under `options`: {valid, cost,
 * optimum, optimal, first_illegal_move, reason, moves, summary, replay}.
 */
export const checkSolution = (id, solution, options = {}) =>
  postJson(`/api/puzzles/${encodeURIComponent(id)}/check`, { solution, options });
