/**
 * The user button's look, brought by the button itself (it sits in an app's own header, outside the handler's styles):
 * an avatar with initials, the name (hidden on a narrow screen), and a dropdown menu. Scoped to its class names.
 */
export const userButtonCss = `
.authsim-user-button { position: relative; display: inline-flex; align-items: center; gap: 0.75rem;
  font-family: system-ui, -apple-system, "Segoe UI", sans-serif; font-size: 0.95rem; }
.authsim-user-button > button { display: inline-flex; align-items: center; gap: 0.5rem; max-width: 16rem; padding: 0.25rem 0.6rem 0.25rem 0.25rem;
  font: inherit; color: #1f2328; background: #fff; border: 1px solid #d0d7de; border-radius: 999px; cursor: pointer; }
.authsim-user-button > button:hover, .authsim-user-button > button[aria-expanded="true"] { background: #f6f8fa; }
.authsim-avatar { flex: none; display: inline-grid; place-items: center; width: 1.9rem; height: 1.9rem; border-radius: 50%;
  background: #ddf4ff; color: #0550ae; font-weight: 600; font-size: 0.8rem; }
.authsim-user-button-name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.authsim-user-menu { position: absolute; right: 0; top: calc(100% + 0.4rem); z-index: 10; width: 15rem; max-width: calc(100vw - 2rem);
  background: #fff; border: 1px solid #d0d7de; border-radius: 10px; box-shadow: 0 8px 24px rgba(31, 35, 40, 0.12); overflow: hidden; }
.authsim-user-menu-who { display: grid; padding: 0.75rem 1rem; border-bottom: 1px solid #d8dee4; overflow-wrap: anywhere; }
.authsim-user-menu ul { list-style: none; margin: 0; padding: 0.35rem 0; }
.authsim-user-menu a { display: block; padding: 0.45rem 1rem; color: #1f2328; text-decoration: none; }
.authsim-user-menu a:hover { background: #f6f8fa; }
.authsim-user-button .authsim-muted { color: #57606a; font-size: 0.85rem; }
.authsim-user-button > a { color: #0969da; text-decoration: none; }
.authsim-user-button > a.authsim-user-button-primary { padding: 0.35rem 0.8rem; color: #fff; background: #1f6feb; border-radius: 6px; }
@media (max-width: 30rem) { .authsim-user-button-name { display: none; } .authsim-user-button > button { padding: 0.25rem; } }
`;
