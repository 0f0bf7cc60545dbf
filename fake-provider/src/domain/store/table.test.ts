import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Table } from "./table.ts";

type Step =
  | { kind: "set"; id: string }
  | { kind: "delete"; id: string }
  | { kind: "dropOldest" }
  | { kind: "load"; ids: string[] }
  | { kind: "rollback"; steps: number };

const id = fc.constantFrom("a", "b", "c", "d", "e", "f");
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: id.map((id) => ({ kind: "set" as const, id })) },
  { weight: 2, arbitrary: id.map((id) => ({ kind: "delete" as const, id })) },
  { weight: 2, arbitrary: fc.constant({ kind: "dropOldest" as const }) },
  { weight: 1, arbitrary: fc.uniqueArray(id, { maxLength: 4 }).map((ids) => ({ kind: "load" as const, ids })) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 4 }).map((steps) => ({ kind: "rollback" as const, steps })) },
);

describe("Table.oldest", () => {
  it("is always the first row in insertion order, whatever was written, deleted, loaded or rolled back", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const table = new Table<{ id: string; n: number }>();
        let undo: (() => void)[] = [];
        table.attach({ record: (u) => undo.push(u) });
        let n = 0;
        for (const s of steps) {
          if (s.kind === "set") table.set(s.id, { id: s.id, n: n++ });
          else if (s.kind === "delete") table.delete(s.id);
          else if (s.kind === "dropOldest") {
            const oldest = table.oldest();
            if (oldest) table.delete(oldest.id);
          } else if (s.kind === "load") {
            table.load(s.ids.map((id) => [id, { id, n: n++ }]));
            undo = [];
          } else {
            for (const u of undo.splice(-s.steps).reverse()) u();
          }
          const first = table.entries()[0];
          expect(table.oldest()).toBe(first?.[1]);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("keeps the order of a rewritten row and drops a bounded table's oldest first", () => {
    const table = new Table<string>();
    table.attach({ record: () => undefined });
    for (const id of ["1", "2", "3"]) table.set(id, `v${id}`);
    table.set("1", "v1 again");
    expect(table.oldest()).toBe("v1 again");
    table.delete("1");
    table.set("1", "v1 last");
    expect(table.oldest()).toBe("v2");

    const bounded = new Table<string>();
    bounded.attach({ record: () => undefined });
    for (let i = 0; i < 2_000; i++) {
      bounded.set(String(i), `v${i}`);
      if (bounded.size > 3) bounded.delete(String(i - 3));
      expect(bounded.oldest()).toBe(`v${Math.max(0, i - 2)}`);
    }
  });
});

describe("tables never written", () => {
  it("share nothing: each sees its own writes, deletes, loads and forks only, the others stay empty", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), step), { maxLength: 40 }), (steps) => {
        // Three tables, one with an index; a model of each beside it.
        const tables = [
          new Table<{ id: string; n: number }>(),
          new Table<{ id: string; n: number }>({ byN: { key: (r) => String(r.n) } }),
          new Table<{ id: string; n: number }>(),
        ];
        const models = tables.map(() => new Map<string, number>());
        for (const t of tables) t.attach({ record: () => {} });
        let n = 0;
        for (const [which, s] of steps) {
          const table = tables[which]!;
          const model = models[which]!;
          if (s.kind === "set") {
            table.set(s.id, { id: s.id, n });
            model.set(s.id, n++);
          } else if (s.kind === "delete" || s.kind === "dropOldest") {
            const gone = s.kind === "delete" ? s.id : table.oldest()?.id;
            if (gone !== undefined) table.delete(gone);
            if (gone !== undefined) model.delete(gone);
          } else if (s.kind === "load") {
            model.clear();
            for (const id of s.ids) model.set(id, n++);
            table.load([...model].map(([id, v]) => [id, { id, n: v }]));
          } else {
            // A fork: a copy of a table of the same kind (the other table without an index, or the indexed one itself).
            const source = which === 1 ? 1 : 2 - which;
            table.shareFrom(tables[source]!);
            const copied = [...models[source]!];
            model.clear();
            for (const [id, v] of copied) model.set(id, v);
          }
        }
        tables.forEach((table, i) => {
          expect(new Map(table.entries().map(([id, r]) => [id, r.n]))).toEqual(models[i]);
          expect(table.size).toBe(models[i]!.size);
        });
        // The index finds only rows of its own table (its keys are unique: the last row written with a key holds it).
        for (const row of tables[1]!.values()) expect(tables[1]!.lookup("byN", String(row.n))?.n).toBe(row.n);
        // A table made now starts empty, whatever the others did.
        expect(new Table().size).toBe(0);
      }),
    );
  });
});
