import { uuid } from "@authsim/sdk/runtime";
import type { DbSyncStateRecord, SequencedRow } from "../../store/db-sync-records.ts";
import { nextSequence, type Tables } from "../../store/store.ts";
import type { OpContext } from "../context.ts";
import { isUuidCell } from "./db-sync-columns.ts";
import { dbSyncMappings, type CellValue, type DbSyncMapping } from "./db-sync-mappings.ts";
import { anyLayerMentionsSync, externalDatabasesOf } from "./db-sync-config.ts";
import { fuseboxOf } from "./db-sync-fusebox.ts";

/**
 * The sequencer (the real service's GET /internal/external-db-sync/sequencer, run by its cron): every new or changed
 * row gets the next number of one sequence, and a row gone gets a tombstone with one, so the sync engine can send an
 * external database what it has not seen, in order, and resume where its `_stack_sync_metadata` says it stopped.
 *
 * The real service marks rows when they are written; the emulator compares each project's rows with what it last
 * sequenced (the same outcome: several changes between two runs are one change, a row created and deleted between two
 * runs is never seen), and only for projects with external databases, so a project without any costs nothing.
 */

const SEQUENCE = "dbSync";

/**
 * The row's values with its `firstSeen` cells (when the record has no time of its own) and `assignedId` cells filled
 * from its live previous version (or `fresh`).
 */
function filled(
  mapping: DbSyncMapping,
  cells: (CellValue | undefined)[],
  live: SequencedRow | undefined,
  fresh: { now: number; id: () => string },
): CellValue[] {
  return mapping.columns.map((column, i) => {
    if (column.firstSeen) return cells[i] ?? live?.firstSeenAtMillis ?? fresh.now;
    if (column.assignedId) return live ? (live.values[i] ?? null) : fresh.id();
    return cells[i] ?? null;
  });
}

/** A uuid column holding something else would fail the whole database's sync; such a row (a fixture's own ids) is left out. */
const uuidsValid = (mapping: DbSyncMapping, values: CellValue[]) =>
  mapping.columns.every((c, i) => c.type !== "uuid" || isUuidCell(values[i]));

/** What the sequencer would do to one mapping: rows new since it last ran, rows changed, keys gone. A read. */
export interface MappingDiff {
  added: [string, (CellValue | undefined)[]][];
  changed: [string, (CellValue | undefined)[], SequencedRow][];
  removed: [string, SequencedRow][];
  /** How many rows the project has now. */
  total: number;
}

export function diffMapping(
  tables: Tables,
  mapping: DbSyncMapping,
  old: Record<string, SequencedRow>,
  projectId: string,
  now: number,
): MappingDiff {
  const current = mapping.rows(tables, projectId, now);
  const diff: MappingDiff = { added: [], changed: [], removed: [], total: current.size };
  for (const [key, cells] of current) {
    const previous = old[key];
    if (!previous || previous.deleted) {
      diff.added.push([key, cells]);
      continue;
    }
    // The filler's fresh values are never used for a live row: its own stand in.
    const values = filled(mapping, cells, previous, { now: 0, id: () => "" });
    if (previous.json !== JSON.stringify(values)) diff.changed.push([key, cells, previous]);
  }
  for (const [key, previous] of Object.entries(old))
    if (!previous.deleted && !current.has(key)) diff.removed.push([key, previous]);
  return diff;
}

/** Sequences one mapping's rows; answers the new rows by key, or null when nothing changed. */
function sequenceMapping(
  ctx: OpContext,
  mapping: DbSyncMapping,
  old: Record<string, SequencedRow>,
  projectId: string,
): Record<string, SequencedRow> | null {
  const diff = diffMapping(ctx.tables, mapping, old, projectId, ctx.now);
  let next: Record<string, SequencedRow> | null = null;
  const fresh = { now: ctx.now, id: () => uuid(ctx.random) };
  const write = (key: string, cells: (CellValue | undefined)[], live: SequencedRow | undefined) => {
    const values = filled(mapping, cells, live, fresh);
    if (!uuidsValid(mapping, values)) return;
    next ??= { ...old };
    next[key] = {
      values,
      json: JSON.stringify(values),
      sequenceId: nextSequence(ctx.tables, SEQUENCE),
      deleted: false,
      firstSeenAtMillis: live?.firstSeenAtMillis ?? ctx.now,
    };
  };
  for (const [key, cells] of diff.added) write(key, cells, undefined);
  for (const [key, cells, previous] of diff.changed) write(key, cells, previous);
  for (const [key, previous] of diff.removed) {
    next ??= { ...old };
    next[key] = { ...previous, sequenceId: nextSequence(ctx.tables, SEQUENCE), deleted: true };
  }
  return next;
}

/**
 * Sequences one project; true when a row got a sequence id or its databases changed. A database newly named gets a
 * sync even with nothing new to send (its tables are made, and a row created and deleted before the sequencer saw it
 * leaves them empty, as the real service's tombstone of it does).
 */
export function sequenceProject(ctx: OpContext, projectId: string): boolean {
  const state: DbSyncStateRecord = ctx.tables.dbSyncStates.get(projectId) ?? { projectId, mappings: {} };
  const databases = JSON.stringify(externalDatabasesOf(ctx, projectId));
  let mappings: DbSyncStateRecord["mappings"] | null = null;
  for (const mapping of dbSyncMappings) {
    const next = sequenceMapping(ctx, mapping, state.mappings[mapping.id] ?? {}, projectId);
    if (!next) continue;
    mappings ??= { ...state.mappings };
    mappings[mapping.id] = next;
  }
  if (!mappings && state.databases === databases) return false;
  ctx.tables.dbSyncStates.set(projectId, { projectId, mappings: mappings ?? state.mappings, databases });
  return true;
}

/** The projects whose config names external databases. */
export function projectsWithSync(tables: Tables): string[] {
  if (!anyLayerMentionsSync(tables)) return [];
  return [...tables.projects.values()]
    .filter((p) => Object.keys(externalDatabasesOf({ tables }, p.id)).length > 0)
    .map((p) => p.id);
}

/**
 * One run of the sequencer over every project with external databases (unless the fusebox turned it off): each project
 * that changed gets a sync request, one at most waiting per project, as the real sequencer queues its tenancies.
 * Answers how many projects changed.
 */
export function runSequencer(ctx: OpContext): number {
  if (!fuseboxOf(ctx.tables).sequencerEnabled) return 0;
  let changed = 0;
  for (const projectId of projectsWithSync(ctx.tables)) {
    if (!sequenceProject(ctx, projectId)) continue;
    changed++;
    enqueueSync(ctx, projectId);
  }
  return changed;
}

/** Queues a project's sync unless one is already waiting (the real queue's deduplication key). */
export function enqueueSync(ctx: OpContext, projectId: string): void {
  if (!ctx.tables.dbSyncRequests.has(projectId))
    ctx.tables.dbSyncRequests.set(projectId, { projectId, createdAtMillis: ctx.now });
}
