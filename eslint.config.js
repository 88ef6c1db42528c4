// ESLint flat config for the browser code under static/js (plain ES modules, no build step).
// Run by scripts/lint_js.sh (and so by CI): `npx eslint static/js`.
import js from "@eslint/js";
import globals from "globals";

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
    rules: {
      ...js.configs.recommended.rules,
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
