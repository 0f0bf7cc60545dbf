/**
 * What ClickHouse refuses a query with, and the text the real service answers for it (ANALYTICS_QUERY_ERROR's
 * `error`). ClickHouse names each refusal by a numeric code; the real service passes the message of a few codes on as
 * it is (syntax, timeout, readonly, result size, table structure) and, for the others, a fixed sentence followed in a
 * development deployment (as the dev server is) by the code and message, and a note when the code is one it has not
 * classified. ClickHouse's message reaches the service with ". " after it (its client cuts the code's name off there).
 */
export class ClickHouseError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

/** ClickHouse's error codes the emulation answers. */
export const CH = {
  CANNOT_PARSE_TEXT: 6,
  BAD_ARGUMENTS: 36,
  NUMBER_OF_ARGUMENTS_DOESNT_MATCH: 42,
  ILLEGAL_TYPE_OF_ARGUMENT: 43,
  UNKNOWN_FUNCTION: 46,
  UNKNOWN_IDENTIFIER: 47,
  NOT_IMPLEMENTED: 48,
  UNKNOWN_TYPE: 50,
  UNKNOWN_TABLE: 60,
  SYNTAX_ERROR: 62,
  UNKNOWN_SETTING: 115,
  TOO_MANY_ROWS: 158,
  TIMEOUT_EXCEEDED: 159,
  TOO_SLOW: 160,
  READONLY: 164,
  TOO_DEEP_AST: 167,
  TOO_BIG_AST: 168,
  ILLEGAL_AGGREGATION: 184,
  MEMORY_LIMIT_EXCEEDED: 241,
  TOO_DEEP_RECURSION: 306,
  CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN: 349,
  NO_COMMON_TYPE: 386,
  TOO_MANY_ROWS_OR_BYTES: 396,
  ACCESS_DENIED: 497,
  CANNOT_EXTRACT_TABLE_STRUCTURE: 636,
} as const;

/** A refusal the parser gives (code 62 unless named). */
export class SqlSyntaxError extends ClickHouseError {
  constructor(message: string, code: number = CH.SYNTAX_ERROR) {
    super(message, code);
  }
}

/** A refusal while the query is analysed or run (ClickHouse's code, BAD_ARGUMENTS unless named). */
export class AnalyticsQueryError extends ClickHouseError {
  constructor(message: string, code: number = CH.BAD_ARGUMENTS) {
    super(message, code);
  }
}

/** Codes whose message the real service answers as ClickHouse wrote it. */
const PASSED_ON = new Set<number>([
  CH.SYNTAX_ERROR,
  CH.TIMEOUT_EXCEEDED,
  CH.READONLY,
  CH.TOO_MANY_ROWS,
  CH.TOO_MANY_ROWS_OR_BYTES,
  CH.CANNOT_EXTRACT_TABLE_STRUCTURE,
]);
/** Codes it hides behind its fixed sentence, knowing they may carry data of other tables. */
const CLASSIFIED = new Set<number>([
  CH.BAD_ARGUMENTS,
  CH.ILLEGAL_TYPE_OF_ARGUMENT,
  CH.UNKNOWN_IDENTIFIER,
  CH.UNKNOWN_TABLE,
  CH.NO_COMMON_TYPE,
  CH.ACCESS_DENIED,
]);

/** The `error` of the ANALYTICS_QUERY_ERROR the real service (in development) answers for `error`. */
export function analyticsErrorText(error: ClickHouseError): string {
  const message = `${error.message}. `;
  if (PASSED_ON.has(error.code)) return message;
  const unclassified = CLASSIFIED.has(error.code)
    ? ""
    : "\n\nThis error is not known and you should probably add it to the safe or unsafe codes in clickhouse-errors.ts.";
  return `Error during execution of this query.${unclassified}\n\nAs you are in development mode, you can see the full error: ${error.code} ${message}`;
}

/** ClickHouse's readable quantity (formatReadableQuantity): "65.41 thousand". */
export function readableQuantity(value: number): string {
  const units: [number, string][] = [
    [1e12, " trillion"],
    [1e9, " billion"],
    [1e6, " million"],
    [1e3, " thousand"],
  ];
  for (const [size, name] of units) if (Math.abs(value) >= size) return `${(value / size).toFixed(2)}${name}`;
  return value.toFixed(2);
}
