import { devProjectSeed as dev } from "@authsim/fixtures";
import type { z } from "zod";
import {
  answerSchema,
  callerHeaders,
  operationsById,
  operationUrl,
  type AnswerSchema,
  type OperationCallParts,
  type OperationId,
} from "@authsim/sdk/contract";

/**
 * A project's server API over HTTP, for what a test checks or arranges behind the pages' back (who exists, what the
 * provider recorded). The dev project by default (fixed keys from its seed).
 */
export interface ServerKeys {
  projectId: string;
  secretServerKey: string;
}
const devKeys: ServerKeys = { projectId: dev.id, secretServerKey: dev.keys.secret_server_key };

/** A user as the server API answers it (the contract's server view). */
export type ServerUser = z.output<AnswerSchema<"getUser", "server">>;

export interface ServerApi {
  /** A contract operation as the project's server: parts typed by its definition, the answer parsed by its schema. */
  call<Id extends OperationId>(
    id: Id,
    parts?: OperationCallParts<Id, "server">,
  ): Promise<z.output<AnswerSchema<Id, "server">>>;
  userByEmail(email: string): Promise<ServerUser>;
}

export function serverApi(baseUrl: string, keys: ServerKeys = devKeys): ServerApi {
  const serverHeaders = callerHeaders({
    accessType: "server",
    projectId: keys.projectId,
    secretServerKey: keys.secretServerKey,
  });
  const call: ServerApi["call"] = async (id, parts) => {
    const { body } = (parts ?? {}) as { body?: unknown };
    const method = operationsById.get(id)!.method;
    const response = await fetch(`${baseUrl}/api/v1${operationUrl(id, parts as Parameters<typeof operationUrl>[1])}`, {
      method,
      headers: { ...serverHeaders, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${id} answered ${response.status}: ${await response.text()}`);
    return answerSchema(id, "server").parse(await response.json()) as never;
  };
  return {
    call,
    async userByEmail(email) {
      const { items } = await call("listUsers", { query: { query: email } });
      const user = items.find((u) => u.primary_email === email);
      if (!user) throw new Error(`No user with the email ${email}`);
      return user;
    },
  };
}
