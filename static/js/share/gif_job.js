// An animated GIF of a search, rendered by the server (docs/PROTOCOL.md, "Share and export"):
// POST /api/puzzles/<id>/animation starts a job, GET /api/animations/<job> reports its progress
// (searching, frames rendered, encoding), GET /api/animations/<job>.gif is the file,
// DELETE /api/animations/<job> cancels it.

import { ApiError, json } from "../api.js";
import { t } from "../i18n.js";

const POLL_MS = 350;

export class GifJob {
  /**
   * @param {{puzzle: string, algorithm: string, options: object,
   *          onProgress: (status: object) => void}} args  onProgress gets each polled status
   *   ({state, done, total, message}).
   */
  constructor({ puzzle, algorithm, options, onProgress }) {
    Object.assign(this, { puzzle, algorithm, options, onProgress });
    this.job = null;
    this.cancelled = false;
  }

  /** Resolves to the finished status ({url, filename, bytes, frames, …}); rejects with an ApiError. */
  async run() {
    const started = await json(`/api/puzzles/${encodeURIComponent(this.puzzle)}/animation`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ algorithm: this.algorithm, ...this.options }),
    });
    this.job = started.job;
    let status = started;
    for (;;) {
      if (this.cancelled) throw new ApiError("cancelled");
      this.onProgress(status);
      if (status.state === "done") return status;
      if (status.state === "error") throw new ApiError(status.error || status.message || t("share.gif_failed"));
      if (status.state === "cancelled") throw new ApiError("cancelled");
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      status = await json(`/api/animations/${encodeURIComponent(this.job)}`);
    }
  }

  cancel() {
    this.cancelled = true;
    if (this.job) {
      fetch(`/api/animations/${encodeURIComponent(this.job)}`, { method: "DELETE" }).catch(() => {});
    }
  }
}

/** The progress in words: "Rendering GIF… 40 / 1,200 frames". */
export function progressText(status) {
  switch (status.state) {
    case "queued":
      return t("share.gif_queued", { message: status.message || t("share.gif_waiting") });
    case "searching":
      return t("share.gif_rendering", { message: status.message || t("share.gif_searching") });
    case "rendering":
      return t("share.gif_frames", { done: status.done, total: status.total });
    case "encoding":
      return t("share.gif_encoding", { total: status.total });
    default:
      return t("share.gif_state", { state: status.state });
  }
}
