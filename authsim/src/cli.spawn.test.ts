import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { devProjectSeed } from "@authsim/fixtures";
import { startCli } from "authsim/testing";
import { createFakeProvider } from "@authsim/fake-provider";
import { DETERMINISTIC_START_MILLIS } from "./cli-args.ts";

/**
 * The real dev server (src/cli.ts) as a child process: --snapshot across a restart, --deterministic runs that repeat
 * byte for byte, and the fail-closed refusal of real-looking keys. Few tests, since each start costs a second or two.
 */
const dir = mkdtempSync(join(tmpdir(), "authsim-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cliPath = fileURLToPath(new URL("./cli.ts", import.meta.url));

/** Runs the CLI until it exits by itself (a refusal happens before it listens). */
function runUntilExit(args: readonly string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    process.execPath,
    ["--conditions=@authsim/source", "--import", "tsx", cliPath, "--port", "0", ...args],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  // Should it start after all, stop it rather than leave it running: the test then fails on the exit code.
  const timer = setTimeout(() => child.kill("SIGTERM"), 20_000);
  return new Promise((resolve) => child.once("exit", (code) => (clearTimeout(timer), resolve({ code, output }))));
}

const headers = (access: "server" | "client") => ({
  "content-type": "application/json",
  "x-stack-access-type": access,
  "x-stack-project-id": devProjectSeed.id,
  "x-stack-publishable-client-key": devProjectSeed.keys.publishable_client_key,
  "x-stack-secret-server-key": devProjectSeed.keys.secret_server_key,
});

/** The same requests every time: a user with a password, signed in (so a signing key and a session exist). */
async function createAndSignIn(url: string): Promise<{ id: string; signed_up_at_millis: number }> {
  const credentials = { email: "ada@example.com", password: "correct horse battery staple" };
  const created = await fetch(`${url}/api/v1/users`, {
    method: "POST",
    headers: headers("server"),
    body: JSON.stringify({ primary_email: credentials.email, password: credentials.password }),
  });
  expect(created.status).toBe(201);
  const signIn = await fetch(`${url}/api/v1/auth/password/sign-in`, {
    method: "POST",
    headers: headers("client"),
    body: JSON.stringify(credentials),
  });
  expect(signIn.status).toBe(200);
  return (await created.json()) as { id: string; signed_up_at_millis: number };
}

describe("the dev server's --snapshot and --deterministic", () => {
  it("saves on demand and on SIGTERM, and a restart with the same flags has the user back", async () => {
    const file = join(dir, "restart.json");
    const args = ["--deterministic", "seed1", "--snapshot", file];
    const first = await startCli(args);
    let user: { id: string; signed_up_at_millis: number };
    try {
      expect(first.banner).toContain("the clock is frozen at 2026-01-01T00:00:00.000Z");
      user = await createAndSignIn(first.url);
      // A frozen clock: the user's timestamp is the fixed start, whatever the time of the run.
      expect(user.signed_up_at_millis).toBe(DETERMINISTIC_START_MILLIS);
      const saved = await fetch(`${first.url}/__emulator/snapshot/save`, {
        method: "POST",
        headers: { "content-type": "application/json" },
      });
      expect(await saved.json()).toEqual({ success: true, file });
      expect(readFileSync(file, "utf8")).toContain(user.id);
      rmSync(file);
    } finally {
      await first.stop();
    }
    // Removed above, so only the save on exit can have written it.
    expect(existsSync(file)).toBe(true);

    const second = await startCli(args);
    try {
      const read = await fetch(`${second.url}/api/v1/users/${user.id}`, { headers: headers("server") });
      expect(read.status).toBe(200);
      expect(await read.json()).toMatchObject({ id: user.id, primary_email: "ada@example.com" });
      // Ids drawn after a restore continue the seeded sequence instead of repeating ids already in the state.
      const another = await fetch(`${second.url}/api/v1/users`, {
        method: "POST",
        headers: headers("server"),
        body: JSON.stringify({ primary_email: "bob@example.com" }),
      });
      expect(((await another.json()) as { id: string }).id).not.toBe(user.id);
    } finally {
      await second.stop();
    }
  });

  it("writes byte-identical snapshots for two runs with the same seed and the same requests", async () => {
    const run = async (name: string) => {
      const file = join(dir, name);
      const cli = await startCli(["--deterministic", "same-seed", "--snapshot", file]);
      try {
        await createAndSignIn(cli.url);
      } finally {
        await cli.stop();
      }
      return readFileSync(file, "utf8");
    };
    const [a, b] = await Promise.all([run("a.json"), run("b.json")]);
    expect(a).toContain('"frozenAtMillis": 1767225600000');
    expect(a === b).toBe(true);
  });
});

describe("the dev server's refusal of real-looking keys", () => {
  const live = `ssk_${"k3y".repeat(15)}`;

  it("exits with code 2 and the reason for a fixture with a live-looking key, before loading it", async () => {
    const file = join(dir, "live-fixture.json");
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        projects: [
          {
            id: "9a1f4c2e-5b6d-4e7f-8a9b-0c1d2e3f4a5b",
            display_name: "Prod copy",
            keys: { ...devProjectSeed.keys, secret_server_key: live },
          },
        ],
      }),
    );
    const { code, output } = await runUntilExit(["--seed", file]);
    expect(code).toBe(2);
    expect(output).toContain(`Refusing to start: the fixture ${file}`);
    expect(output).toContain("secret server key of project 9a1f4c2e-5b6d-4e7f-8a9b-0c1d2e3f4a5b: ssk_k3yk…");
    expect(output).not.toContain(live);
    expect(output).toContain("pck_authsim_");
  });

  it("exits with code 2 for a snapshot holding a live-looking key", async () => {
    const provider = createFakeProvider();
    const set = [...provider.store.read.apiKeySets.values()].find((s) => s.projectId === devProjectSeed.id)!;
    provider.store.transactSync((tables) =>
      tables.apiKeySets.set(set.id, { ...set, superSecretAdminKey: live.replace("ssk_", "sak_") }),
    );
    const file = join(dir, "live-snapshot.json");
    writeFileSync(file, JSON.stringify(provider.snapshot()));
    const { code, output } = await runUntilExit(["--snapshot", file]);
    expect(code).toBe(2);
    expect(output).toContain(`Refusing to start: the snapshot ${file}`);
    expect(output).toContain(`super secret admin key of project ${devProjectSeed.id}`);
  });
});
