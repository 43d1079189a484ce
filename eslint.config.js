// ESLint for the build-free web client (npm run check; scripts/test runs it).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/**", ".venv/**", "build/**", "dist/**"] },
  js.configs.recommended,
  {
    files: ["src/tuolaji/web/static/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
    rules: {
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      eqeqeq: ["error", "always"],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
  {
    // the offline build: its page script, Web Worker and service worker (docs/offline.md)
    files: ["src/tuolaji/web/static/offline/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module",
      globals: { ...globals.browser, ...globals.worker, ...globals.serviceworker, __VERSION__: "readonly", __FILES__: "readonly" } },
    rules: {
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      eqeqeq: ["error", "always"],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.node } },
  },
];
