import { useState, type FormEvent } from "react";
import { productionModeErrors } from "@authsim/sdk/urls";
import { Section } from "../ui.tsx";
import { Check, Entry, entriesOf, Text, type Edit } from "./fields.tsx";
import { getPath } from "./model.ts";
import type { ProjectEdit } from "./project-fields.tsx";

const MAP = "domains.trustedDomains";

/**
 * Trusted domains (config `domains.*`): where the service may redirect (OAuth callbacks, emailed links). Production
 * mode is the project's flag; the service checks the domains against it on every change and refuses with its message.
 */
export function TrustedDomains({ edit, project }: { edit: Edit; project: ProjectEdit }) {
  const [url, setUrl] = useState("");
  const [handlerPath, setHandlerPath] = useState("/handler");
  const production = project.draft.is_production_mode;
  const domains = entriesOf(edit, MAP);
  // The same checks the service runs (the SDK's domain module), on the draft: a person sees them before applying.
  const problems = productionModeErrors({
    allowLocalhost: getPath(edit.draft, "domains.allowLocalhost") === true,
    domains: domains.map(([, d]) => ({ domain: typeof d.baseUrl === "string" ? d.baseUrl : "" })),
  });
  const add = (event: FormEvent) => {
    event.preventDefault();
    // The real dashboard names a new domain with a fresh UUID.
    edit.set(`${MAP}.${crypto.randomUUID()}`, { baseUrl: url.trim(), handlerPath: handlerPath || "/handler" });
    setUrl("");
  };
  return (
    <Section title="Trusted domains">
      <div className="stack">
        <Check
          edit={edit}
          path="domains.allowLocalhost"
          label="Allow localhost"
          hint="redirects to localhost and 127.x are trusted"
        />
        <label className={`check${production !== project.base.is_production_mode ? " changed" : ""}`}>
          <input
            type="checkbox"
            checked={production}
            onChange={(e) => project.set({ is_production_mode: e.target.checked })}
          />
          <span>
            Production mode <span className="muted hint">the service then refuses localhost and non-HTTPS domains</span>
          </span>
        </label>
      </div>
      {problems.length > 0 && (
        <div className={production ? "error" : "muted"} data-testid="production-checks">
          {production
            ? "Production mode flags these (the admin kit's production checks; the service stores the setting):"
            : "Production mode would flag these:"}
          <ul>
            {problems.map((p) => (
              <li key={p.message}>{p.message}</li>
            ))}
          </ul>
        </div>
      )}
      {domains.map(([id, d]) => (
        <Entry key={id} edit={edit} path={`${MAP}.${id}`} title={typeof d.baseUrl === "string" ? d.baseUrl : id}>
          <Text edit={edit} path={`${MAP}.${id}.baseUrl`} label="Base URL" type="url" />
          <Text edit={edit} path={`${MAP}.${id}.handlerPath`} label="Handler path" />
        </Entry>
      ))}
      <form className="inline" onSubmit={add}>
        <label>
          Domain{" "}
          <input
            aria-label="New trusted domain"
            placeholder="https://app.example.com"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            required
          />
        </label>
        <label>
          Handler path{" "}
          <input
            aria-label="New domain's handler path"
            value={handlerPath}
            onChange={(e) => setHandlerPath(e.target.value)}
          />
        </label>
        <button type="submit">Add domain</button>
      </form>
    </Section>
  );
}
