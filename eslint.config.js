// ESLint flat config for the browser code under static/js (plain ES modules, no build step).
// Run by scripts/lint_js.sh (and so by CI): `npx eslint static/js`.
import js from "@eslint/js";
import globals from "globals";
import uiText from "./scripts/eslint/ui_text.js";

// Names and symbols that are the same in every language (algorithm names, units, signs): the only
// words the page's code may write without a catalog (scripts/eslint/ui_text.js).
const SAME_IN_EVERY_LANGUAGE = [
  "BFS", "DFS", "IDA*", "IDDFS", "A*", "JPS", "px", "ms", "MB", "KB", "GB", "PNG", "GIF", "JSON", "CSV", "SVG",
  "Python", "Pyodide", "Moodle", "Canvas", "Zenji", "maze3", "OK", "ok", "id", "x", "y", "g", "h", "f", "n", "w",
  "Ctrl", "Shift", "Alt", "Esc", "Enter", "Tab", "Home", "End", "PgUp", "PgDn", "English", "Deutsch",
];

export default [
  {
    ignores: ["static/vendor/**", "node_modules/**", ".venv/**", "test-artifacts/**"],
  },
  {
    files: ["static/js/**/*.js"],
    ...js.configs.recommended,
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: {
        ...globals.browser,
        // The Socket.IO browser client, loaded by a <script> tag before the modules.
        io: "readonly",
      },
    },
    linterOptions: {
      reportUnusedDisableDirectives: "error",
    },
    plugins: { i18n: { rules: { "ui-text": uiText } } },
    rules: {
      ...js.configs.recommended.rules,
      "i18n/ui-text": ["error", { allow: SAME_IN_EVERY_LANGUAGE }],
      "no-unused-vars": [
        "error",
        {
          args: "after-used",
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
        },
      ],
    },
  },
  {
    // The JavaScript unit tests (Node's test runner, tests/test_js_units.py).
    files: ["tests/js/**/*.js"],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
];
