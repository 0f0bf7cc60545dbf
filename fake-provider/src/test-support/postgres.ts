import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A throwaway PostgreSQL cluster for tests of the external database sync: Debian's `postgresql` binaries (initdb on the
 * PATH or under /usr/lib/postgresql/<version>/bin; `.ci/run` installs them), a cluster in a temporary folder on a free
 * loopback port with trust authentication, stopped (its postmaster, by the PID it wrote) and removed by `stop()`. As
 * root, the cluster runs as the `postgres` user (PostgreSQL refuses to run as root).
 */

export interface PostgresCluster {
  /** A connection string for the `postgres` superuser and this database (default "postgres"). */
  url(database?: string): string;
  stop(): void;
}

/** The folder holding initdb, or null when PostgreSQL is not installed. */
export function postgresBin(): string | null {
  for (const dir of (process.env.PATH ?? "").split(":")) if (dir && existsSync(join(dir, "initdb"))) return dir;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0]!, "bin") : null;
}

/** Why the PostgreSQL tests are skipped, or null when they run. In CI a missing PostgreSQL fails them instead. */
export function postgresSkipReason(): string | null {
  if (postgresBin() !== null) return null;
  if (process.env.CI === "true")
    throw new Error("CI=true but PostgreSQL (initdb) is not installed: .ci/run installs it.");
  return "PostgreSQL is not installed (no initdb on the PATH or under /usr/lib/postgresql/*/bin)";
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export async function startPostgres(): Promise<PostgresCluster> {
  const bin = postgresBin();
  if (!bin) throw new Error("PostgreSQL is not installed");
  const dir = mkdtempSync(join(tmpdir(), "authsim-pg-"));
  const data = join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) => {
    const [file, argv] = asRoot
      ? ["runuser", ["-u", "postgres", "--", join(bin, tool), ...args]]
      : [join(bin, tool), args];
    execFileSync(file, argv, { stdio: "pipe" });
  };
  if (asRoot) chownSync(dir, Number(execFileSync("id", ["-u", "postgres"]).toString().trim()), -1);
  const port = await freePort();
  run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync"]);
  run("pg_ctl", [
    "-D",
    data,
    "-l",
    join(dir, "log"),
    "-w",
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    "start",
  ]);
  return {
    url: (database = "postgres") => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    stop() {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
