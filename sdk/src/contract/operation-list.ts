import { operationTable, type Operation } from "./operations.ts";
import { operationRequests } from "./requests.ts";
import { operationResponses } from "./responses.ts";

/**
 * Every operation with what it accepts and answers: the table (operations.ts) joined with the request map
 * (requests.ts) and the answers map (responses.ts). Joined here, above all three, because both maps are typed by the
 * table's ids.
 */
export const operations: readonly Operation[] = operationTable.map((o) => ({ ...o, request: operationRequests[o.id], responses: operationResponses[o.id] }));

export const operationsById: ReadonlyMap<string, Operation> = new Map(operations.map((o) => [o.id, o]));
