import {
  CLICKHOUSE_USER,
  grantColumn,
  notEnoughPrivileges,
  PROJECT_TABLES,
  READABLE_SYSTEM_TABLES,
  REVOKED_TABLE_ENGINES,
  schemaOf,
} from "./analytics-catalog.ts";
import {
  EXPECTED_AFTER_EXPRESSION,
  EXPECTED_AFTER_GRANT,
  EXPECTED_AT_STATEMENT_START,
} from "./analytics-clickhouse-expected.ts";
import { AnalyticsQueryError, CH } from "./analytics-errors.ts";
import { syntaxErrorAt } from "./analytics-sql.ts";
import type { Token } from "./analytics-sql-tokens.ts";

/**
 * Statements other than SELECT, as the real service's ClickHouse answers them for its read-only `limited_user`: the
 * SHOW statements it may run (answered from the catalog, analytics-catalog.ts), and for the writing ones the refusal
 * ClickHouse gives first — the missing grant (ACCESS_DENIED) for what the parser accepts, a syntax error where the
 * FORMAT the client appends cannot follow the statement, "readonly mode" for the rest.
 */

/** The format the real service asks for. */
const FORMAT = "JSONEachRow";

/**
 * The text ClickHouse receives for a query: the service's client trims it, drops trailing semicolons and appends
 * " \nFORMAT JSONEachRow" — positions in syntax errors count in this text, and SHOW's column is named from it.
 */
export function receivedText(query: string): string {
  return `${query.trim().replace(/;+$/, "")} \nFORMAT ${FORMAT}`;
}

type Rows = Record<string, unknown>[];

const word = (token: Token | undefined): string | null => (token?.type === "word" ? token.text.toUpperCase() : null);
const nameOf = (token: Token | undefined): string | null =>
  token?.type === "word" || token?.type === "quoted" ? token.text : null;

class Reader {
  position = 0;
  constructor(private readonly tokens: Token[]) {}
  peek(offset = 0): Token | undefined {
    return this.tokens[this.position + offset];
  }
  /** Skips the words given, in order, where they come next; whether all were there. */
  skip(...words: string[]): boolean {
    const all = words.every((w, i) => word(this.peek(i)) === w);
    if (all) this.position += words.length;
    return all;
  }
  /** `[db.]name`, the database "default" when none is named; null when no name is there. */
  table(): { database: string; table: string } | null {
    const first = nameOf(this.peek());
    if (first === null) return null;
    this.position++;
    const dot = this.peek();
    if (dot?.type === "symbol" && dot.text === "." && nameOf(this.peek(1)) !== null) {
      this.position += 2;
      return { database: first, table: nameOf(this.peek(-1))! };
    }
    return { database: "default", table: first };
  }
  /** `(a, b, …)`: the names in a parenthesised list at this point, or null. */
  nameList(): string[] | null {
    const open = this.peek();
    if (open?.type !== "symbol" || open.text !== "(") return null;
    const list: string[] = [];
    for (this.position++; this.peek(); this.position++) {
      const token = this.peek()!;
      if (token.type === "symbol" && token.text === ")") break;
      const name = nameOf(token);
      if (name !== null) list.push(name);
    }
    return list;
  }
}

const denied = (grant: string) => new AnalyticsQueryError(notEnoughPrivileges(grant), CH.ACCESS_DENIED);
const readonly = () => new AnalyticsQueryError("Cannot execute query in readonly mode", CH.READONLY);
const isView = (t: { database: string; table: string }) =>
  t.database === "default" && Object.hasOwn(PROJECT_TABLES, t.table);
const on = (t: { database: string; table: string }) => `${t.database}.${t.table}`;

/** A syntax error where the client's FORMAT starts: what the statement before it was complete without. */
function failAtFormat(text: string, tokens: Token[], expected: string): never {
  const format = tokens.findLast((t) => word(t) === "FORMAT");
  throw syntaxErrorAt(text, format?.at ?? text.length, format ? "FORMAT" : null, `Expected one of: ${expected}`);
}

function show(text: string, reader: Reader): Rows {
  if (reader.skip("TABLES")) return Object.keys(PROJECT_TABLES).map((name) => ({ name }));
  if (word(reader.peek()) === "GRANTS") {
    // ClickHouse names the column after the statement's text past SHOW.
    const column = text.slice(reader.peek()!.at).replace(/\s+/g, " ");
    const implicit = reader.skip("GRANTS", "WITH", "IMPLICIT");
    const lines = implicit
      ? [
          `GRANT TABLE ENGINE ON * TO ${CLICKHOUSE_USER}`,
          ...REVOKED_TABLE_ENGINES.map((engine) => `REVOKE TABLE ENGINE ON ${engine} FROM ${CLICKHOUSE_USER}`),
          `GRANT SHOW DATABASES ON default.* TO ${CLICKHOUSE_USER}`,
          ...Object.keys(PROJECT_TABLES).map(
            (t) => `GRANT SHOW TABLES, SHOW COLUMNS, SELECT ON default.${t} TO ${CLICKHOUSE_USER}`,
          ),
          ...READABLE_SYSTEM_TABLES.map((t) => `GRANT SELECT ON system.${t} TO ${CLICKHOUSE_USER}`),
        ]
      : Object.keys(PROJECT_TABLES).map((t) => `GRANT SELECT ON default.${t} TO ${CLICKHOUSE_USER}`);
    return lines.map((line) => ({ [column]: line }));
  }
  throw new AnalyticsQueryError(
    "authsim's analytics emulation answers SHOW TABLES and SHOW GRANTS only",
    CH.NOT_IMPLEMENTED,
  );
}

function create(text: string, tokens: Token[], reader: Reader): never {
  reader.skip("OR", "REPLACE");
  reader.skip("TEMPORARY");
  if (reader.skip("FUNCTION")) failAtFormat(text, tokens, EXPECTED_AFTER_EXPRESSION);
  const kind = reader.skip("TABLE")
    ? "TABLE"
    : reader.skip("MATERIALIZED", "VIEW") || reader.skip("VIEW")
      ? "VIEW"
      : reader.skip("DATABASE")
        ? "DATABASE"
        : reader.skip("DICTIONARY")
          ? "DICTIONARY"
          : null;
  if (kind === null) throw readonly();
  reader.skip("IF", "NOT", "EXISTS");
  const target = reader.table();
  if (target === null) throw readonly();
  throw denied(kind === "DATABASE" ? `CREATE DATABASE ON ${target.table}.*` : `CREATE ${kind} ON ${on(target)}`);
}

function alter(reader: Reader): never {
  if (!reader.skip("TABLE")) throw readonly();
  const target = reader.table();
  if (target === null) throw readonly();
  if (reader.skip("DELETE")) throw denied(`ALTER DELETE ON ${on(target)}`);
  const columnsAfter = (action: string): never => {
    if (!reader.skip("IF", "NOT", "EXISTS")) reader.skip("IF", "EXISTS");
    const column = nameOf(reader.peek());
    throw denied(`${action}${column !== null ? `(${grantColumn(column)})` : ""} ON ${on(target)}`);
  };
  if (reader.skip("ADD", "COLUMN")) columnsAfter("ALTER ADD COLUMN");
  if (reader.skip("DROP", "COLUMN")) columnsAfter("ALTER DROP COLUMN");
  if (reader.skip("MODIFY", "COLUMN")) columnsAfter("ALTER MODIFY COLUMN");
  if (reader.skip("UPDATE")) {
    // UPDATE a = …, b = … WHERE …: the columns assigned.
    const columns: string[] = [];
    for (let depth = 0; reader.peek() && word(reader.peek()) !== "WHERE"; reader.position++) {
      const token = reader.peek()!;
      if (token.type === "symbol" && token.text === "(") depth++;
      if (token.type === "symbol" && token.text === ")") depth--;
      const next = reader.peek(1);
      if (depth === 0 && nameOf(token) !== null && next?.type === "symbol" && next.text === "=")
        columns.push(grantColumn(nameOf(token)!));
    }
    throw denied(`ALTER UPDATE(${columns.join(", ")}) ON ${on(target)}`);
  }
  throw readonly();
}

/**
 * A statement that is not a SELECT: its rows (SHOW) or its refusal; null for SELECT and WITH, which
 * analytics-sql.ts parses. `text` is receivedText(…), `tokens` its tokens.
 */
export function otherStatement(text: string, tokens: Token[]): Rows | null {
  const first = tokens[0];
  const verb = word(first);
  if (verb === "SELECT" || verb === "WITH" || (first?.type === "symbol" && first.text === "(")) return null;
  const reader = new Reader(tokens);
  reader.position = 1;
  switch (verb) {
    case "SHOW":
      return show(text, reader);
    case "CREATE":
    case "ATTACH":
      return create(text, tokens, reader);
    case "INSERT": {
      reader.skip("INTO");
      reader.skip("TABLE");
      const target = reader.table();
      if (target === null) throw readonly();
      const columns = reader.nameList() ?? schemaOf(target.database, target.table)?.columns.map(([name]) => name) ?? [];
      throw denied(`INSERT${columns.length > 0 ? `(${columns.map(grantColumn).join(", ")})` : ""} ON ${on(target)}`);
    }
    case "DROP":
    case "DETACH": {
      const kind = reader.skip("TABLE")
        ? "TABLE"
        : reader.skip("VIEW")
          ? "VIEW"
          : reader.skip("DATABASE")
            ? "DATABASE"
            : null;
      if (kind === null) throw readonly();
      reader.skip("IF", "EXISTS");
      const target = reader.table();
      if (target === null) throw readonly();
      if (kind === "DATABASE") throw denied(`DROP DATABASE ON ${target.table}.*`);
      throw denied(`DROP ${isView(target) ? "VIEW" : "TABLE"} ON ${on(target)}`);
    }
    case "TRUNCATE": {
      reader.skip("TABLE");
      reader.skip("IF", "EXISTS");
      const target = reader.table();
      if (target === null) throw readonly();
      throw denied(`TRUNCATE ON ${on(target)}`);
    }
    case "ALTER":
      return alter(reader);
    case "KILL":
      // KILL QUERY reads system.processes to find the query first.
      if (reader.skip("QUERY")) throw denied("SELECT(query_id, user, query) ON system.processes");
      throw readonly();
    case "GRANT":
    case "REVOKE":
      return failAtFormat(text, tokens, EXPECTED_AFTER_GRANT);
    case "SET": {
      const setting = nameOf(reader.peek());
      const equals = reader.peek(1);
      if (setting !== null && equals?.type === "symbol" && equals.text === "=")
        throw new AnalyticsQueryError(`Cannot modify '${setting}' setting in readonly mode`, CH.READONLY);
      throw readonly();
    }
    case "SYSTEM":
    case "OPTIMIZE":
    case "RENAME":
    case "EXCHANGE":
    case "UNDROP":
    case "BACKUP":
    case "RESTORE":
    case "DELETE":
    case "UPDATE":
    case "USE":
    case "EXPLAIN":
    case "DESCRIBE":
    case "DESC":
    case "EXISTS":
    case "CHECK":
    case "WATCH":
    case "MOVE":
    case "BEGIN":
    case "COMMIT":
    case "ROLLBACK":
    case "COPY":
      throw new AnalyticsQueryError(
        `authsim's analytics emulation does not run ${verb} statements (the real service's read-only user may not either)`,
        CH.NOT_IMPLEMENTED,
      );
    default:
      throw syntaxErrorAt(
        text,
        first?.at ?? 0,
        first ? text.slice(first.at, first.end) : null,
        `Expected one of: ${EXPECTED_AT_STATEMENT_START}`,
      );
  }
}
