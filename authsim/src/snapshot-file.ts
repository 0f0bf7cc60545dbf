import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";

/**
 * The dev server's --snapshot file (Node edge). A save must never leave a half-written file where the last good state
 * was: a kill during a write in place used to leave a truncated file that the next start refused, with the state gone.
 * So a save writes a temporary file beside it, flushes it to disk, keeps the previous file as FILE.bak (a hard link,
 * so nothing is copied) and renames the new file into place, which replaces it atomically. At every instant FILE is
 * whole: the old one or the new one.
 */

export const backupPath = (file: string) => `${file}.bak`;

export function writeSnapshotFile(file: string, contents: string): void {
  // One writer per file (the server that owns it), so a fixed name: a killed save leaves nothing new behind.
  const temporary = `${file}.tmp`;
  const fd = openSync(temporary, "w", 0o600);
  try {
    writeSync(fd, contents);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  if (existsSync(file)) {
    rmSync(backupPath(file), { force: true });
    linkSync(file, backupPath(file));
  }
  renameSync(temporary, file);
  syncDirectory(dirname(file));
}

/** The rename is durable once the directory is flushed (where the platform allows opening a directory). */
function syncDirectory(directory: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(directory, "r");
    fsyncSync(fd);
  } catch {
    // Not every platform can fsync a directory (Windows); the rename itself is still atomic.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** The parsed file, or an error whose message says what to do: a cut file names the backup to start from. */
export function readSnapshotFile(file: string): unknown {
  const text = readFileSync(file, "utf8");
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const backup = backupPath(file);
    const hint = existsSync(backup)
      ? ` The previous good copy is ${backup}: start with --snapshot ${backup}, or move it over ${file}.`
      : " There is no backup beside it; move it away to start from the seed.";
    throw new Error(
      `${file} is not a whole snapshot (${text.length} bytes; ${error instanceof Error ? error.message : String(error)}).${hint}`,
      { cause: error },
    );
  }
}
