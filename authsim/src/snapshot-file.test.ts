import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { backupPath, readSnapshotFile, writeSnapshotFile } from "./snapshot-file.ts";

/** Issue 14, finding 6: a kill during a --snapshot save used to leave a truncated file and lose the last good state. */

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "authsim-snapshot-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("writeSnapshotFile", () => {
  it("replaces the file and keeps the previous one as FILE.bak", () => {
    const file = join(tempDir(), "state.json");
    writeSnapshotFile(file, JSON.stringify({ n: 1 }));
    expect(existsSync(backupPath(file))).toBe(false);
    writeSnapshotFile(file, JSON.stringify({ n: 2 }));
    expect(readSnapshotFile(file)).toEqual({ n: 2 });
    expect(readSnapshotFile(backupPath(file))).toEqual({ n: 1 });
  });

  it("a cut file is refused with a message that names the backup to start from", () => {
    const file = join(tempDir(), "state.json");
    writeSnapshotFile(file, JSON.stringify({ n: 1 }));
    writeSnapshotFile(file, JSON.stringify({ n: 2 }));
    writeFileSync(file, '{"store": {"tab');
    expect(() => readSnapshotFile(file)).toThrow(`start with --snapshot ${backupPath(file)}`);
  });

  it("a process killed (SIGKILL) in the middle of saves always leaves a whole file", async () => {
    const dir = tempDir();
    const file = join(dir, "state.json");
    const module = fileURLToPath(new URL("./snapshot-file.ts", import.meta.url));
    // Saves of ~8 MiB, one after another, until killed: each kill lands at a different point of a write.
    const script = `
      import { writeSnapshotFile } from ${JSON.stringify(module)};
      const filler = "x".repeat(8 * 1024 * 1024);
      for (let n = 0; ; n++) { writeSnapshotFile(${JSON.stringify(file)}, JSON.stringify({ n, filler })); process.stdout.write("saved\\n"); }
    `;
    for (const delayMillis of [150, 230, 310, 420]) {
      const child = spawn(
        process.execPath,
        ["--conditions=@authsim/source", "--import", "tsx", "--input-type=module", "-e", script],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      // Wait for the first whole save, then kill at an arbitrary point of a later one.
      await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, delayMillis));
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
      const saved = readSnapshotFile(file) as { n: number; filler: string };
      expect(saved.filler).toHaveLength(8 * 1024 * 1024);
      if (existsSync(backupPath(file)))
        expect(JSON.parse(readFileSync(backupPath(file), "utf8"))).toHaveProperty("filler");
    }
  }, 60_000);
});
