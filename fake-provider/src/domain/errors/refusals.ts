import { StatusError } from "./known-error.ts";
import type { Arg, Refusal } from "./refusals/refusal.ts";
import { aiRefusals } from "./refusals/ai.ts";
import { analyticsRefusals } from "./refusals/analytics.ts";
import { configRefusals } from "./refusals/config.ts";
import { dbSyncRefusals } from "./refusals/db-sync.ts";
import { emailsRefusals } from "./refusals/emails.ts";
import { emulatorPagesRefusals } from "./refusals/emulator-pages.ts";
import { integrationsRefusals } from "./refusals/integrations.ts";
import { internalRefusals } from "./refusals/internal.ts";
import { oauthRefusals } from "./refusals/oauth.ts";
import { paymentsRefusals } from "./refusals/payments.ts";
import { projectsRefusals } from "./refusals/projects.ts";
import { requestParsingRefusals } from "./refusals/request-parsing.ts";
import { sharedRefusals } from "./refusals/shared.ts";
import { signInRefusals } from "./refusals/sign-in.ts";
import { teamsRefusals } from "./refusals/teams.ts";
import { usersRefusals } from "./refusals/users.ts";

export type { Refusal } from "./refusals/refusal.ts";

/**
 * The plain-text refusals: a status and a text/plain body, not a known error. Most are the real service's own
 * StatusErrors, word for word (its route handlers throw them); the rest are the emulator's own pages' (the mock
 * identity provider, the card page, the control plane). Code throws them by id, `throw refusal("invalidCursor")`, so a
 * status and its wording are chosen here once; the fuzzer (conformance/src/fuzz/plain-text.ts) accepts exactly these
 * texts, on the operations an entry names when it names some.
 *
 * A text that depends on the request is a function of its parts; `refusalMatches` tells whether a text is the
 * refusal's with any parts.
 *
 * The entries live by area in refusals/<area>.ts; an id is unique across them (refusals.test.ts checks it).
 */
export const refusals = {
  ...integrationsRefusals,
  ...requestParsingRefusals,
  ...aiRefusals,
  ...analyticsRefusals,
  ...projectsRefusals,
  ...signInRefusals,
  ...configRefusals,
  ...usersRefusals,
  ...paymentsRefusals,
  ...emailsRefusals,
  ...dbSyncRefusals,
  ...internalRefusals,
  ...teamsRefusals,
  ...oauthRefusals,
  ...emulatorPagesRefusals,
  ...sharedRefusals,
} as const;

/** Every area's refusals, for the check that no id is given twice (a later one would hide an earlier). */
export const refusalAreas = [
  integrationsRefusals,
  requestParsingRefusals,
  aiRefusals,
  analyticsRefusals,
  projectsRefusals,
  signInRefusals,
  configRefusals,
  usersRefusals,
  paymentsRefusals,
  emailsRefusals,
  dbSyncRefusals,
  internalRefusals,
  teamsRefusals,
  oauthRefusals,
  emulatorPagesRefusals,
  sharedRefusals,
] as const;

export type RefusalId = keyof typeof refusals;
/** The parts a refusal's text is made of: none for a fixed text. */
export type RefusalArgs<Id extends RefusalId> = (typeof refusals)[Id]["text"] extends (...args: infer A) => string
  ? A
  : [];

/** The refusal with this id, as the error an operation throws. */
export function refusal<Id extends RefusalId>(id: Id, ...args: RefusalArgs<Id>): StatusError {
  const entry: Refusal = refusals[id];
  return new StatusError(
    entry.status,
    typeof entry.text === "string"
      ? entry.text
      : (entry.text as (...parts: readonly Arg[]) => string)(...(args as readonly Arg[])),
  );
}

// A part no text holds, to find where a text's parts go.
const PART = "\uE000";

/** Whether `text` is this refusal's text, with any parts (a part may be empty: a value the request gave as ""). */
export function refusalMatches(entry: Refusal, text: string): boolean {
  if (typeof entry.text === "string") return entry.text === text;
  const parts = Array.from({ length: entry.text.length }, () => PART);
  const template = (entry.text as (...parts: readonly Arg[]) => string)(...parts);
  const pattern = template
    .split(PART)
    .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[\\s\\S]*");
  return new RegExp(`^${pattern}$`).test(text);
}
