import { describe, expect, it } from "vitest";
import { api, client, newProvider } from "../../test-support/api.ts";

/** POST /check-feature-support: the real handler's text answer, naming the feature only by feature_name. */
describe("POST /check-feature-support", () => {
  it("answers 200 text naming feature_name, else 'This feature' (a name alone is not echoed)", async () => {
    const provider = newProvider();
    const ask = async (json: Record<string, string>) => {
      const response = await api(provider, "/check-feature-support", { headers: client(), json });
      return [response.status, await response.text()];
    };
    const tail = "is not yet supported. Please reach out to Stack support for more information.";
    expect(await ask({ name: "rsc-handler-signIn", feature_name: "Sign-in in RSC" })).toEqual([
      200,
      `Sign-in in RSC ${tail}`,
    ]);
    expect(await ask({ name: "rsc-handler-signIn" })).toEqual([200, `This feature ${tail}`]);
  });
});
