import type { ConfigLevel } from "@authsim/sdk/contract";
import { defineOwn } from "../../safe-keys.ts";

/**
 * Older names the real service still accepts in an override and renames before checking it (its config migrations):
 * `emails.theme` → `emails.selectedThemeId`; `payments.offers` → `payments.products`; `payments.groups` →
 * `payments.catalogs` → `payments.productLines`; a product's `groupId` → `catalogId` → `productLineId`. A catalog had
 * no customer type: it takes its products' type, and a catalog no product names is dropped. Project-level overrides
 * hold none of these. Works on flat (dotted) overrides, as config-layers.ts stores them.
 */

const renames: readonly { at: readonly (string | null)[]; to: string }[] = [
  { at: ["emails", "theme"], to: "selectedThemeId" },
  { at: ["payments", "offers"], to: "products" },
  { at: ["payments", "groups"], to: "catalogs" },
  { at: ["payments", "products", null, "groupId"], to: "catalogId" },
];

function renamed(parts: string[]): string[] {
  const out = [...parts];
  for (const { at, to } of renames) {
    if (out.length >= at.length && at.every((segment, i) => segment === null || segment === out[i]))
      out[at.length - 1] = to;
  }
  return out;
}

export function migrateOverride(level: ConfigLevel, flat: Record<string, unknown>): Record<string, unknown> {
  if (level === "project") return flat;
  const entries = Object.entries(flat).map(([key, value]): [string[], unknown] => [renamed(key.split(".")), value]);

  // Catalogs get the customer type of the products that name them.
  const catalogOf = new Map<string, string>();
  const typeOf = new Map<string, string>();
  for (const [parts, value] of entries) {
    if (parts.length === 4 && parts[0] === "payments" && parts[1] === "products" && typeof value === "string") {
      if (parts[3] === "catalogId") catalogOf.set(parts[2]!, value);
      if (parts[3] === "customerType") typeOf.set(parts[2]!, value);
    }
  }
  const catalogTypes = new Map<string, string>();
  for (const [productId, catalogId] of catalogOf) {
    const type = typeOf.get(productId);
    if (type !== undefined && !catalogTypes.has(catalogId)) catalogTypes.set(catalogId, type);
  }

  const out: Record<string, unknown> = {};
  const typed = new Set<string>();
  for (const [parts, value] of entries) {
    if (parts[0] === "payments" && parts[1] === "catalogs" && parts.length >= 3) {
      const type = catalogTypes.get(parts[2]!);
      if (type === undefined) continue;
      if (!typed.has(parts[2]!)) {
        typed.add(parts[2]!);
        defineOwn(out, `payments.productLines.${parts[2]!}.customerType`, type);
      }
      if (parts.length === 3) continue;
      defineOwn(out, ["payments", "productLines", ...parts.slice(2)].join("."), value);
      continue;
    }
    if (parts.length === 4 && parts[0] === "payments" && parts[1] === "products" && parts[3] === "catalogId")
      parts[3] = "productLineId";
    defineOwn(out, parts.join("."), value);
  }
  return out;
}
