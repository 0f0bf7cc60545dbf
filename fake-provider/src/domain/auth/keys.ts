import type { ApiKeySetRecord } from "../store/records.ts";
import type { Tables } from "../store/store.ts";
import { constantTimeEqualStrings } from "./compare.ts";

export type KeyKind = "publishable" | "secret" | "admin";

const field: Record<
  KeyKind,
  keyof Pick<ApiKeySetRecord, "publishableClientKey" | "secretServerKey" | "superSecretAdminKey">
> = {
  publishable: "publishableClientKey",
  secret: "secretServerKey",
  admin: "superSecretAdminKey",
};

export function isKeySetValid(set: ApiKeySetRecord, nowMillis: number): boolean {
  if (set.manuallyRevokedAtMillis !== null) return false;
  return set.expiresAtMillis === null || set.expiresAtMillis > nowMillis;
}

/**
 * The valid key set of the project holding `key` of the given kind. Every candidate is compared in constant time and
 * the loop does not stop at the first match, so timing says nothing about which set or how much matched.
 */
export function findKeySet(
  tables: Tables,
  projectId: string,
  kind: KeyKind,
  key: string,
  nowMillis: number,
): ApiKeySetRecord | null {
  let found: ApiKeySetRecord | null = null;
  for (const set of tables.apiKeySets.values()) {
    if (set.projectId !== projectId) continue;
    const stored = set[field[kind]];
    if (stored !== null && constantTimeEqualStrings(stored, key) && isKeySetValid(set, nowMillis)) found = set;
  }
  return found;
}
