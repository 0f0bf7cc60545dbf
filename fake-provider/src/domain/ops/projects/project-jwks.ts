import type { JWK } from "jose";
import { jwks } from "../../auth/tokens.ts";
import type { OpContext } from "../context.ts";
import { refusal } from "../../errors/refusals.ts";

/** GET /projects/{project_id}/.well-known/jwks.json (protocol.md §4.1): a project's published keys. */
export function projectJwks(
  ctx: OpContext,
  projectId: string,
  options: { includeRestricted: boolean; includeAnonymous: boolean },
): Promise<{ keys: JWK[] }> {
  // Upstream answers a project it does not know with a plain-text 404, not a known error.
  if (!ctx.tables.projects.has(projectId)) throw refusal("projectNotFound");
  return jwks(ctx.tables, ctx.random, options);
}
