/**
 * The mock OAuth server's sign-in page: plain HTML, no scripts, styles inline, nothing fetched from elsewhere. Its form
 * posts `prompt=login` and `login` (the account: an email address, which is also the account id and the email the
 * emulator receives) to the interaction's own URL; accounts seen before are one-click buttons.
 */

const escapeHtml = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

export function loginPage(input: {
  uid: string;
  clientId: string;
  projectName: string | null;
  known: readonly string[];
}): string {
  const action = `/interaction/${encodeURIComponent(input.uid)}`;
  const picks = input.known
    .map(
      (
        login,
      ) => `<form method="post" action="${escapeHtml(action)}" class="pick"><input type="hidden" name="prompt" value="login">
<input type="hidden" name="login" value="${escapeHtml(login)}"><button type="submit">Continue as ${escapeHtml(login)}</button></form>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in to ${escapeHtml(input.clientId)} · authsim mock OAuth server</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 30rem; margin: 3rem auto; padding: 0 1rem; color: #1a1a1a; }
label { display: block; margin: 0.6rem 0; } label input { width: 100%; box-sizing: border-box; font-size: 1rem; padding: 0.3rem; }
button { font-size: 1rem; padding: 0.5rem 1.25rem; margin: 0.25rem 0; } .pick { margin: 0.25rem 0; } .note { color: #666; font-size: 0.9rem; }
</style>
</head>
<body>
<h1>Sign in with ${escapeHtml(input.clientId)}</h1>
${input.projectName ? `<p><strong>${escapeHtml(input.projectName)}</strong> asks who you are.</p>` : ""}
${input.known.length > 0 ? `<h2>Accounts seen before</h2>\n${picks}\n<h2>Or another account</h2>` : ""}
<form method="post" action="${escapeHtml(action)}" data-mock-oauth-login="${escapeHtml(input.clientId)}">
<input type="hidden" name="prompt" value="login">
<label>Email (also the account id) <input name="login" type="email" required autocomplete="off"></label>
<label>Password (any, not checked) <input name="password" type="password" autocomplete="off"></label>
<button type="submit">Sign in</button>
</form>
<p><a href="${escapeHtml(action)}/abort">Cancel (deny access)</a></p>
<p class="note">authsim mock OAuth server: no real identity provider is contacted.</p>
</body>
</html>
`;
}

export function errorPage(message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign-in unavailable · authsim mock OAuth server</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 30rem; margin: 3rem auto;">
<h1>Sign-in unavailable</h1><p data-mock-oauth-error>${escapeHtml(message)}</p></body></html>
`;
}
