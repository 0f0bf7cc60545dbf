import type { ProjectRecord } from "../store/records.ts";
import type { Tables } from "../store/store.ts";

/**
 * A user of the `internal` project manages the projects owned by the teams they belong to (protocol.md §2.3, §8).
 */
export function managesProject(tables: Tables, internalUserId: string, project: ProjectRecord): boolean {
  if (project.ownerTeamId === null) return false;
  return tables.teamMemberships.has(`${project.ownerTeamId}:${internalUserId}`);
}
