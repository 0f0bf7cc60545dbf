/** A few plain rules so the unstyled pages read tidily; scoped to the handler's class names, no framework. */
export const handlerCss = `
.authsim-handler { font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5; }
.authsim-handler h1 { font-size: 1.5rem; margin: 0 0 1rem; }
.authsim-handler h2 { font-size: 1.125rem; margin: 1.5rem 0 0.5rem; }
.authsim-field { display: flex; flex-direction: column; margin-bottom: 0.75rem; }
.authsim-field input { padding: 0.4rem 0.5rem; font: inherit; }
.authsim-handler button { padding: 0.4rem 0.9rem; font: inherit; cursor: pointer; margin-right: 0.5rem; }
.authsim-error { color: #b00020; }
.authsim-status, .authsim-muted { color: #555; }
.authsim-links { display: flex; gap: 1rem; flex-wrap: wrap; margin-top: 1rem; }
.authsim-section { border-top: 1px solid #ddd; padding-top: 0.5rem; }
.authsim-oauth, .authsim-passkey { margin-bottom: 1rem; }
.authsim-oauth button { margin-bottom: 0.5rem; }
.authsim-handler .authsim-switch { margin-top: 0.75rem; }
.authsim-team-switcher select { font: inherit; padding: 0.3rem; }
`;
