import type { DbSyncFuseboxRecord } from "../../store/db-sync-records.ts";
import type { Tables } from "../../store/store.ts";
import type { OpContext } from "../context.ts";

/** The pipeline's switches; both on until someone sets them (the real service's defaults). */
export const fuseboxOf = (tables: Tables): DbSyncFuseboxRecord =>
  tables.dbSyncFusebox.get("fusebox") ?? { sequencerEnabled: true, pollerEnabled: true };

export function setFusebox(ctx: OpContext, fusebox: DbSyncFuseboxRecord): DbSyncFuseboxRecord {
  ctx.tables.dbSyncFusebox.set("fusebox", fusebox);
  return fusebox;
}
