import { useState } from "react";
import { Section } from "../ui.tsx";
import { Check, Entry, entriesOf, Text, type Edit } from "./fields.tsx";

/** The provider types of the real config schema, in its order. */
const PROVIDERS = [
  "google",
  "github",
  "microsoft",
  "spotify",
  "facebook",
  "discord",
  "gitlab",
  "bitbucket",
  "linkedin",
  "apple",
  "x",
  "twitch",
];
const MAP = "auth.oauth.providers";

/**
 * OAuth providers (config `auth.oauth.providers.<id>`): shared keys (the service's own OAuth app, offered for a few
 * providers) or the app's own client id and secret. Each provider is written whole, as the real dashboard writes it.
 */
export function OAuthProviders({ edit }: { edit: Edit }) {
  const providers = entriesOf(edit, MAP);
  const free = PROVIDERS.filter((p) => !providers.some(([id]) => id === p));
  const [choice, setChoice] = useState("");
  const add = () => {
    const id = choice || free[0];
    if (!id) return;
    edit.set(`${MAP}.${id}`, { type: id, isShared: true, allowSignIn: true, allowConnectedAccounts: true });
    setChoice("");
  };
  return (
    <Section title="OAuth providers">
      {providers.length === 0 && <p className="muted">No OAuth provider is enabled.</p>}
      {providers.map(([id, p]) => (
        <Entry key={id} edit={edit} path={`${MAP}.${id}`} title={id}>
          <Check edit={edit} path={`${MAP}.${id}.isShared`} label="Shared keys" />
          {p.isShared === false && (
            <>
              <Text edit={edit} path={`${MAP}.${id}.clientId`} label={`${id} client id`} />
              <Text edit={edit} path={`${MAP}.${id}.clientSecret`} label={`${id} client secret`} type="password" />
            </>
          )}
          <Check edit={edit} path={`${MAP}.${id}.allowSignIn`} label="Sign-in" />
          <Check edit={edit} path={`${MAP}.${id}.allowConnectedAccounts`} label="Connected accounts" />
        </Entry>
      ))}
      {free.length > 0 && (
        <div className="inline">
          <label>
            Provider
            <select
              aria-label="New OAuth provider"
              value={choice || free[0]}
              onChange={(e) => setChoice(e.target.value)}
            >
              {free.map((p) => (
                <option key={p}>{p}</option>
              ))}
            </select>
          </label>
          <button type="button" onClick={add}>
            Add provider
          </button>
        </div>
      )}
    </Section>
  );
}
