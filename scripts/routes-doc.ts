import { fileURLToPath } from "node:url";

/** docs/routes.md, read back: the generator keeps its notes, the test checks its operations against the contract. */

export const routesDocPath = fileURLToPath(new URL("../docs/routes.md", import.meta.url));

export interface RouteRow {
  method: string;
  path: string;
  /** The authsim operation id, or "" when none answers the route yet. */
  operation: string;
  notes: string;
}

/**
 * Method and path, with parameter names left out (`/users/:user_id` and `/users/:id` are one route), and a catch-all
 * written either way (the generator's `:path*`, the contract's Hono pattern `:path{.+}`) as one.
 */
export const routeKey = (method: string, path: string) =>
  `${method} ${path.replace(/:[A-Za-z_]+(\{[^}]*\}|\*)/g, ":*").replace(/:[A-Za-z_]+/g, ":")}`;

export function parseRoutesDoc(text: string): RouteRow[] {
  const rows: RouteRow[] = [];
  for (const line of text.split("\n")) {
    const cells = /^\| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \| (?:`([A-Za-z0-9]+)`|—) \| (.*) \|$/.exec(line);
    if (cells === null) continue;
    rows.push({ method: cells[1]!, path: cells[2]!, operation: cells[3] ?? "", notes: cells[4]!.trim() });
  }
  return rows;
}
