// @ts-check
// The code editor of "Your code" (./code_panel.js): a <textarea> (monospace, Tab indents by four
// spaces, Shift+Tab takes them back, Enter keeps the indentation, one more after a colon), its line
// numbers beside it with one line that may be marked (the program's error), a file dropped on it
// handed to the panel, and its text kept in this browser's localStorage.
//
//   const editor = new CodeEditor({ onRun, onFile });
//   parent.append(editor.box, editor.hint);  // the text with its line numbers; its description
//   editor.restore(fallback);                // the kept text, else the text `fallback` resolves to
//   editor.value                             // the text
//   editor.touches                           // the user's presses, keys and edits in it so far
//   editor.setText(text)                     // replace it as an edit (Ctrl+Z brings the old text back)
//   editor.goToLine(n) / editor.markLine(n)  // the cursor on line n / line n marked (0: none)
//   editor.save()                            // keep the text now (else a moment after the last edit)
//   editor.focus(options)

import { el } from "../dom.js";

const INDENT = "    ";
const SOURCE_KEY = "code.source"; // localStorage: the text
const SAVE_AFTER_MS = 400;
/** Python, the same in every language. */
const PLACEHOLDER = ["def search(problem):", "    ..."].join("\n");
/** What the editor's keys do (its description for screen readers; the panel says it when Python is ready). */
export const KEYS_HINT = "code.keys_hint"; // a catalog key

/** localStorage that may be absent (private mode) or full: then nothing is kept. */
export const storage = {
  /** @param {string} key */
  get(key) {
    try { return localStorage.getItem(key); } catch { return null; }
  },
  /** @param {string} key @param {string} value */
  set(key, value) {
    try { localStorage.setItem(key, value); } catch { /* private mode, or full: the text stays in the page */ }
  },
};

export class CodeEditor {
  /**
   * @param {{onRun: () => void, onFile: (file: File) => void}} args  Ctrl+Enter pressed in the text;
   *   a file dropped on it
   */
  constructor({ onRun, onFile }) {
    this.onRun = onRun;
    this.onFile = onFile;
    this.errorLine = 0;
    this.lineCount = 0;
    this.saveTimer = 0;
    this.escaped = false; // Esc was pressed: the next Tab leaves the editor
    // The user's presses, keys and edits in the editor so far (and texts put in at their asking): an
    // answer that was asked for before the count changed comes late, and must not replace the text.
    this.touches = 0;

    this.gutter = el("div", { class: "code-lines", "aria-hidden": "true" });
    this.textarea = /** @type {HTMLTextAreaElement} */ (el("textarea", {
      class: "code-editor", testid: "code-editor", id: "code-editor", spellcheck: "false", autocomplete: "off",
      autocapitalize: "off", autocorrect: "off", wrap: "off", "data-focus": "", tattr: { "aria-label": "code.editor_label" },
      "aria-describedby": "code-keys", placeholder: PLACEHOLDER,
    }));
    const editor = this.textarea;
    for (const type of ["pointerdown", "keydown", "beforeinput"]) editor.addEventListener(type, () => { this.touches++; });
    editor.addEventListener("input", () => this.edited());
    editor.addEventListener("scroll", () => { this.gutter.scrollTop = editor.scrollTop; });
    editor.addEventListener("keydown", (event) => this.key(event));
    editor.addEventListener("dragover", (event) => {
      if (!event.dataTransfer?.types.includes("Files")) return;
      event.preventDefault();
      event.stopPropagation();
      editor.classList.add("dropping");
    });
    editor.addEventListener("dragleave", () => editor.classList.remove("dropping"));
    editor.addEventListener("drop", (event) => {
      const file = event.dataTransfer?.files?.[0];
      editor.classList.remove("dropping");
      if (!file) return; // dropped text goes in as the browser puts it
      event.preventDefault();
      event.stopPropagation();
      this.onFile(file);
    });
    /** The text with its line numbers. */
    this.box = el("div", { class: "code-box" }, this.gutter, editor);
    /** The editor's description (screen readers), hidden. */
    this.hint = el("span", { id: "code-keys", hidden: true, t: KEYS_HINT });
  }

  /** The text. */
  get value() {
    return this.textarea.value;
  }

  /**
   * The text this browser kept; else the text `fallback` resolves to, if the user has not touched the
   * editor by then (neither counts as an edit: nothing is saved). On a slow machine the answer may come
   * after the user clicked, cleared the text or began to type: it is dropped then, never mixed into
   * their text. `data-start` says which: "saved", "fallback", or "none" (dropped, or no answer).
   * @param {() => Promise<string | null>} fallback
   */
  restore(fallback) {
    const saved = storage.get(SOURCE_KEY);
    if (saved) {
      this.textarea.value = saved;
      this.numberLines();
      this.textarea.dataset.start = "saved";
      return;
    }
    this.numberLines();
    const asked = this.touches;
    fallback().then((text) => {
      const untouched = asked === this.touches && !this.textarea.value;
      if (text !== null && untouched) {
        this.textarea.value = text;
        this.numberLines();
      }
      this.textarea.dataset.start = text !== null && untouched ? "fallback" : "none";
    });
  }

  /** Keep the text now (a pending save is done at once). */
  save() {
    window.clearTimeout(this.saveTimer);
    storage.set(SOURCE_KEY, this.textarea.value);
  }

  /** @param {FocusOptions} [options] */
  focus(options) {
    this.textarea.focus(options);
  }

  edited() {
    this.numberLines();
    window.clearTimeout(this.saveTimer);
    this.saveTimer = window.setTimeout(() => storage.set(SOURCE_KEY, this.textarea.value), SAVE_AFTER_MS);
  }

  /** Mark a line's number (the program's error); 0 marks none. @param {number} line 1-based */
  markLine(line) {
    this.errorLine = line;
    this.numberLines();
  }

  /** The line numbers beside the text (redrawn when the count or the marked line changes). */
  numberLines() {
    let count = 1;
    const text = this.textarea.value;
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) count++;
    if (count === this.lineCount && this.gutter.dataset.error === String(this.errorLine)) return;
    this.lineCount = count;
    this.gutter.dataset.error = String(this.errorLine);
    const lines = [];
    for (let n = 1; n <= count; n++) lines.push(el("span", { class: n === this.errorLine ? "bad" : null, text: String(n) }));
    this.gutter.replaceChildren(...lines);
    this.gutter.style.setProperty("--digits", String(String(count).length)); // CSSOM: allowed by the CSP
    this.gutter.scrollTop = this.textarea.scrollTop;
  }

  /** Tab and Shift+Tab indent, Enter keeps the indentation (one more after a colon), Ctrl+Enter runs. */
  key(event) {
    const escaped = this.escaped;
    this.escaped = event.key === "Escape";
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      this.onRun();
      return;
    }
    if (event.key === "Tab" && !escaped && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      if (event.shiftKey) this.dedent();
      else this.indent();
      return;
    }
    if (event.key === "Enter" && !event.shiftKey && !event.altKey) {
      const { value, selectionStart } = this.textarea;
      const lineStart = value.lastIndexOf("\n", selectionStart - 1) + 1;
      const line = value.slice(lineStart, selectionStart);
      const indent = /^[ \t]*/.exec(line)[0] + (/:\s*(#.*)?$/.test(line) ? INDENT : "");
      if (!indent) return;
      event.preventDefault();
      this.insert(`\n${indent}`);
    }
  }

  /** Insert text at the cursor as typing would (the browser's undo keeps it). @param {string} text */
  insert(text) {
    const editor = this.textarea;
    if (!document.execCommand?.("insertText", false, text)) editor.setRangeText(text, editor.selectionStart, editor.selectionEnd, "end");
    this.edited();
  }

  indent() {
    const { value, selectionStart: start, selectionEnd: end } = this.textarea;
    if (start === end || !value.slice(start, end).includes("\n")) {
      const column = start - (value.lastIndexOf("\n", start - 1) + 1);
      this.insert(" ".repeat(INDENT.length - (column % INDENT.length)));
      return;
    }
    this.changeLines((line) => (line ? INDENT + line : line));
  }

  dedent() {
    this.changeLines((line) => line.replace(/^ {1,4}|^\t/, ""));
  }

  /** Apply `change` to each line the selection touches, keeping them selected. @param {(line: string) => string} change */
  changeLines(change) {
    const editor = this.textarea;
    const { value, selectionStart: start, selectionEnd: end } = editor;
    const from = value.lastIndexOf("\n", start - 1) + 1;
    const stop = end > start && value[end - 1] === "\n" ? end - 1 : end;
    let to = value.indexOf("\n", stop);
    if (to < 0) to = value.length;
    const old = value.slice(from, to);
    const changed = old.split("\n").map(change).join("\n");
    if (changed === old) return;
    editor.setSelectionRange(from, to);
    this.insert(changed);
    editor.setSelectionRange(from, from + changed.length);
  }

  /** Replace the whole text as an edit (Ctrl+Z brings the old text back); no line marked. @param {string} text */
  setText(text) {
    const editor = this.textarea;
    this.touches++;
    editor.focus({ preventScroll: true });
    editor.select();
    if (!document.execCommand?.("insertText", false, text) || editor.value !== text) editor.value = text;
    editor.setSelectionRange(0, 0);
    editor.scrollTop = 0;
    this.errorLine = 0;
    this.edited();
  }

  /** Put the cursor on a line of the code and bring it into sight. @param {number} line 1-based */
  goToLine(line) {
    const editor = this.textarea;
    const lines = editor.value.split("\n");
    const n = Math.max(1, Math.min(line, lines.length));
    let start = 0;
    for (let i = 0; i < n - 1; i++) start += lines[i].length + 1;
    const end = start + lines[n - 1].length;
    editor.focus({ preventScroll: true });
    editor.setSelectionRange(start, end);
    const height = parseFloat(getComputedStyle(editor).lineHeight) || 18;
    editor.scrollTop = Math.max(0, (n - 1) * height - editor.clientHeight / 3);
    this.gutter.scrollTop = editor.scrollTop;
    editor.scrollIntoView({ block: "nearest" });
  }
}
