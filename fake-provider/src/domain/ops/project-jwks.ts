import type { JWK } from "jose";
import { jwks } from "../auth/tokens.ts";
import { StatusError } from "../errors/known-error.ts";
import type { OpContext } from "./context.ts";

/** GET /projects/{project_id}/.well-known/jwks.json (protocol.md §4.1): a project's published keys. */
export function projectJwks(ctx: OpContext, projectId: string, options: { includeRestricted: boolean; includeAnonymous: boolean }): Promise<{ keys: JWK[] }> {
  // Upstream answers a project it does not know with a plain-text 404, not a known error.
  if (!ctx.tables.projects.has(projectId)) throw new StatusError(404, "Project not found");
  return jwks(ctx.tables, ctx.random, options);
}
