import { fromEnv } from "../client/app-options.ts";
import { systemClock } from "../runtime/clock.ts";
import { AdminSession, type AdminAccessTokenProvider } from "../session/admin-session.ts";
import { StackServerApp, type StackServerAppOptions } from "../server/server-app.ts";
import { getAdminProject, type AdminProject } from "./projects.ts";

export interface StackAdminAppOptions extends StackServerAppOptions {
  /** Falls back to STACK_SUPER_SECRET_ADMIN_KEY. */
  superSecretAdminKey?: string;
  /** An admin access token of an `internal`-project user, or a function giving the current one (spec §6). */
  projectOwnerSession?: AdminAccessTokenProvider;
}

/** The admin app (sdk-surface.md §8): server powers plus project administration, with admin access. */
export class StackAdminApp extends StackServerApp {
  constructor(options: StackAdminAppOptions) {
    const superSecretAdminKey = options.superSecretAdminKey ?? fromEnv("STACK_SUPER_SECRET_ADMIN_KEY");
    const adminSession = options.projectOwnerSession
      ? new AdminSession(options.projectOwnerSession, options.clock ?? systemClock)
      : null;
    if (!superSecretAdminKey && !adminSession) {
      throw new Error("StackAdminApp needs superSecretAdminKey (or STACK_SUPER_SECRET_ADMIN_KEY) or projectOwnerSession.");
    }
    super(options, {
      accessType: "admin",
      secretServerKey: options.secretServerKey ?? fromEnv("STACK_SECRET_SERVER_KEY"),
      superSecretAdminKey,
      adminSession,
    });
  }

  /** Replaces the client's Project with the admin view (sdk-surface.md §8). */
  override getProject(): Promise<AdminProject> {
    return getAdminProject(this.ctx);
  }
}
