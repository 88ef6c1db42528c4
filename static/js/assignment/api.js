// @ts-check
// The assignment endpoints (docs/TEACHER.md; the server's /api/assignments…). The teacher's calls carry
// `Authorization: Bearer <token>` (the token from the teacher link's fragment, never in a URL); a
// student's look at a submission carries `X-Receipt: <receipt>` (kept in this browser's localStorage).
// Every failure is an ApiError (../api.js) in the server's words, with the HTTP status beside it.

import { ApiError } from "../api.js";
import { fmt, t } from "../i18n.js";

/** An ApiError with the answer's status (403 closed, 429 too often…). */
export class AssignmentError extends ApiError {
  /** @param {string} message @param {number} status @param {string | null} where */
  constructor(message, status, where = null) {
    super(message);
    this.status = status;
    this.where = where;
  }
}

// An answer's status in words (catalog keys), when the server wrote none.
const STATUS_WORDS = {
  400: "assignment.http_400",
  403: "assignment.http_403",
  404: "assignment.http_404",
  413: "assignment.http_413",
  429: "assignment.http_429",
  500: "assignment.http_500",
  503: "assignment.http_503",
};

/**
 * fetch, with every failure in words.
 * @param {string} url @param {RequestInit} [init]
 * @returns {Promise<Response>}
 */
export async function call(url, init = {}) {
  let response;
  try {
    response = await fetch(url, init);
  } catch {
    throw new AssignmentError(t("assignment.unreachable"), 0);
  }
  if (response.ok) return response;
  let message = "";
  let where = null;
  try {
    const body = await response.json();
    if (body && typeof body.error === "string") message = body.error;
    if (body && typeof body.where === "string") where = body.where;
  } catch { /* not JSON: a proxy's page */ }
  const words = STATUS_WORDS[response.status];
  throw new AssignmentError(message || (words ? t(words) : t("assignment.http_other", { status: response.status })), response.status, where);
}

/** @param {string} id */
const base = (id) => `/api/assignments/${encodeURIComponent(id)}`;
/** @param {string} token @returns {Record<string, string>} */
const bearer = (token) => ({ Authorization: `Bearer ${token}` });
const JSON_TYPE = { "Content-Type": "application/json" };

/** Make an assignment: {id, class_url, teacher_url, token, assignment}. @param {object} body */
export async function create(body) {
  return (await call("/api/assignments", { method: "POST", headers: JSON_TYPE, body: JSON.stringify(body) })).json();
}

/** The assignment as anyone sees it. @param {string} id */
export async function get(id) {
  return (await call(base(id))).json();
}

/**
 * Hand in an answer: {submission, receipt, status, ahead, attempt, attempts_left}.
 * @param {string} id @param {{name: string, student: string, task: string, answer: object}} body
 */
export async function submit(id, body) {
  return (await call(`${base(id)}/submissions`, { method: "POST", headers: JSON_TYPE, body: JSON.stringify(body) })).json();
}

/**
 * One submission: with a student's receipt, or the teacher's token.
 * @param {string} id @param {string} sid @param {{receipt?: string, token?: string}} who
 */
export async function submission(id, sid, { receipt, token }) {
  const headers = token ? bearer(token) : { "X-Receipt": receipt || "" };
  return (await call(`${base(id)}/submissions/${encodeURIComponent(sid)}`, { headers })).json();
}

/** The teacher's table: {assignment, rows, version}. @param {string} id @param {string} token */
export async function results(id, token) {
  return (await call(`${base(id)}/results`, { headers: bearer(token) })).json();
}

/**
 * An export as a Blob and the server's file name.
 * @param {string} id @param {string} token @param {"moodle" | "canvas" | "json"} format
 * @returns {Promise<{blob: Blob, name: string}>}
 */
export async function exportFile(id, token, format) {
  const response = await call(`${base(id)}/export?format=${format}`, { headers: bearer(token) });
  const disposition = response.headers.get("Content-Disposition") || "";
  const found = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  const fallback = `assignment-${id}-${format}.${format === "json" ? "json" : "csv"}`;
  return { blob: await response.blob(), name: found ? decodeURIComponent(found[1]) : fallback };
}

/** Close or reopen submissions: the assignment. @param {string} id @param {string} token @param {boolean} closed */
export async function setClosed(id, token, closed) {
  return (await call(base(id), { method: "PATCH", headers: { ...JSON_TYPE, ...bearer(token) }, body: JSON.stringify({ closed }) })).json();
}

/** Delete the assignment and every submission. @param {string} id @param {string} token */
export async function remove(id, token) {
  await call(base(id), { method: "DELETE", headers: bearer(token) });
}

/** A code submission's recorded run for the board: {run: "run:<id>"}. @param {string} id @param {string} sid @param {string} token */
export async function replay(id, sid, token) {
  return (await call(`${base(id)}/submissions/${encodeURIComponent(sid)}/replay`, { method: "POST", headers: bearer(token) })).json();
}

/** The task kinds, in the order every page shows them. */
export const KINDS = /** @type {const} */ (["predict", "code", "heuristic", "solution"]);

/** A task's name: a catalog key (write it with t(), or `el(tag, {t: key})`). */
export const KIND_TITLES = {
  predict: "assignment.kind_predict",
  code: "assignment.kind_code",
  heuristic: "assignment.kind_heuristic",
  solution: "assignment.kind_solution",
};

/** A task's name in the current language. @param {string} kind */
export const kindTitle = (kind) => (KIND_TITLES[kind] ? t(KIND_TITLES[kind]) : kind);

/** A number as the table writes it: at most two decimals, no trailing zeros. @param {number | null | undefined} n */
export function points(n) {
  if (typeof n !== "number" || !Number.isFinite(n)) return "—";
  return fmt(Math.round(n * 100) / 100, 2, false);
}
