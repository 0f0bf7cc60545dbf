import { providerMarkSvg, providerName } from "@authsim/sdk/runtime";
import { IDP_ERRORS } from "../../domain/ops/oauth/oauth-idp.ts";
import type { MockAccount } from "../../domain/ops/oauth/mock-identities.ts";
import type { OAuthFlowRecord } from "../../domain/store/strong-auth-records.ts";

/**
 * The mock identity provider's page: HTML with forms and no scripts, styles inline, the provider's mark inline, no
 * CDN — it works offline, in a browser, and for a test that posts the same form (field names below are the
 * programmatic interface). Every field comes prefilled with a generated account (domain/ops/oauth/mock-identities.ts), so a person
 * signs in with one click; accounts seen before at this provider are one click each too.
 *
 * Form fields (application/x-www-form-urlencoded): `action` = "allow" | "deny" | "error"; `account_id` (when empty,
 * the one the email stands for); `email`; `name`; `email_verified` ("true"/"false", the last value wins; absent =
 * true); `scope` (repeated, one per granted scope) — or `scopes` (space-separated), without any scope field every
 * requested scope is granted; `error` (with action "error": one of IDP_ERRORS). A GET with `email` shows the page
 * prefilled with the account that address stands for ("Use this email").
 */

export { providerName };

const escapeHtml = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** An account seen before at this provider on this emulator: its id, address and the name its user has now. */
export interface KnownAccount {
  accountId: string;
  email: string | null;
  name: string | null;
}

export interface IdpPageInput {
  flow: OAuthFlowRecord;
  projectName: string;
  /** Where the forms post (the page's own path with the inner state). */
  action: string;
  requested: readonly string[];
  known: readonly KnownAccount[];
  /** The account the form comes filled with. */
  suggested: MockAccount;
}

const initials = (text: string) =>
  text
    .split(/[\s@._-]+/)
    .filter((w) => w.length > 0)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join("");

const STYLE = `
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; background: #f3f4f6; }
main { max-width: 26rem; margin: 2.5rem auto; padding: 1.5rem; background: #fff; border: 1px solid #d8dee4; border-radius: 12px; box-shadow: 0 1px 3px rgba(31,35,40,.08); }
.brand { display: flex; align-items: center; gap: .6rem; margin-bottom: .25rem; }
h1 { font-size: 1.3rem; margin: 0; }
h2 { font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; color: #57606a; margin: 1.25rem 0 .5rem; }
p { margin: .5rem 0; }
.accounts { list-style: none; margin: 0; padding: 0; display: grid; gap: .5rem; }
.pick button { display: flex; align-items: center; gap: .75rem; width: 100%; padding: .55rem .75rem; text-align: left; background: #fff; border: 1px solid #d0d7de; border-radius: 8px; cursor: pointer; font: inherit; color: inherit; }
.pick button:hover { background: #f6f8fa; }
.avatar { flex: none; display: inline-grid; place-items: center; width: 2rem; height: 2rem; border-radius: 50%; background: #ddf4ff; color: #0550ae; font-weight: 600; font-size: .8rem; }
.who { min-width: 0; display: grid; }
.who strong, .who span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.who span { color: #57606a; font-size: .85rem; }
.field { display: grid; gap: .2rem; margin: .6rem 0; font-size: .9rem; }
.field input { width: 100%; min-width: 0; font: inherit; font-size: 1rem; padding: .45rem .6rem; border: 1px solid #d0d7de; border-radius: 6px; }
.with-button { display: flex; gap: .5rem; }
.with-button button { flex: none; }
.check { display: flex; align-items: center; gap: .4rem; margin: .3rem 0; font-size: .9rem; overflow-wrap: anywhere; }
fieldset { border: 1px solid #d8dee4; border-radius: 8px; margin: .75rem 0; padding: .25rem .75rem .5rem; }
legend { font-size: .9rem; padding: 0 .25rem; }
button { font: inherit; cursor: pointer; border-radius: 6px; padding: .5rem .9rem; border: 1px solid #d0d7de; background: #f6f8fa; color: #1f2328; }
button:hover { background: #eef1f4; }
.primary { display: block; width: 100%; margin-top: .75rem; background: #1f6feb; border-color: #1f6feb; color: #fff; font-weight: 600; }
.primary:hover { background: #1a5fcc; }
.default-submit { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); border: 0; }
details { margin-top: 1rem; border-top: 1px solid #d8dee4; padding-top: .75rem; }
summary { cursor: pointer; color: #57606a; font-size: .9rem; }
.outcomes { display: grid; gap: .5rem; margin-top: .5rem; }
.outcomes select { width: 100%; min-width: 0; font: inherit; padding: .45rem; border: 1px solid #d0d7de; border-radius: 6px; background: #fff; }
.danger { color: #cf222e; }
.note { color: #57606a; font-size: .85rem; margin-top: 1rem; }
code { font-size: .85em; overflow-wrap: anywhere; }
@media (max-width: 30rem) { main { margin: 0; min-height: 100vh; border: 0; border-radius: 0; box-shadow: none; padding: 1.25rem 1rem; } }
`;

export function idpPage(input: IdpPageInput): string {
  const { flow, projectName, action, requested, known, suggested } = input;
  const id = flow.providerConfigId;
  const name = providerName(id);
  const act = escapeHtml(action);
  const state = `<input type="hidden" name="state" value="${escapeHtml(flow.innerState)}">`;
  const picks = known
    .map((a) => {
      const label = a.name ?? a.email ?? a.accountId;
      return `<li><form method="post" action="${act}" class="pick">${state}
<input type="hidden" name="action" value="allow"><input type="hidden" name="account_id" value="${escapeHtml(a.accountId)}">
<input type="hidden" name="email" value="${escapeHtml(a.email ?? "")}"><input type="hidden" name="name" value="${escapeHtml(a.name ?? "")}"><input type="hidden" name="email_verified" value="true">
<button type="submit" aria-label="Continue as ${escapeHtml(a.email ?? label)}"><span class="avatar" aria-hidden="true">${escapeHtml(initials(label))}</span><span class="who"><strong>${escapeHtml(label)}</strong><span>${escapeHtml(a.email ?? `account ${a.accountId}`)}</span></span></button></form></li>`;
    })
    .join("\n");
  const scopeBoxes = requested
    .map(
      (s) =>
        `<label class="check"><input type="checkbox" name="scope" value="${escapeHtml(s)}" checked> <code>${escapeHtml(s)}</code></label>`,
    )
    .join("\n");
  const errorOptions = IDP_ERRORS.map(
    (e) => `<option value="${e.code}">${e.code} — ${escapeHtml(e.label)}</option>`,
  ).join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in with ${escapeHtml(name)} · authsim mock</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<main>
<div class="brand">${providerMarkSvg(id, 28)}<h1>Sign in with ${escapeHtml(name)}</h1></div>
<p><strong>${escapeHtml(projectName)}</strong> wants to ${flow.type === "link" ? "connect your account" : "sign you in"}.</p>
${known.length > 0 ? `<h2>Continue as</h2>\n<ul class="accounts" aria-label="Accounts used before">\n${picks}\n</ul>\n<h2>Or another account</h2>` : `<h2>Your account at ${escapeHtml(name)}</h2>`}
<form method="post" action="${act}" data-mock-idp="${escapeHtml(id)}" aria-label="Account at ${escapeHtml(name)}">
<button type="submit" name="action" value="allow" class="default-submit" tabindex="-1" aria-hidden="true">Continue</button>
${state}
<input type="hidden" name="scopes_present" value="1">
<div class="field"><label for="mock-idp-email">Email</label><span class="with-button"><input id="mock-idp-email" name="email" type="email" value="${escapeHtml(suggested.email)}" autocomplete="off">
<button type="submit" formmethod="get" formnovalidate title="Fill the name and account id this address stands for">Use this email</button></span></div>
<label class="field">Name <input name="name" value="${escapeHtml(suggested.name)}" autocomplete="off"></label>
<label class="field">Account id at ${escapeHtml(name)} <input name="account_id" value="${escapeHtml(suggested.accountId)}" autocomplete="off" placeholder="the one the email stands for"></label>
<input type="hidden" name="email_verified" value="false">
<label class="check"><input type="checkbox" name="email_verified" value="true" checked> Email verified</label>
<fieldset><legend>Scopes to grant</legend>
${scopeBoxes}
</fieldset>
<button type="submit" name="action" value="allow" class="primary">Continue</button>
<details><summary>Deny or fail instead</summary>
<div class="outcomes">
<button type="submit" name="action" value="deny" formnovalidate class="danger">Deny</button>
<label class="field">Error to answer with <select name="error">${errorOptions}</select></label>
<button type="submit" name="action" value="error" formnovalidate>Answer with this error</button>
</div>
</details>
</form>
<p class="note">authsim emulator: no real identity provider is contacted. Same email, same account: ids follow from the address.</p>
</main>
</body>
</html>
`;
}

export function idpErrorPage(message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign-in unavailable · authsim mock</title><link rel="icon" href="data:,"><style>${STYLE}</style></head>
<body><main><h1>Sign-in unavailable</h1><p data-mock-idp-error>${escapeHtml(message)}</p></main></body></html>
`;
}
