import { useState } from "react";
import type { FaultRuleInput } from "@authsim/sdk/emulator";
import { control, type FaultRule, type ProjectEntry } from "../api.ts";
import { ErrorBox, Section, useAction, useInterval, useLoad } from "../ui.tsx";

/** Fault rules (msw-style, inside the emulator): the live rules with their counters, presets, and a form for any rule. */
type ActionType = FaultRule["action"]["type"];
type Method = NonNullable<FaultRuleInput["method"]>;
const methods: readonly Method[] = ["GET", "POST", "PATCH", "PUT", "DELETE"];

const describe = (a: FaultRule["action"]) =>
  a.type === "status"
    ? `status ${a.status}${a.headers?.["retry-after"] ? ` (Retry-After ${a.headers["retry-after"]})` : ""}`
    : a.type === "known-error"
      ? `known error ${a.code}`
      : a.type === "latency"
        ? `${a.millis} ms latency`
        : "drop the connection";

const presets: { label: string; action: FaultRule["action"] }[] = [
  {
    label: "429 Retry-After 2",
    action: { type: "status", status: 429, headers: { "retry-after": "2" }, body: "Too many requests" },
  },
  { label: "508 loop", action: { type: "status", status: 508, body: "INFINITE_LOOP_DETECTED" } },
  { label: "503", action: { type: "status", status: 503, body: "Service unavailable" } },
  { label: "Drop", action: { type: "drop" } },
];

const commonCodes = [
  "EMAIL_PASSWORD_MISMATCH",
  "USER_NOT_FOUND",
  "PROJECT_NOT_FOUND",
  "ACCESS_TOKEN_EXPIRED",
  "INVALID_ACCESS_TOKEN",
  "VERIFICATION_CODE_EXPIRED",
];

export function FaultsPanel({ project }: { project: ProjectEntry | null }) {
  const rules = useLoad(() => control.call("faults").then((r) => r.items), "faults");
  useInterval(rules.reload, 2_000);
  const [method, setMethod] = useState<Method | "">("");
  const [path, setPath] = useState("/users/me");
  const [onlyThisProject, setOnlyThisProject] = useState(true);
  const [type, setType] = useState<ActionType>("status");
  const [status, setStatus] = useState("429");
  const [retryAfter, setRetryAfter] = useState("2");
  const [code, setCode] = useState("EMAIL_PASSWORD_MISMATCH");
  const [millis, setMillis] = useState("800");
  const [times, setTimes] = useState("1");
  const [probability, setProbability] = useState("1");
  const action = useAction();

  const formAction = (): FaultRule["action"] =>
    type === "status"
      ? { type, status: Number(status), ...(retryAfter ? { headers: { "retry-after": retryAfter } } : {}) }
      : type === "known-error"
        ? { type, code }
        : type === "latency"
          ? { type, millis: Number(millis) }
          : { type: "drop" };
  const add = (ruleAction: FaultRule["action"]) =>
    action
      .run(() =>
        control.call("addFault", {
          body: {
            path,
            action: ruleAction,
            ...(method ? { method } : {}),
            ...(onlyThisProject && project ? { projectId: project.id } : {}),
            times: times === "" ? null : Number(times),
            probability: Number(probability),
          },
        }),
      )
      .then(rules.reload);
  const remove = (id: string) => action.run(() => control.call("removeFault", { params: { id } })).then(rules.reload);

  return (
    <>
      <Section
        title="Fault rules"
        actions={
          <button onClick={() => void action.run(() => control.call("clearFaults")).then(rules.reload)}>
            Remove all
          </button>
        }
      >
        <ErrorBox error={rules.error ?? action.error} />
        <table data-testid="faults">
          <thead>
            <tr>
              <th>Match</th>
              <th>Answer</th>
              <th>Left</th>
              <th>Chance</th>
              <th>Hits</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {(rules.data ?? []).map((r) => (
              <tr key={r.id}>
                <td>
                  <code>
                    {r.method ?? "any"} {r.path}
                  </code>
                  {r.projectId && <div className="muted">project {r.projectId.slice(0, 8)}</div>}
                </td>
                <td>{describe(r.action)}</td>
                <td>{r.remaining ?? "until removed"}</td>
                <td>{r.probability}</td>
                <td>{r.hits}</td>
                <td>
                  <button className="small" onClick={() => void remove(r.id)}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {rules.data?.length === 0 && <p className="muted">No rules: every request is answered normally.</p>}
      </Section>
      <Section title="Add a rule">
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            void add(formAction());
          }}
        >
          <div className="inline">
            <label>
              Method
              <select
                aria-label="Method"
                value={method}
                onChange={(e) => setMethod(methods.find((m) => m === e.target.value) ?? "")}
              >
                <option value="">any</option>
                {methods.map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
            </label>
            <label>
              Path under /api/v1{" "}
              <input
                value={path}
                onChange={(e) => setPath(e.target.value)}
                required
                placeholder="/users/me, /teams/*, /**"
              />
            </label>
            <label className="check">
              <input type="checkbox" checked={onlyThisProject} onChange={(e) => setOnlyThisProject(e.target.checked)} />{" "}
              this project only
            </label>
          </div>
          <div className="inline">
            <label>
              Answer
              <select aria-label="Answer" value={type} onChange={(e) => setType(e.target.value as ActionType)}>
                <option value="status">status</option>
                <option value="known-error">known error</option>
                <option value="latency">latency</option>
                <option value="drop">dropped connection</option>
              </select>
            </label>
            {type === "status" && (
              <>
                <label>
                  Status{" "}
                  <input type="number" value={status} onChange={(e) => setStatus(e.target.value)} min={200} max={599} />
                </label>
                <label>
                  Retry-After <input value={retryAfter} onChange={(e) => setRetryAfter(e.target.value)} size={4} />
                </label>
              </>
            )}
            {type === "known-error" && (
              <label>
                Code <input list="known-error-codes" value={code} onChange={(e) => setCode(e.target.value)} />
                <datalist id="known-error-codes">
                  {commonCodes.map((c) => (
                    <option key={c} value={c} />
                  ))}
                </datalist>
              </label>
            )}
            {type === "latency" && (
              <label>
                Milliseconds <input type="number" value={millis} onChange={(e) => setMillis(e.target.value)} min={0} />
              </label>
            )}
          </div>
          <div className="inline">
            <label>
              Times (empty = until removed) <input value={times} onChange={(e) => setTimes(e.target.value)} size={4} />
            </label>
            <label>
              Probability{" "}
              <input
                type="number"
                step="0.05"
                min={0}
                max={1}
                value={probability}
                onChange={(e) => setProbability(e.target.value)}
              />
            </label>
            <button type="submit" disabled={action.busy}>
              Add rule
            </button>
          </div>
          <div className="inline">
            <span className="muted">Presets for this path:</span>
            {presets.map((p) => (
              <button key={p.label} type="button" className="small" onClick={() => void add(p.action)}>
                {p.label}
              </button>
            ))}
          </div>
        </form>
      </Section>
    </>
  );
}
