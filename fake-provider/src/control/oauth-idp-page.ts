import type { OAuthAccountRecord, OAuthFlowRecord } from "../store/strong-auth-records.ts";

/**
 * The mock identity provider's page: plain HTML with forms and no scripts, styles inline, no CDN — it works offline,
 * in a browser, and for a test that posts the same form (field names below are the programmatic interface).
 *
 * Form fields (application/x-www-form-urlencoded): `action` = "allow" | "deny"; `account_id` (required to allow);
 * `email`; `name`; `email_verified` ("true"/"false", the last value wins; absent = true); `scope` (repeated, one per
 * granted scope) — or `scopes` (space-separated). Without any scope field every requested scope is granted.
 */

const escapeHtml = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

const providerNames: Record<string, string> = { github: "GitHub", google: "Google", microsoft: "Microsoft", spotify: "Spotify" };
export const providerName = (id: string): string => providerNames[id] ?? id;

export function idpPage(input: { flow: OAuthFlowRecord; projectName: string; action: string; requested: readonly string[]; known: readonly OAuthAccountRecord[] }): string {
  const { flow, projectName, action, requested, known } = input;
  const name = providerName(flow.providerConfigId);
  const state = `<input type="hidden" name="state" value="${escapeHtml(flow.innerState)}">`;
  const quickPicks = known
    .map(
      (a) => `<form method="post" action="${escapeHtml(action)}" class="pick">${state}
<input type="hidden" name="action" value="allow"><input type="hidden" name="account_id" value="${escapeHtml(a.providerAccountId)}">
<input type="hidden" name="email" value="${escapeHtml(a.email ?? "")}"><input type="hidden" name="email_verified" value="true">
<button type="submit">Continue as ${escapeHtml(a.email ?? a.providerAccountId)}</button></form>`,
    )
    .join("\n");
  const scopeBoxes = requested
    .map((s) => `<label><input type="checkbox" name="scope" value="${escapeHtml(s)}" checked> ${escapeHtml(s)}</label><br>`)
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in with ${escapeHtml(name)} · authsim mock</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 30rem; margin: 3rem auto; padding: 0 1rem; color: #1a1a1a; }
label.field { display: block; margin: 0.6rem 0; } label.field input { width: 100%; box-sizing: border-box; font-size: 1rem; padding: 0.3rem; }
fieldset { border: 1px solid #ccc; border-radius: 6px; margin: 1rem 0; }
button { font-size: 1rem; padding: 0.5rem 1.25rem; margin: 0.25rem 0.25rem 0.25rem 0; }
.pick { margin: 0.25rem 0; } .note { color: #666; font-size: 0.9rem; }
</style>
</head>
<body>
<h1>Sign in with ${escapeHtml(name)}</h1>
<p><strong>${escapeHtml(projectName)}</strong> wants to ${flow.type === "link" ? "connect your account" : "sign you in"}.</p>
${known.length > 0 ? `<h2>Accounts seen before</h2>\n${quickPicks}\n<h2>Or another account</h2>` : ""}
<form method="post" action="${escapeHtml(action)}" data-mock-idp="${escapeHtml(flow.providerConfigId)}">
${state}
<input type="hidden" name="scopes_present" value="1">
<label class="field">Account id at ${escapeHtml(name)} <input name="account_id" required autocomplete="off"></label>
<label class="field">Email <input name="email" type="email" autocomplete="off"></label>
<label class="field">Name <input name="name" autocomplete="off"></label>
<input type="hidden" name="email_verified" value="false">
<label><input type="checkbox" name="email_verified" value="true" checked> Email verified</label>
<fieldset><legend>Scopes to grant</legend>
${scopeBoxes}
</fieldset>
<button type="submit" name="action" value="allow">Continue</button>
<button type="submit" name="action" value="deny" formnovalidate>Deny</button>
</form>
<p class="note">authsim emulator: no real identity provider is contacted.</p>
</body>
</html>
`;
}

export function idpErrorPage(message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign-in unavailable · authsim mock</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 30rem; margin: 3rem auto;">
<h1>Sign-in unavailable</h1><p data-mock-idp-error>${escapeHtml(message)}</p></body></html>
`;
}
