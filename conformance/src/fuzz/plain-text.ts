import { refusalMatches, refusals, type Refusal } from "@authsim/fake-provider";

/**
 * The plain-text (non-known-error) 4xx answers the fuzzer accepts: the emulator's catalogue of plain-text refusals
 * (fake-provider/src/domain/errors/refusals.ts: the real service's own StatusErrors, each with its status and, where it
 * names them, the operations that answer it), and the few answers built as responses rather than thrown, listed below
 * with what protocol.md documents (§1, §2.3 step 7, §3.2 notes, §4.1, §6.3). A plain text outside both fails the fuzz
 * suite: the wire either has it catalogued or it is a known error.
 */
interface PlainText {
  status: number;
  text: string | RegExp;
  /** Only on these operations (all when absent). */
  operations?: readonly string[];
}

export const answersOutsideTheCatalogue: readonly PlainText[] = [
  // The assembly's answers to a path no operation serves and to a method the path does not serve (app.ts).
  { status: 404, text: /^404 — this page does not exist in Stack Auth's API\.\n\nPlease see the API documentation/ },
  { status: 405, text: "Method not allowed" },
  // The unsubscribe link's page answers a bad code in plain text (ops/emails/email-unsubscribe.ts).
  { status: 400, text: "Invalid code", operations: ["unsubscribeLink"] },
  // protocol.md documents them; the emulator does not answer them today.
  { status: 401, text: "Invalid development key override" },
  { status: 400, text: /^Cannot use both creator_user_id and add_current_user\./, operations: ["createTeam"] },
];

const catalogued: readonly Refusal[] = Object.values(refusals);

export function plainTextAllowed(operationId: string, status: number, text: string): boolean {
  const onOperation = (operations: readonly string[] | undefined) => !operations || operations.includes(operationId);
  return (
    catalogued.some((r) => r.status === status && onOperation(r.operations) && refusalMatches(r, text)) ||
    answersOutsideTheCatalogue.some(
      (p) =>
        p.status === status &&
        onOperation(p.operations) &&
        (typeof p.text === "string" ? p.text === text : p.text.test(text)),
    )
  );
}
