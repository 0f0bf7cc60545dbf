import { describe, expect, it } from "vitest";
import { callerHeaders } from "./headers.ts";

const keys = { publishableClientKey: "pck_1", secretServerKey: "ssk_1", superSecretAdminKey: "sak_1" };

describe("callerHeaders", () => {
  it("names the project and access type, and sends each key given up to the access type, never above it", () => {
    expect(callerHeaders({ accessType: "client", projectId: "p", ...keys })).toEqual({
      "x-stack-project-id": "p",
      "x-stack-access-type": "client",
      "x-stack-publishable-client-key": "pck_1",
    });
    expect(callerHeaders({ accessType: "server", projectId: "p", ...keys })).toEqual({
      "x-stack-project-id": "p",
      "x-stack-access-type": "server",
      "x-stack-publishable-client-key": "pck_1",
      "x-stack-secret-server-key": "ssk_1",
    });
    expect(Object.keys(callerHeaders({ accessType: "admin", projectId: "p", ...keys }))).toContain(
      "x-stack-super-secret-admin-key",
    );
  });

  it("sends only what is given: a lone admin key, tokens, and no header for a missing or empty value", () => {
    expect(
      callerHeaders({
        accessType: "admin",
        projectId: "p",
        superSecretAdminKey: "sak_1",
        secretServerKey: null,
        accessToken: "at",
        refreshToken: "",
      }),
    ).toEqual({
      "x-stack-project-id": "p",
      "x-stack-access-type": "admin",
      "x-stack-super-secret-admin-key": "sak_1",
      "x-stack-access-token": "at",
    });
  });
});
