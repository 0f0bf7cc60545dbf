import { nextSequence } from "../../store/store.ts";
import type { OpContext } from "../context.ts";
import { appendEvent } from "./event-log.ts";

/** What a sign-up rule saw of the sign-up it matched (its CEL context: "" where the sign-up had none). */
export interface SignUpRuleTriggerData {
  ruleId: string;
  action: "allow" | "reject" | "restrict" | "log";
  email: string;
  authMethod: string;
  oauthProvider: string;
}

/**
 * `$sign-up-rule-trigger` events, one per rule that matched a sign-up, with the data the real service writes to
 * ClickHouse (snake_case: rule_id, action, email, auth_method, oauth_provider). Kept even when the sign-up then fails
 * (a `reject` rule, a taken address), as the real service logs them apart from the sign-up's own transaction.
 */
export function recordSignUpRuleTriggers(ctx: OpContext, projectId: string, triggers: SignUpRuleTriggerData[]): void {
  if (triggers.length === 0) return;
  const at = ctx.now;
  ctx.keepOnFailure((tables) => {
    for (const t of triggers) {
      appendEvent(tables, {
        seq: nextSequence(tables, "analyticsEvents"),
        eventType: "$sign-up-rule-trigger",
        eventAtMillis: at,
        projectId,
        userId: null,
        refreshTokenId: null,
        data: {
          rule_id: t.ruleId,
          action: t.action,
          email: t.email,
          auth_method: t.authMethod,
          oauth_provider: t.oauthProvider,
        },
      });
    }
  });
}
