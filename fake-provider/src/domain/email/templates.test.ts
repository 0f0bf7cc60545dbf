import { describe, expect, it } from "vitest";
import { renderEmail } from "./templates.ts";

describe("the built-in sign-in email", () => {
  it("puts the code alone in a paragraph, as the real service's email does, and in the subject and text", () => {
    const email = renderEmail("magic_link", {
      projectName: "Acme <Dev>",
      link: "http://localhost:3000/handler/magic-link-callback?code=X",
      otp: "RMX60K",
    });
    expect(email.html.match(/>([A-Z0-9]{6})<\/p>/)?.[1]).toBe("RMX60K");
    expect(email.html).toContain("<h1>Acme &lt;Dev&gt;</h1>");
    expect(email.subject).toBe("Sign in to Acme <Dev>: your code is RMX60K");
    expect(email.text).toContain("RMX60K");
  });
});
