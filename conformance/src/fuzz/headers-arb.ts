import fc from "fast-check";
import { headerNames, rebranded, type HeaderKey, type Operation } from "@authsim/sdk/contract";
import type { Arsenal } from "./arsenal.ts";
import { garbageTokens } from "./forge.ts";
import { hostileString } from "./json.ts";
import { projects, type ProjectName } from "./world.ts";

/**
 * Request headers for one operation: mostly the credentials the operation wants (so requests reach its handler),
 * otherwise every way of getting them wrong: other access types, other projects' keys, keys of the wrong kind,
 * empty and garbage values, expired, forged and foreign tokens, anonymous tokens with and without the allow header.
 * Each header goes out in the x-stack-* or the x-hexclave-* family, chosen per header.
 */

/** Header values must be ByteStrings without CR, LF or NUL, or `new Request` refuses them before the provider sees them. */
export function headerSafe(value: string): string {
  let out = "";
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    out += code < 0x20 || code === 0x7f || code > 0xff ? "?" : ch;
  }
  return out.length > 8_000 ? out.slice(0, 8_000) : out;
}

const garbage: fc.Arbitrary<string> = fc.oneof(fc.constantFrom(...garbageTokens), hostileString.map(headerSafe));

/** fc.oneof by weight; entries of weight 0 (the faults, in a clean request) are left out. */
function weighted<T>(...entries: [number, fc.Arbitrary<T>][]): fc.Arbitrary<T> {
  return fc.oneof(...entries.filter(([weight]) => weight > 0).map(([weight, arbitrary]) => ({ weight, arbitrary })));
}

const intendedType = (operation: Operation) =>
  operation.access === "admin" ? "admin" : operation.access === "server" ? "server" : "client";

export interface HeaderPlan {
  headers: [string, string][];
  /** Whether x-*-override-error-status was sent (its presence is what matters, protocol.md §2.1). */
  override: boolean;
}

/**
 * `clean`: credentials the operation accepts (its access type or a higher one, the dev project's right key, a live
 * token or none), so the request reaches the handler; otherwise any of the faults, by weight.
 */
export function headersArb(operation: Operation, arsenal: Arsenal, clean: boolean): fc.Arbitrary<HeaderPlan> {
  const { users, stale } = arsenal.world;
  const fault = clean ? 0 : 1;
  const higher =
    operation.access === "admin"
      ? ["admin"]
      : operation.access === "server"
        ? ["server", "admin"]
        : ["client", "server", "admin"];
  const accessType = weighted<string | undefined>(
    [14, fc.constant(intendedType(operation))],
    [3, fc.constantFrom(...(clean ? higher : ["client", "server", "admin"]))],
    [fault, fc.constant(undefined)],
    [fault, fc.constantFrom("", "CLIENT", "root", "client ", "admin,server", "none").map(headerSafe)],
  );
  const project = weighted<ProjectName | "unknown" | "missing" | "hostile">(
    [20, fc.constant("dev")],
    [3 * fault, fc.constantFrom("internal", "other", "unknown", "missing", "hostile")],
  );
  const keyChoice = weighted<"right" | "other-project" | "wrong-kind" | "garbage" | "empty" | "missing">(
    [20, fc.constant("right")],
    [3 * fault, fc.constantFrom("other-project", "wrong-kind", "garbage", "empty", "missing")],
  );
  const accessToken = weighted<string | undefined>(
    [5, fc.constant(undefined)],
    [10, fc.constant(users.a.accessToken)],
    [2, fc.constant(users.b.accessToken)],
    [
      2 * fault,
      fc.constantFrom(users.anon.accessToken, users.owner.accessToken, users.foreign.accessToken, stale.a.accessToken),
    ],
    [2 * fault, fc.constantFrom(...arsenal.forgedUserTokens)],
    [fault, garbage],
  );
  const adminAccessToken = weighted<string | undefined>(
    [24, fc.constant(undefined)],
    [2, fc.constant(users.owner.accessToken)],
    [fault, fc.constantFrom(users.outsider.accessToken, users.a.accessToken, users.anon.accessToken)],
    [fault, fc.constantFrom(...arsenal.forgedOwnerTokens)],
  );
  const extras = fc.record(
    {
      refreshToken: weighted<string | undefined>(
        [6, fc.constant(undefined)],
        [2, fc.constant(users.a.refreshToken)],
        [fault, garbage],
      ),
      allowAnonymousUser: weighted<string | undefined>(
        [3, fc.constant(undefined)],
        [2, fc.constant("true")],
        [fault, fc.constantFrom("false", "TRUE", "")],
      ),
      allowRestrictedUser: weighted<string | undefined>([8, fc.constant(undefined)], [1, fc.constant("true")]),
      branchId: weighted<string | undefined>([10, fc.constant(undefined)], [fault, fc.constantFrom("main", "dev", "")]),
      overrideErrorStatus: weighted<string | undefined>(
        [1, fc.constant(undefined)],
        [1, fc.constantFrom("true", "false", "")],
      ),
      clientVersion: weighted<string | undefined>(
        [3, fc.constant(undefined)],
        [1, fc.constantFrom("js @stackframe/js@2.8.108", "garbage", "x".repeat(5_000))],
      ),
    },
    { requiredKeys: [] },
  );
  // Proxy headers the session list records (http/end-user.ts), with values it has to survive.
  const endUser = weighted<[string, string][]>(
    [6, fc.constant([])],
    [
      1,
      fc.constantFrom<[string, string][]>(
        [
          ["x-forwarded-for", "203.0.113.7, 10.0.0.1"],
          ["x-vercel-ip-latitude", "NaN"],
          ["x-vercel-ip-city", "%E0%A4%A"],
        ],
        [
          ["x-forwarded-for", ""],
          ["x-real-ip", " "],
        ],
        [
          ["x-forwarded-for", "::1"],
          ["x-vercel-ip-longitude", "1e999"],
          ["x-vercel-ip-country", "ZZZ"],
        ],
        [["authorization", "Basic Og=="]],
      ),
    ],
  );

  return fc
    .record({
      type: accessType,
      project,
      keyChoice,
      accessToken,
      adminAccessToken,
      extras,
      endUser,
      families: fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }),
      hostileProject: hostileString,
    })
    .map((plan) => {
      const fields: Partial<Record<HeaderKey, string>> = { ...plan.extras };
      if (plan.type !== undefined) fields.accessType = plan.type;
      if (plan.accessToken !== undefined) fields.accessToken = plan.accessToken;
      if (plan.adminAccessToken !== undefined) fields.adminAccessToken = plan.adminAccessToken;
      const seed = plan.project in projects ? projects[plan.project as ProjectName] : projects.dev;
      if (plan.project === "unknown") fields.projectId = "0b5f3c1a-7b2e-4e9d-a6c4-2f1b0e9d7c35";
      else if (plan.project === "hostile") fields.projectId = headerSafe(plan.hostileProject);
      else if (plan.project !== "missing") fields.projectId = seed.id;
      const type = plan.type === "server" || plan.type === "admin" ? plan.type : "client";
      const keyField =
        type === "client" ? "publishableClientKey" : type === "server" ? "secretServerKey" : "superSecretAdminKey";
      const keyName =
        type === "client"
          ? "publishable_client_key"
          : type === "server"
            ? "secret_server_key"
            : "super_secret_admin_key";
      const otherSeed = seed === projects.other ? projects.dev : projects.other;
      const wrongKind = keyField === "publishableClientKey" ? "secretServerKey" : "publishableClientKey";
      if (plan.keyChoice === "right") fields[keyField] = seed.keys[keyName];
      else if (plan.keyChoice === "other-project") fields[keyField] = otherSeed.keys[keyName];
      else if (plan.keyChoice === "wrong-kind")
        fields[wrongKind] = seed.keys[wrongKind === "secretServerKey" ? "secret_server_key" : "publishable_client_key"];
      else if (plan.keyChoice === "garbage") fields[keyField] = "k".repeat(57);
      else if (plan.keyChoice === "empty") fields[keyField] = "";
      const headers: [string, string][] = [];
      (Object.entries(fields) as [HeaderKey, string | undefined][]).forEach(([key, value], i) => {
        if (value === undefined) return;
        headers.push([plan.families[i % 16] ? headerNames[key] : rebranded(headerNames[key]), value]);
      });
      return { headers: [...headers, ...plan.endUser], override: plan.extras.overrideErrorStatus !== undefined };
    });
}
