import type { Arg, Refusal } from "./refusal.ts";

/** Plain-text refusals of the config and its overrides (domain/ops/config/). */
export const configRefusals = {
  // domain/ops/config/config-schema.ts
  configKeyNotInSchema: {
    status: 400,
    text: (value: Arg, value2: Arg) => `The key ${value} is not valid (nested object not found in schema: ${value2}).`,
  },
  configValueWrongType: {
    status: 400,
    text: (path: Arg, type: Arg, value: Arg) =>
      `${path} must be a \`${type}\` type, but the final value was: \`${value}\`.`,
  },
  configValueNotOneOf: {
    status: 400,
    text: (path: Arg, value: Arg) => `${path} must be one of the following values: ${value}`,
  },
  configValueNotObject: {
    status: 400,
    text: (path: Arg, value: Arg) => `${path} must be a \`object\` type, but the final value was: \`${value}\`.`,
  },
  configKeyHasDot: {
    status: 400,
    text: (key: Arg) => `Key ${key} contains a dot, which is not allowed in config override.`,
  },
  // domain/ops/config/project-config.ts
  invalidConfigOverrideConfigKey: {
    status: 400,
    text: (path: Arg, bad: Arg) => `Invalid config override: ${path} is not a config key ("${bad}" is reserved).`,
  },
  invalidConfigJson: { status: 400, text: "Invalid config JSON" },
  configOverrideNonNullObject: { status: 400, text: "Config override must be a non-null object." },
  invalidConfigOverrideAuthsimCannot: {
    status: 400,
    text: (key: Arg) =>
      `Invalid config override: authsim cannot override ${key} yet; change it with PATCH /internal/projects/current or its own endpoints.`,
  },
  productSpecifiesProductLineId: {
    status: 400,
    text: (productId: Arg, productLineId: Arg) =>
      `Product "${productId}" specifies product line ID "${productLineId}", but that product line does not exist`,
  },
  productCustomerTypeButIts: {
    status: 400,
    text: (productId: Arg, value: Arg, productLineId: Arg, value2: Arg) =>
      `Product "${productId}" has customer type "${value}" but its product line "${productLineId}" has customer type "${value2}"`,
  },
  serverAccessOnlyBranchOverrides: {
    status: 403,
    text: "Server access can only manage branch config overrides.",
    operations: ["getConfigOverride", "replaceConfigOverride", "updateConfigOverrideLevel"],
  },
  sourceRequiredBranchLevelConfig: {
    status: 400,
    text: "source is required for branch level config",
    operations: ["replaceConfigOverride"],
  },
} as const satisfies Readonly<Record<string, Refusal>>;
