/**
 * A small hand-kept stylesheet so the pages read like the published kit's without a framework or a CDN: a card, one
 * accent colour, full-width actions on the sign-in pages (provider buttons, the form's submit, the switch between
 * password and code all line up), account settings as a side menu beside one page of sections, and a layout that
 * holds at 360 px (the card drops its frame, the menu wraps above the content). Scoped to the handler's class names,
 * so an app's own styles win.
 */
export const handlerCss = `
.authsim-handler, .authsim-handler * { box-sizing: border-box; }
.authsim-handler { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; font-size: 15px; max-width: 26rem; margin: 3rem auto;
  padding: 1.75rem; line-height: 1.5; color: #1f2328; background: #fff; border: 1px solid #d8dee4; border-radius: 12px;
  box-shadow: 0 1px 3px rgba(31, 35, 40, 0.08); overflow-wrap: anywhere; }
.authsim-handler:has(.authsim-settings) { max-width: 60rem; }
.authsim-handler h1 { font-size: 1.45rem; margin: 0 0 1.25rem; text-align: center; }
.authsim-handler .authsim-settings h1 { text-align: left; }
.authsim-handler h2 { font-size: 1.05rem; margin: 0 0 0.6rem; }
.authsim-handler h3 { font-size: 0.95rem; margin: 1rem 0 0.25rem; }
.authsim-handler p { margin: 0.5rem 0; }
.authsim-handler a { color: #0969da; text-decoration: none; }
.authsim-handler a:hover { text-decoration: underline; }
.authsim-field { display: flex; flex-direction: column; margin-bottom: 0.85rem; font-size: 0.9rem; font-weight: 500; }
.authsim-field input, .authsim-handler select { width: 100%; min-width: 0; padding: 0.55rem 0.65rem; font: inherit; font-size: 1rem;
  font-weight: 400; margin-top: 0.25rem; color: inherit; background: #fff; border: 1px solid #d0d7de; border-radius: 6px; }
.authsim-field input:focus, .authsim-handler select:focus { outline: 2px solid #0969da; outline-offset: -1px; border-color: #0969da; }
.authsim-handler button { display: inline-flex; align-items: center; justify-content: center; gap: 0.5rem; padding: 0.5rem 0.95rem;
  font: inherit; font-weight: 500; cursor: pointer; margin: 0 0.5rem 0.5rem 0; color: #1f2328; background: #f6f8fa;
  border: 1px solid #d0d7de; border-radius: 6px; }
.authsim-handler button:hover:not(:disabled) { background: #eef1f4; }
.authsim-handler button[type="submit"] { color: #fff; background: #1f6feb; border-color: #1f6feb; }
.authsim-handler button[type="submit"]:hover:not(:disabled) { background: #1a5fcc; }
.authsim-handler button:disabled { opacity: 0.6; cursor: progress; }
/* The sign-in pages: every action spans the card, so provider buttons, submit and switch line up. */
.authsim-handler .authsim-page:not(.authsim-settings) button { display: flex; width: 100%; margin: 0 0 0.6rem; padding: 0.6rem 1rem; }
.authsim-handler .authsim-page:not(.authsim-settings) form { margin: 0; }
.authsim-oauth button { background: #fff; }
.authsim-oauth, .authsim-passkey { margin-bottom: 0.25rem; }
.authsim-provider-icon { flex: none; }
.authsim-divider { display: flex; align-items: center; gap: 0.75rem; margin: 0.75rem 0 1rem; color: #57606a; font-size: 0.85rem; }
.authsim-divider::before, .authsim-divider::after { content: ""; flex: 1; border-top: 1px solid #d8dee4; }
.authsim-error { color: #cf222e; }
.authsim-handler p.authsim-error[role="alert"] { padding: 0.5rem 0.75rem; background: #ffebe9; border: 1px solid #ffcecb; border-radius: 6px; }
.authsim-status, .authsim-muted { color: #57606a; }
.authsim-links { display: flex; gap: 0.5rem 1.25rem; flex-wrap: wrap; justify-content: center; margin-top: 1rem; font-size: 0.9rem; }
.authsim-handler dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; margin: 0 0 1rem; }
.authsim-handler dd { margin: 0; min-width: 0; }
.authsim-handler code { font-size: 0.85em; overflow-wrap: anywhere; }
.authsim-handler pre { white-space: pre-wrap; overflow-wrap: anywhere; }
.authsim-team-switcher select { width: auto; }
/* Account settings: a side menu and one page of sections. */
.authsim-settings-layout { display: grid; grid-template-columns: 12rem minmax(0, 1fr); gap: 1.75rem; align-items: start; }
.authsim-settings-menu { display: flex; flex-direction: column; gap: 0.15rem; position: sticky; top: 1rem; }
.authsim-handler .authsim-settings-menu button { justify-content: flex-start; width: 100%; margin: 0; padding: 0.45rem 0.75rem; text-align: left;
  font-weight: 400; background: transparent; border-color: transparent; }
.authsim-handler .authsim-settings-menu button:hover:not(:disabled) { background: #f6f8fa; }
.authsim-handler .authsim-settings-menu button[aria-current="page"] { background: #ddf4ff; color: #0550ae; font-weight: 600; }
.authsim-settings-content { min-width: 0; }
.authsim-section { padding: 0 0 1.25rem; margin: 0 0 1.25rem; border-bottom: 1px solid #d8dee4; }
.authsim-settings-content > .authsim-section:last-child { border-bottom: 0; margin-bottom: 0; }
.authsim-section ul { list-style: none; margin: 0 0 0.75rem; padding: 0; border: 1px solid #d8dee4; border-radius: 8px; }
.authsim-section ul:empty { display: none; }
.authsim-section li { padding: 0.55rem 0.75rem; border-top: 1px solid #d8dee4; }
.authsim-section li:first-child { border-top: 0; }
.authsim-section li button { margin: 0.35rem 0.35rem 0 0; padding: 0.25rem 0.6rem; font-size: 0.85rem; }
.authsim-row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.5rem; }
.authsim-row > .authsim-grow { flex: 1 1 10rem; min-width: 0; }
.authsim-section form { max-width: 28rem; }
@media (max-width: 44rem) {
  .authsim-settings-layout { grid-template-columns: minmax(0, 1fr); gap: 1rem; }
  .authsim-settings-menu { position: static; flex-direction: row; flex-wrap: wrap; gap: 0.35rem; }
  .authsim-handler .authsim-settings-menu button { width: auto; padding: 0.3rem 0.7rem; border-color: #d0d7de; border-radius: 999px; font-size: 0.9rem; }
}
@media (max-width: 30rem) {
  .authsim-handler { margin: 0; min-height: 100vh; padding: 1.5rem 1rem; border: 0; border-radius: 0; box-shadow: none; }
}
`;
