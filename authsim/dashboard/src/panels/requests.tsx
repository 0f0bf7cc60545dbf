import { useState } from "react";
import { control, type ProjectEntry } from "../api.ts";
import { ErrorBox, formatTime, Section, useAction, useInterval, useLoad } from "../ui.tsx";

/**
 * The request log: each /api/v1 request with its status, known-error code and why (the rule that decided it), newest
 * first, polled. The dashboard's own calls are hidden unless asked for.
 */
const statusClass = (status: number | null) =>
  status === null ? "dropped" : status >= 500 ? "s5" : status >= 400 ? "s4" : "s2";

export function RequestsPanel({ project }: { project: ProjectEntry | null }) {
  const [status, setStatus] = useState("");
  const [path, setPath] = useState("");
  const [thisProject, setThisProject] = useState(false);
  const [showOwn, setShowOwn] = useState(false);
  const filter = {
    ...(status ? { status } : {}),
    ...(path ? { path } : {}),
    ...(thisProject && project ? { projectId: project.id } : {}),
    ...(showOwn ? {} : { excludeDashboard: true }),
    limit: 300,
  };
  const page = useLoad(() => control.call("requests", { query: filter }), control.url("requests", { query: filter }));
  const log = { ...page, data: page.data && [...page.data.items].reverse() };
  useInterval(log.reload, 1_500);
  const action = useAction();
  return (
    <Section
      title="Requests"
      actions={
        <button onClick={() => void action.run(() => control.call("clearRequests")).then(log.reload)}>Clear log</button>
      }
    >
      <div className="inline filters">
        <label>
          Status
          <select aria-label="Status filter" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">any</option>
            <option value="2xx">2xx</option>
            <option value="4xx">4xx</option>
            <option value="5xx">5xx</option>
          </select>
        </label>
        <label>
          Path contains <input value={path} onChange={(e) => setPath(e.target.value)} />
        </label>
        <label className="check">
          <input type="checkbox" checked={thisProject} onChange={(e) => setThisProject(e.target.checked)} /> this
          project only
        </label>
        <label className="check">
          <input type="checkbox" checked={showOwn} onChange={(e) => setShowOwn(e.target.checked)} /> show the
          dashboard's own requests
        </label>
      </div>
      <ErrorBox error={log.error ?? action.error} />
      {(page.data?.dropped ?? 0) > 0 && (
        <p className="muted" data-testid="requests-dropped">
          {page.data!.dropped} older requests fell out of the log: it keeps the newest (--request-log-capacity).
        </p>
      )}
      <table data-testid="requests" className="log">
        <thead>
          <tr>
            <th>Time</th>
            <th>Request</th>
            <th>Status</th>
            <th>Known error</th>
            <th>Why</th>
            <th>ms</th>
          </tr>
        </thead>
        <tbody>
          {(log.data ?? []).map((e) => (
            <tr key={e.seq} data-status={e.status ?? "dropped"}>
              <td>{formatTime(e.atMillis)}</td>
              <td>
                <code>
                  {e.method} {e.path}
                  {e.query ? `?${e.query}` : ""}
                </code>
                <div className="muted">
                  {e.accessType ?? "no access type"}
                  {e.operationId && ` · ${e.operationId}`}
                  {e.userId && ` · user ${e.userId.slice(0, 8)}`}
                </div>
              </td>
              <td>
                <span className={`status ${statusClass(e.status)}`}>{e.status ?? "dropped"}</span>
              </td>
              <td>{e.knownError && <code>{e.knownError}</code>}</td>
              <td>
                <ul className="why">
                  {e.why.map((w, i) => (
                    <li key={i}>{w}</li>
                  ))}
                </ul>
              </td>
              <td>{e.durationMillis.toFixed(1)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {log.data?.length === 0 && <p className="muted">No requests yet (or none match).</p>}
    </Section>
  );
}
