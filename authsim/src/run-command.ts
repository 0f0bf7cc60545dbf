import { spawn } from "node:child_process";
import { constants } from "node:os";

/** The signals a terminal, CI runner or process manager sends to stop a job: passed on to the command. */
const FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * `authsim exec`'s command, run as this process's child with the terminal's stdio and `env` over ours. Answers the
 * status to exit with: the command's own, 128 + the signal's number when a signal ended it (as a shell reports it),
 * or 127 when it could not be started (a shell's "command not found"). While it runs, a stop signal sent to authsim
 * goes to the command, and authsim waits for it to end rather than leave it running without its emulator.
 */
export function runCommand(command: readonly string[], env: Record<string, string>): Promise<number> {
  const [file, ...args] = command;
  const child = spawn(file!, args, { stdio: "inherit", env: { ...process.env, ...env } });
  const forward = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of FORWARDED) process.on(signal, forward);
  return new Promise((resolve) => {
    let settled = false;
    // After a failed start Node may or may not also report an exit: the first answer stands.
    const done = (status: number) => {
      if (settled) return;
      settled = true;
      for (const signal of FORWARDED) process.off(signal, forward);
      resolve(status);
    };
    child.once("error", (error: NodeJS.ErrnoException) => {
      console.error(
        `authsim exec: could not run ${file}: ${error.code === "ENOENT" ? "command not found" : error.message}`,
      );
      done(127);
    });
    child.once("exit", (code, signal) => done(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)));
  });
}
