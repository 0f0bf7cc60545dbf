import { useEffect, useState } from "react";
import type { ControlAnswer } from "@authsim/sdk/emulator";
import { control } from "./api.ts";
import { ClockBar } from "./panels/clock.tsx";
import { FaultsPanel } from "./panels/faults.tsx";
import { ItemsPanel } from "./panels/items.tsx";
import { OutboxPanel } from "./panels/outbox.tsx";
import { PermissionsPanel } from "./panels/permissions.tsx";
import { ProjectsPanel } from "./panels/projects.tsx";
import { RequestsPanel } from "./panels/requests.tsx";
import { SettingsPanel } from "./panels/settings.tsx";
import { SnapshotsPanel } from "./panels/snapshots.tsx";
import { TeamsPanel } from "./panels/teams.tsx";
import { UsersPanel } from "./panels/users.tsx";
import { WebhooksPanel } from "./panels/webhooks.tsx";
import { ErrorBox, useInterval, useLoad } from "./ui.tsx";

/**
 * The emulator's dashboard: one page, a tab per area (routed by #hash, so any dashboard URL serves the same file),
 * the selected project kept in localStorage. Every panel reads and writes the emulator only through its endpoints.
 */
const tabs = [
  ["projects", "Projects"],
  ["settings", "Settings"],
  ["users", "Users"],
  ["teams", "Teams"],
  ["permissions", "Permissions"],
  ["items", "Items"],
  ["outbox", "Outbox"],
  ["webhooks", "Webhooks"],
  ["requests", "Requests"],
  ["faults", "Faults"],
  ["snapshots", "Snapshots"],
] as const;
type Tab = (typeof tabs)[number][0];

/** The tabs that show a count: the selected project's users and emails, and the requests the log lists by default. */
type Counts = ControlAnswer<"counts">;
const countOf: Partial<Record<Tab, keyof Counts>> = { users: "users", outbox: "emails", requests: "requests" };

const tabOf = (hash: string): Tab => tabs.find(([id]) => `#${id}` === hash)?.[0] ?? "projects";
const PROJECT_KEY = "authsim-dashboard-project";

export function App() {
  const [tab, setTab] = useState<Tab>(tabOf(location.hash));
  const [projectId, setProjectId] = useState<string | null>(localStorage.getItem(PROJECT_KEY));
  const projects = useLoad(() => control.call("projects").then((r) => r.items), "projects");
  useEffect(() => {
    const onHash = () => setTab(tabOf(location.hash));
    addEventListener("hashchange", onHash);
    return () => removeEventListener("hashchange", onHash);
  }, []);
  const list = projects.data ?? [];
  const project = list.find((p) => p.id === projectId) ?? list[0] ?? null;
  const counts = useLoad(
    () => (project ? control.call("counts", { query: { projectId: project.id } }) : Promise.resolve(null)),
    project?.id ?? "",
  );
  useInterval(counts.reload, 3_000);
  const select = (id: string) => {
    localStorage.setItem(PROJECT_KEY, id);
    setProjectId(id);
  };

  return (
    <div className="layout">
      <header className="top">
        <h1>authsim emulator</h1>
        <label className="project-select">
          Project
          <select aria-label="Project" value={project?.id ?? ""} onChange={(e) => select(e.target.value)}>
            {list.map((p) => (
              <option key={p.id} value={p.id}>
                {p.display_name}
              </option>
            ))}
          </select>
        </label>
        <ClockBar />
      </header>
      <nav aria-label="Sections">
        {tabs.map(([id, label]) => {
          const counted = countOf[id];
          const count = counted && counts.data ? counts.data[counted] : undefined;
          return (
            <a key={id} href={`#${id}`} aria-current={tab === id ? "page" : undefined}>
              {label}
              {count !== undefined && " "}
              {count !== undefined && (
                <span className="count" data-testid={`count-${id}`}>
                  {count}
                </span>
              )}
            </a>
          );
        })}
        {/* Served by the emulator itself (openapi/), outside this app: a new tab keeps the dashboard's state. */}
        <a href="/__emulator/api-reference" target="_blank" rel="noreferrer">
          API reference ↗
        </a>
      </nav>
      <main>
        <ErrorBox error={projects.error} />
        {tab === "projects" && (
          <ProjectsPanel projects={list} selected={project} onSelect={select} onChanged={projects.reload} />
        )}
        {project && tab === "settings" && <SettingsPanel key={project.id} project={project} />}
        {project && tab === "users" && <UsersPanel key={project.id} project={project} />}
        {project && tab === "teams" && <TeamsPanel key={project.id} project={project} />}
        {project && tab === "permissions" && <PermissionsPanel key={project.id} project={project} />}
        {project && tab === "items" && <ItemsPanel key={project.id} project={project} />}
        {tab === "outbox" && <OutboxPanel project={project} />}
        {project && tab === "webhooks" && <WebhooksPanel key={project.id} project={project} />}
        {tab === "requests" && <RequestsPanel project={project} />}
        {tab === "faults" && <FaultsPanel project={project} />}
        {tab === "snapshots" && <SnapshotsPanel onRestored={projects.reload} />}
      </main>
    </div>
  );
}
