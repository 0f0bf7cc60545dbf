import { Section } from "../ui.tsx";
import { PermissionCheck, type ProjectEdit } from "./project-fields.tsx";

/**
 * Default permissions (the project's `*_default_permissions`): what a team's creator and its members are granted in
 * it, and what every new user is granted project-wide. Definitions are made on the Permissions tab.
 */
export function DefaultPermissions({
  project,
  team,
  projectWide,
}: {
  project: ProjectEdit;
  team: string[];
  projectWide: string[];
}) {
  const group = (
    title: string,
    list: "team_creator_default_permissions" | "team_member_default_permissions" | "user_default_permissions",
    ids: string[],
  ) => (
    <fieldset className="entry" aria-label={title}>
      <legend>{title}</legend>
      <div className="entry-fields">
        {ids.length === 0 && (
          <span className="muted">
            No {list === "user_default_permissions" ? "project" : "team"} permissions are defined.
          </span>
        )}
        {ids.map((id) => (
          <PermissionCheck key={id} edit={project} list={list} id={id} />
        ))}
      </div>
    </fieldset>
  );
  return (
    <Section title="Default permissions">
      {group("Team creator", "team_creator_default_permissions", team)}
      {group("Team member", "team_member_default_permissions", team)}
      {group("Every new user", "user_default_permissions", projectWide)}
    </Section>
  );
}
