import type { ProjectFields } from "./model.ts";

/** The project fields the editor changes through PATCH /internal/projects/current (see model.ts). */
export interface ProjectEdit {
  base: ProjectFields;
  draft: ProjectFields;
  set: (change: Partial<ProjectFields>) => void;
}

type PermissionList =
  "team_creator_default_permissions" | "team_member_default_permissions" | "user_default_permissions";

/** A checkbox for one permission of a default-permission list. */
export function PermissionCheck({ edit, list, id }: { edit: ProjectEdit; list: PermissionList; id: string }) {
  const on = edit.draft[list].includes(id);
  const changed = on !== edit.base[list].includes(id);
  const toggle = (checked: boolean) =>
    edit.set({ [list]: checked ? [...edit.draft[list], id] : edit.draft[list].filter((p) => p !== id) });
  return (
    <label className={`check${changed ? " changed" : ""}`}>
      <input type="checkbox" checked={on} onChange={(e) => toggle(e.target.checked)} />
      <code>{id}</code>
    </label>
  );
}
