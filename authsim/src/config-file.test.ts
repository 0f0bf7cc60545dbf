import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfigFile } from "./config-file.ts";

const dir = mkdtempSync(join(tmpdir(), "authsim-config-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

describe("loading the Stack Auth CLI's config file", () => {
  it("reads `config` from TypeScript (with what it imports relatively), JavaScript and JSON, leaving no compiled file", async () => {
    write("shared.ts", "export const domains = { 'domains.allowLocalhost': true } as const;\n");
    const ts = write(
      "stack.config.ts",
      "import { domains } from './shared';\nexport const config = { ...domains, auth: { allowSignUp: false } satisfies { allowSignUp: boolean } };\n",
    );
    expect(await loadConfigFile(ts)).toEqual({ "domains.allowLocalhost": true, auth: { allowSignUp: false } });
    expect(
      await loadConfigFile(
        write("stack.config.mjs", "export const config = { 'auth.password.allowSignIn': false };\n"),
      ),
    ).toEqual({ "auth.password.allowSignIn": false });
    expect(await loadConfigFile(write("config.json", '{ "auth": { "otp": { "allowSignIn": true } } }'))).toEqual({
      auth: { otp: { allowSignIn: true } },
    });
    expect(readdirSync(dir).filter((name) => name.includes(".authsim-"))).toEqual([]);
  });

  it("refuses, naming the file, a missing file, another extension, a file that throws, and no plain `config` object", async () => {
    await expect(loadConfigFile(join(dir, "absent.ts"))).rejects.toThrow(
      `Config file not found: ${join(dir, "absent.ts")}`,
    );
    const yaml = write("config.yaml", "auth: {}\n");
    await expect(loadConfigFile(yaml)).rejects.toThrow(
      `The config file ${yaml} must be .ts, .mts, .cts, .js, .mjs, .cjs or .json, not .yaml.`,
    );
    const throwing = write("throws.mjs", "throw new Error('no network here');\n");
    await expect(loadConfigFile(throwing)).rejects.toThrow(
      `Could not load the config file ${throwing}: no network here`,
    );
    const array = write("array.ts", "export const config = [1, 2];\n");
    await expect(loadConfigFile(array)).rejects.toThrow(
      `The config file ${array} must export a plain \`config\` object`,
    );
    const none = write("none.js", "export const settings = {};\n");
    await expect(loadConfigFile(none)).rejects.toThrow("must export a plain `config` object");
    const notObject = write("list.json", "[]");
    await expect(loadConfigFile(notObject)).rejects.toThrow(`The config file ${notObject} must hold one JSON object`);
  });
});
