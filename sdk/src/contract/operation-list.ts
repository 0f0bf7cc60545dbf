import { operationTable, type Operation } from "./operations.ts";
import { operationResponses } from "./responses.ts";

/**
 * Every operation with what it answers: the table (operations.ts) joined with the answers map (responses.ts). Joined
 * here, above both, because the answers map is typed by the table's ids.
 */
export const operations: readonly Operation[] = operationTable.map((o) => ({ ...o, responses: operationResponses[o.id] }));

export const operationsById: ReadonlyMap<string, Operation> = new Map(operations.map((o) => [o.id, o]));
