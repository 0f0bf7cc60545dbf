import js from "@eslint/js";
import tseslint from "typescript-eslint";

// Ambient time and randomness break determinism (design rule 5): only the clock and id modules may touch them.
const ambientTimeAndRandomness = [
  {
    selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
    message: "Use the injected clock, not Date.now().",
  },
  {
    selector: "NewExpression[callee.name='Date'][arguments.length=0]",
    message: "Use the injected clock, not new Date().",
  },
  {
    selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']",
    message: "Use the injected random source, not Math.random().",
  },
];

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/dist/**", "**/*.js", "!eslint.config.js"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-syntax": ["error", ...ambientTimeAndRandomness],
    },
  },
  {
    // The only places allowed to read the wall clock or the platform's randomness.
    files: ["**/src/**/clock.ts", "**/src/**/ids.ts", "bench/**"],
    rules: { "no-restricted-syntax": "off" },
  },
);
