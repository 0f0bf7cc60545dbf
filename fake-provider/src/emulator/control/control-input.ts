import type { z } from "zod";
import { CONTROL_PREFIX, controlEndpoints, type ControlEndpointName, type ControlEndpoints, type ControlQuery } from "@authsim/sdk/emulator";

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
export function rawQuery<S extends z.ZodObject>(url: URL, query: ControlQuery<S>): Record<string, string | string[] | undefined> {
  const shape = query.schema.shape as Record<string, z.ZodType>;
  return Object.fromEntries(
    Object.entries(query.names as Record<string, string>).map(([key, name]) => {
      const isList = listField(shape[key]);
      return [key, isList ? url.searchParams.getAll(name) : (url.searchParams.get(name) ?? undefined)];
    }),
  );
}
