// Saving files from the page: a blob or a same-origin URL, under a name made of the puzzle's and the
// algorithm's (letters, digits, dots, dashes and underscores only: server/exporting.py's file_stem).
import { t } from "../i18n.js";


/** "seed-lee-example-astar" from ["seed-lee-example", "astar"]. */
export function fileStem(...parts) {
  const words = parts
    .filter((part) => part !== null && part !== undefined && part !== "")
    .map((part) => String(part).replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[._-]+|[._-]+$/g, "").slice(0, 60))
    .filter(Boolean);
  return words.join("-") || "export";
}

/** Let the browser save `url` as `filename` (an anchor with `download`: same origin or a blob). */
export function saveUrl(url, filename) {
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}

/** Save a blob as `filename`. */
export function saveBlob(blob, filename) {
  const url = URL.createObjectURL(blob);
  saveUrl(url, filename);
  setTimeout(() => URL.revokeObjectURL(url), 30_000); // the download has its copy by then
}

/** A canvas as a PNG blob (rejects when the browser cannot encode it). */
export function canvasPng(canvas) {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error(t("share.png_failed")))), "image/png");
  });
}
