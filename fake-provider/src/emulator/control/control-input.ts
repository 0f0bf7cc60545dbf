import type { z } from "zod";
import {
  CONTROL_PREFIX,
  controlEndpoints,
  type ControlEndpointName,
  type ControlEndpoints,
  type ControlQuery,
} from "@authsim/sdk/emulator";
import { json } from "../../api/http/respond.ts";

/**
 * Reading a control request as the control contract (@authsim/sdk/emulator) describes it: the endpoint's path to mount
 * and its query's fields under their URL names. The schemas' camel-case names stay in the answers' issue paths, as
 * before the contract existed.
 */
export const pathOf = <K extends ControlEndpointName>(name: K) =>
  `${CONTROL_PREFIX}${controlEndpoints[name].path}` as `${typeof CONTROL_PREFIX}${ControlEndpoints[K]["path"]}`;

type Def = { type: string; innerType?: { def: Def } };
const listField = (schema: z.ZodType | undefined): boolean => {
  const def = schema?.def as Def | undefined;
  return def?.type === "array" || (def?.type === "optional" && def.innerType?.def.type === "array");
};

/** The query's raw fields by their schema names: one value, or every value for an array field. */
export function rawQuery<S extends z.ZodObject>(
  url: URL,
  query: ControlQuery<S>,
): Record<string, string | string[] | undefined> {
  const shape = query.schema.shape as Record<string, z.ZodType>;
  return Object.fromEntries(
    Object.entries(query.names as Record<string, string>).map(([key, name]) => {
      const isList = listField(shape[key]);
      return [key, isList ? url.searchParams.getAll(name) : (url.searchParams.get(name) ?? undefined)];
    }),
  );
}

/** A control request's JSON body checked against its endpoint's schema (an empty body is `{}`), or the 400 to answer. */
export async function parseControlBody<S extends z.ZodType>(
  request: Request,
  schema: S,
): Promise<{ ok: true; value: z.output<S> } | { ok: false; response: Response }> {
  let raw: unknown = {};
  const textBody = await request.text();
  if (textBody.length > 0) {
    try {
      raw = JSON.parse(textBody);
    } catch {
      return { ok: false, response: json({ error: "Invalid JSON in request body" }, 400) };
    }
  }
  const result = schema.safeParse(raw);
  if (!result.success)
    return {
      ok: false,
      response: json(
        { error: "Invalid body", issues: result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`) },
        400,
      ),
    };
  return { ok: true, value: result.data };
}
