import type { AdminProjectJson } from "../contract/areas/projects.ts";
import type { AdminAccessTokenProvider } from "../session/admin-session.ts";
import type { StackClientAppOptions } from "./app-options.ts";

/**
 * An `internal` user's owned projects come with an admin app for each (sdk-surface.md §17 AdminOwnedProject), but the
 * admin app builds on the server and client apps, so the client layer may not import it (docs/ARCHITECTURE.md, "Import
 * rules"). The client declares here what it needs and the admin layer fills it in (admin/owned-project-apps.ts, which
 * the package entry imports):
 * - the types, by declaration merging into OwnedProjectTypes, so users still see ManagedAdminProject and the
 *   StackAdminApp class themselves;
 * - at run time, the function that opens an owned project with an admin app (registerOwnedProjectOpener).
 */

/** Merged by admin/owned-project-apps.ts: `{ project: ManagedAdminProject; app: StackAdminApp }`. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by declaration merging (above)
export interface OwnedProjectTypes {}

export type AdminOwnedProject = OwnedProjectTypes extends { project: infer P; app: infer A }
  ? P & { readonly app: A }
  : never;

/**
 * Opens an owned project: an admin app on the project, authenticated by the owner's session and (spec §5) with no token
 * store of its own, reusing the owner app's base URL, fetch, clock and the rest of its platform options.
 */
export type OwnedProjectOpener = (
  ownerAppOptions: StackClientAppOptions,
  ownerSession: AdminAccessTokenProvider,
  json: AdminProjectJson,
) => Promise<AdminOwnedProject>;

let opener: OwnedProjectOpener | undefined;

export function registerOwnedProjectOpener(open: OwnedProjectOpener): void {
  opener = open;
}

export function openOwnedProject(
  ownerAppOptions: StackClientAppOptions,
  ownerSession: AdminAccessTokenProvider,
  json: AdminProjectJson,
): Promise<AdminOwnedProject> {
  // Only a deep import past the package's entry can get here without one: say what is missing rather than fail later.
  if (!opener)
    throw new Error(
      "Owned projects need the admin app: import the SDK through its package entry (@authsim/sdk), which registers it.",
    );
  return opener(ownerAppOptions, ownerSession, json);
}
