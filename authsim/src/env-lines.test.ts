import { describe, expect, it } from "vitest";
import { envLines } from "./env-lines.ts";

describe("the env lines", () => {
  it("name the hosted pages' per-project address for the published kit's hosted mode, on the emulator's port", () => {
    const lines = envLines("http://127.0.0.1:8102", { id: "p", publishable: "pk", secret: "sk", admin: "ak" });
    expect(lines).toContain(
      "NEXT_PUBLIC_STACK_HOSTED_HANDLER_URL_TEMPLATE=http://{projectId}.localhost:8102/{hostedPath}",
    );
    expect(envLines("http://localhost:40123", { id: "p", publishable: "pk", secret: "sk", admin: "ak" }).at(-1)).toBe(
      "NEXT_PUBLIC_STACK_HOSTED_HANDLER_URL_TEMPLATE=http://{projectId}.localhost:40123/{hostedPath}",
    );
  });
});
