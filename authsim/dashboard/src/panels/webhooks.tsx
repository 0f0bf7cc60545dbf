import { useState } from "react";
import type { WebhookAttemptView, WebhookMessageView } from "@authsim/sdk/emulator";
import { control, type ProjectEntry } from "../api.ts";
import { CopyButton, ErrorBox, formatTime, jsonText, Section, useAction, useInterval, useLoad } from "../ui.tsx";

/**
 * The project's webhooks (its Svix application): endpoints with their signing secrets and a form to add one, the
 * messages announced, newest first, with each endpoint's delivery state, and a message's attempts (status, answer,
 * duration) with "Resend". Polled, as the outbox is.
 */
export function WebhooksPanel({ project }: { project: ProjectEntry }) {
  const query = { query: { projectId: project.id } };
  const endpoints = useLoad(
    () => control.call("webhookEndpoints", query).then((r) => r.items),
    `endpoints-${project.id}`,
  );
  const messages = useLoad(() => control.call("webhookMessages", query).then((r) => r.items), `messages-${project.id}`);
  const attempts = useLoad(() => control.call("webhookAttempts", query).then((r) => r.items), `attempts-${project.id}`);
  const reload = () => {
    endpoints.reload();
    messages.reload();
    attempts.reload();
  };
  useInterval(reload, 2_000);
  const [url, setUrl] = useState("");
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const action = useAction();
  const add = () =>
    action
      .run(() => control.call("addWebhookEndpoint", { body: { projectId: project.id, url } }))
      .then(() => (setUrl(""), reload()));
  const selected = messages.data?.find((m) => m.id === selectedId) ?? messages.data?.[0] ?? null;
  return (
    <div className="split">
      <div>
        <Section title="Endpoints">
          <ErrorBox error={endpoints.error ?? action.error} />
          <table data-testid="webhook-endpoints">
            <thead>
              <tr>
                <th>URL</th>
                <th>Events</th>
                <th>Secret</th>
              </tr>
            </thead>
            <tbody>
              {(endpoints.data ?? []).map((e) => (
                <tr key={e.id}>
                  <td>{e.url}</td>
                  <td>{e.filterTypes?.join(", ") ?? "all"}</td>
                  <td>
                    <CopyButton value={e.secret} label="Copy secret" />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <form
            className="inline"
            onSubmit={(e) => {
              e.preventDefault();
              void add();
            }}
          >
            <input
              aria-label="Endpoint URL"
              placeholder="http://localhost:3000/api/webhooks"
              size={40}
              value={url}
              onChange={(e) => setUrl(e.target.value)}
            />
            <button type="submit" disabled={action.busy || url === ""}>
              Add endpoint
            </button>
          </form>
        </Section>
        <Section title="Messages">
          <ErrorBox error={messages.error} />
          <table data-testid="webhook-messages">
            <thead>
              <tr>
                <th>Sent</th>
                <th>Event</th>
                <th>Deliveries</th>
              </tr>
            </thead>
            <tbody>
              {(messages.data ?? []).map((m) => (
                <tr
                  key={m.id}
                  className={m.id === selected?.id ? "selected clickable" : "clickable"}
                  onClick={() => setSelectedId(m.id)}
                >
                  <td>{formatTime(m.timestampMillis)}</td>
                  <td>
                    <span className="badge">{m.eventType}</span>
                  </td>
                  <td>
                    {m.deliveries
                      .map(
                        (d) =>
                          `${d.status}${d.nextAttemptAtMillis !== null && d.status === "pending" ? ` (next ${formatTime(d.nextAttemptAtMillis)})` : ""}`,
                      )
                      .join(", ") || "no endpoint"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {messages.data?.length === 0 && (
            <p className="muted">No messages yet. Add an endpoint, then create or change a user or a team.</p>
          )}
        </Section>
      </div>
      {selected && (
        <MessageView
          key={selected.id}
          message={selected}
          attempts={(attempts.data ?? []).filter((a) => a.msgId === selected.id)}
          onResent={reload}
        />
      )}
    </div>
  );
}

function MessageView({
  message,
  attempts,
  onResent,
}: {
  message: WebhookMessageView;
  attempts: WebhookAttemptView[];
  onResent: () => void;
}) {
  const action = useAction();
  const resend = (endpointId: string) =>
    action
      .run(() =>
        control.call("resendWebhook", { body: { projectId: message.projectId, msgId: message.id, endpointId } }),
      )
      .then(onResent);
  return (
    <Section title={message.eventType}>
      <ErrorBox error={action.error} />
      <dl className="facts">
        <dt>Message</dt>
        <dd>
          <code>{message.id}</code>
        </dd>
        <dt>Sent</dt>
        <dd>{formatTime(message.timestampMillis)}</dd>
      </dl>
      <table data-testid="webhook-attempts">
        <thead>
          <tr>
            <th>When</th>
            <th>Endpoint</th>
            <th>Status</th>
            <th>Answer</th>
            <th>ms</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {attempts.map((a) => (
            <tr key={a.id}>
              <td>{formatTime(a.atMillis)}</td>
              <td>{a.url}</td>
              <td>
                <span className="badge">
                  {a.status === "success"
                    ? `${a.statusCode} ok`
                    : a.statusCode === 0
                      ? "no answer"
                      : `${a.statusCode} failed`}
                </span>
                {a.manual && <span className="muted"> resent</span>}
              </td>
              <td className="wrap">{a.response}</td>
              <td>{a.durationMillis}</td>
              <td>
                <button
                  type="button"
                  className="small"
                  disabled={action.busy}
                  onClick={() => void resend(a.endpointId)}
                >
                  Resend
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {attempts.length === 0 && <p className="muted">No attempt yet.</p>}
      <pre className="email-text">{jsonText(message.payload)}</pre>
    </Section>
  );
}
