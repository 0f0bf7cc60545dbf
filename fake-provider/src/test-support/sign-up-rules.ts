import { admin, api, client, expectJson, type TestProvider } from "./api.ts";

/** A sign-up rule as a config override writes it (`auth.signUpRules.<id>`): enabled, named by its priority. */
export const rule = (priority: number, condition: string, type: string, extra: Record<string, unknown> = {}) => ({
  enabled: true,
  displayName: `rule ${priority}`,
  priority,
  condition,
  action: { type },
  ...extra,
});

/** Writes sign-up rules (or any keys) into the project's environment config override, as the dashboard does. */
export const setRules = async (p: TestProvider, override: Record<string, unknown>) =>
  expectJson(
    await api(p, "/internal/config/override/environment", {
      method: "PATCH",
      headers: admin(),
      json: { config_override_string: JSON.stringify(override) },
    }),
  );

/** A password sign-up on the dev project, answered as it comes (`extra`: raw headers, e.g. the country's). */
export const passwordSignUp = (p: TestProvider, email: string, extra: Record<string, string> = {}) =>
  api(p, "/auth/password/sign-up", { headers: client(), json: { email, password: "password-123" }, raw: extra });
