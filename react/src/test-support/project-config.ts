import { devProjectSeed } from "@authsim/fixtures";
import { StackAdminApp, type AdminProjectConfigUpdateOptions } from "@authsim/sdk";
import type { TestApp } from "./render-app.tsx";

/** Changes the test provider's project config through the admin API, as a project owner would in the dashboard. */
export async function configureProject(t: TestApp, config: AdminProjectConfigUpdateOptions): Promise<void> {
  const admin = new StackAdminApp({
    projectId: devProjectSeed.id,
    superSecretAdminKey: devProjectSeed.keys.super_secret_admin_key,
    baseUrl: "http://authsim.test",
    tokenStore: null,
    fetch: (url, init) => t.provider.fetch(url, init),
  });
  await (await admin.getProject()).update({ config });
}
