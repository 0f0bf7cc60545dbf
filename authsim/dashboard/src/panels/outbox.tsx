import { useState } from "react";
import { control, type Email, type ProjectEntry } from "../api.ts";
import { CopyButton, ErrorBox, formatTime, Section, useAction, useInterval, useLoad } from "../ui.tsx";

/**
 * Every email the emulator "sent" (Mailpit-style): newest first, polled, and below them those still on their way
 * (preparing in the queue, scheduled, paused) with the instant each is due; the rendered HTML in a sandboxed frame (no
 * scripts; its links open in a new tab), the text version, and the link, code and OTP ready to click or copy.
 */
export function OutboxPanel({ project }: { project: ProjectEntry | null }) {
  const [allProjects, setAllProjects] = useState(false);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const projectFilter = allProjects || !project ? undefined : project.id;
  const outbox = useLoad(
    () => control.call("emails", { query: projectFilter ? { projectId: projectFilter } : {} }),
    projectFilter ?? "all",
  );
  const emails = { ...outbox, data: outbox.data && [...outbox.data.items].reverse() };
  useInterval(emails.reload, 2_000);
  const action = useAction();
  const clear = () => action.run(() => control.call("clearEmails")).then(emails.reload);
  const queued = useLoad(
    () =>
      control.call("queuedEmails", { query: projectFilter ? { projectId: projectFilter } : {} }).then((r) => r.items),
    `queued-${projectFilter ?? "all"}`,
  );
  useInterval(queued.reload, 2_000);
  const selected = emails.data?.find((e) => e.id === selectedId) ?? emails.data?.[0] ?? null;
  return (
    <div className="split">
      <Section
        title="Outbox"
        actions={
          <>
            <label className="check">
              <input type="checkbox" checked={allProjects} onChange={(e) => setAllProjects(e.target.checked)} /> all
              projects
            </label>
            <button onClick={() => void clear()}>Clear outbox</button>
          </>
        }
      >
        <ErrorBox error={emails.error ?? action.error} />
        {(outbox.data?.dropped ?? 0) > 0 && (
          <p className="muted" data-testid="outbox-dropped">
            {outbox.data!.dropped} older emails were dropped: the outbox keeps the newest (--outbox-capacity).
          </p>
        )}
        <table data-testid="outbox">
          <thead>
            <tr>
              <th>Sent</th>
              <th>To</th>
              <th>Subject</th>
              <th>Kind</th>
            </tr>
          </thead>
          <tbody>
            {(emails.data ?? []).map((e) => (
              <tr
                key={e.id}
                className={e.id === selected?.id ? "selected clickable" : "clickable"}
                onClick={() => setSelectedId(e.id)}
              >
                <td>{formatTime(e.sentAtMillis)}</td>
                <td>{e.to.join(", ")}</td>
                <td>{e.subject}</td>
                <td>
                  <span className="badge">{e.kind}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {emails.data?.length === 0 && (
          <p className="muted">No emails yet. Sign up, reset a password or invite someone, and they appear here.</p>
        )}
        {(queued.data?.length ?? 0) > 0 && (
          <table data-testid="outbox-queued">
            <thead>
              <tr>
                <th>On its way</th>
                <th>To</th>
                <th>Subject</th>
                <th>Due (emulator time)</th>
              </tr>
            </thead>
            <tbody>
              {queued.data!.map((q) => (
                <tr key={q.id}>
                  <td>
                    <span className="badge">{q.status}</span>
                  </td>
                  <td>{q.to.join(", ") || "the user's primary email"}</td>
                  <td>{q.subject ?? "(not rendered yet)"}</td>
                  <td>{q.dueAtMillis === null ? "when resumed" : formatTime(q.dueAtMillis)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      {selected && <EmailView key={selected.id} email={selected} />}
    </div>
  );
}

/** Links in the email open in a new tab: the frame may open popups but runs no script and reaches nothing else. */
const framed = (html: string) => `<base target="_blank">${html}`;

function EmailView({ email }: { email: Email }) {
  const [view, setView] = useState<"html" | "text">("html");
  return (
    <Section title={email.subject}>
      <dl className="facts">
        <dt>To</dt>
        <dd>{email.to.join(", ")}</dd>
        <dt>Sent</dt>
        <dd>{formatTime(email.sentAtMillis)}</dd>
        {email.link && (
          <>
            <dt>Link</dt>
            <dd>
              <a href={email.link} target="_blank" rel="noreferrer" data-testid="email-link">
                {email.link}
              </a>{" "}
              <CopyButton value={email.link} label="Copy link" />
            </dd>
          </>
        )}
        {email.otp && (
          <>
            <dt>OTP</dt>
            <dd>
              <code data-testid="email-otp">{email.otp}</code> <CopyButton value={email.otp} label="Copy OTP" />
            </dd>
          </>
        )}
        {email.code && (
          <>
            <dt>Code</dt>
            <dd>
              <code className="wrap" data-testid="email-code">
                {email.code}
              </code>{" "}
              <CopyButton value={email.code} label="Copy code" />
            </dd>
          </>
        )}
      </dl>
      <div className="inline">
        <button className={view === "html" ? "active" : undefined} onClick={() => setView("html")}>
          HTML
        </button>
        <button className={view === "text" ? "active" : undefined} onClick={() => setView("text")}>
          Text
        </button>
      </div>
      {view === "html" ? (
        <iframe
          title="Email body"
          className="email"
          sandbox="allow-popups allow-popups-to-escape-sandbox"
          srcDoc={framed(email.html)}
        />
      ) : (
        <pre className="email-text">{email.text}</pre>
      )}
    </Section>
  );
}
