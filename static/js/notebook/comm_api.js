// @ts-check
// The widget's transport for ../api.js and ../i18n.js (api.setTransport): every request to the
// server (`/api/…`, `/i18n/<lang>.json`) goes to the kernel as `{"type": "api", id, method, path,
// body}` over the anywidget model's comm; the kernel answers it from the same Flask app in-process
// with `{"type": "api_reply", id, status, json}` (a body that is not JSON as the reply's first buffer,
// with `binary` and `content_type`). The answer becomes a Response, so the callers cannot tell.

const TIMEOUT_MS = 60000; // no answer by then: the kernel is busy or gone (api.js says "unreachable")

/** The JSON a request carries (api.js sends JSON.stringify'd bodies), or null. @param {any} body */
function jsonBody(body) {
  if (typeof body !== "string" || !body) return null;
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}

/** A Response from the kernel's reply. @param {any} reply @param {ArrayLike<any>} buffers */
export function responseOf(reply, buffers) {
  const status = Number.isInteger(reply.status) && reply.status >= 200 && reply.status <= 599 ? reply.status : 500;
  const empty = status === 204 || status === 304;
  if (reply.binary) {
    const raw = buffers?.[0];
    const bytes = ArrayBuffer.isView(raw) ? new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength) : new Uint8Array(raw || 0);
    return new Response(empty ? null : bytes, { status, headers: { "Content-Type": reply.content_type || "application/octet-stream" } });
  }
  return new Response(empty ? null : JSON.stringify(reply.json ?? null), { status, headers: { "Content-Type": "application/json" } });
}

/**
 * A transport over `model` (a CommSource's WidgetModel): `fetch(url, init)` resolves to the kernel's
 * answer as a Response; `dispose()` stops listening and fails what is still waiting.
 * @param {import("./comm_source.js").WidgetModel} model
 */
export function commTransport(model) {
  let next = 1;
  /** @type {Map<number, {resolve: (r: Response) => void, reject: (e: Error) => void, timer: any}>} */
  const waiting = new Map();
  const listener = (content, buffers) => {
    if (!content || content.type !== "api_reply") return;
    const request = waiting.get(content.id);
    if (!request) return;
    waiting.delete(content.id);
    clearTimeout(request.timer);
    request.resolve(responseOf(content, buffers || []));
  };
  model.on("msg:custom", listener);
  return {
    /** @type {import("../api.js").Transport} */
    fetch(url, init = {}) {
      const id = next++;
      const method = String(init.method || "GET").toUpperCase();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error("timeout"));
        }, TIMEOUT_MS);
        waiting.set(id, { resolve, reject, timer });
        model.send({ type: "api", id, method, path: String(url), body: jsonBody(init.body) });
      });
    },
    dispose() {
      model.off("msg:custom", listener);
      for (const { reject, timer } of waiting.values()) {
        clearTimeout(timer);
        reject(new Error("closed"));
      }
      waiting.clear();
    },
  };
}
