/**
 * A few plain rules so the pages read tidily without a framework or a CDN: a card, one accent colour for the action
 * that submits a form, quieter secondary buttons. Scoped to the handler's class names, so an app's own styles win.
 */
export const handlerCss = `
.authsim-handler { font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; padding: 1.5rem 1.75rem;
  line-height: 1.5; color: #1f2328; background: #fff; border: 1px solid #d8dee4; border-radius: 12px;
  box-shadow: 0 1px 3px rgba(31, 35, 40, 0.08); }
.authsim-handler h1 { font-size: 1.5rem; margin: 0 0 1rem; }
.authsim-handler h2 { font-size: 1.125rem; margin: 1.5rem 0 0.5rem; }
.authsim-handler h3 { font-size: 1rem; margin: 1rem 0 0.25rem; }
.authsim-handler a { color: #0969da; }
.authsim-field { display: flex; flex-direction: column; margin-bottom: 0.75rem; font-size: 0.9rem; }
.authsim-field input { padding: 0.5rem 0.6rem; font: inherit; font-size: 1rem; margin-top: 0.2rem;
  border: 1px solid #d0d7de; border-radius: 6px; }
.authsim-field input:focus { outline: 2px solid #0969da; outline-offset: -1px; }
.authsim-handler button { padding: 0.45rem 0.95rem; font: inherit; cursor: pointer; margin: 0 0.5rem 0.5rem 0;
  color: #1f2328; background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 6px; }
.authsim-handler button:hover:not(:disabled) { background: #eef1f4; }
.authsim-handler button[type="submit"] { color: #fff; background: #1f6feb; border-color: #1f6feb; }
.authsim-handler button[type="submit"]:hover:not(:disabled) { background: #1a5fcc; }
.authsim-handler button:disabled { opacity: 0.6; cursor: progress; }
.authsim-error { color: #b00020; }
.authsim-status, .authsim-muted { color: #57606a; }
.authsim-links { display: flex; gap: 1rem; flex-wrap: wrap; margin-top: 1rem; }
.authsim-section { border-top: 1px solid #d8dee4; padding-top: 0.5rem; }
.authsim-oauth, .authsim-passkey { margin-bottom: 1rem; }
.authsim-oauth button, .authsim-passkey button { display: block; width: 100%; margin: 0 0 0.5rem; }
.authsim-handler .authsim-switch { margin-top: 0.75rem; }
.authsim-team-switcher select { font: inherit; padding: 0.3rem; border-radius: 6px; }
`;
