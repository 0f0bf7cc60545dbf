import { json } from "../../api/http/respond.ts";
import { fixtureState, keyHint, liveState, liveStateReason, storeState, type StateFound } from "../safety/live-keys.ts";
import { Store, type StoreSnapshot } from "../../domain/store/store.ts";

/**
 * The control endpoints fail closed like the dev server's startup (cli-safety.ts): a restore, a fixture or a project
 * body that would bring a live-looking key or a real-service trusted domain is answered 400 before anything is
 * written, so the state is unchanged. Only what arrives over HTTP is checked here; the in-process API is not (see
 * emulator/safety/live-keys.ts for why).
 */
export function liveStateRefusal(what: string, found: StateFound): Response | null {
  const reason = liveStateReason(
    `Refused: ${what} looks like a real project's; nothing was changed.`,
    "the request body",
    found,
  );
  if (reason === null) return null;
  const { keys, domains } = liveState(found);
  return json(
    {
      error: reason,
      // The same facts, for scripts: a key's first 8 characters only.
      refused: {
        keys: keys.map((k) => ({ where: k.what, starts_with: keyHint(k.value) })),
        domains: domains.map((d) => ({ where: d.what, domain: d.value })),
      },
    },
    400,
  );
}

/**
 * A snapshot's keys and domains, read the way the dev server reads a restored --snapshot file (storeState on typed
 * tables, whatever the file's layout) but in a scratch store, so the live state is untouched until the check passes.
 */
export function snapshotState(snapshot: StoreSnapshot): StateFound {
  const scratch = new Store();
  scratch.restore(snapshot);
  return storeState({ apiKeySets: scratch.read.apiKeySets.values(), projects: scratch.read.projects.values() });
}

/** A project body of POST/PATCH /__emulator/projects, read as a one-project fixture (its keys and config.domains). */
export function projectBodyState(project: {
  id?: string | undefined;
  display_name?: string | undefined;
  keys?: unknown;
  config?: unknown;
}): StateFound {
  // Named by id when given, else by its display name: a new project has no id yet.
  const id = project.id ?? (project.display_name !== undefined ? `"${project.display_name}"` : undefined);
  return fixtureState({ projects: [{ id, keys: project.keys, config: project.config }] });
}
