import type { Hono } from "hono";
import type { FakeProvider } from "../../provider.ts";
import { json } from "../../api/http/respond.ts";
import { controlEndpoints as ep } from "@authsim/sdk/emulator";
import { pathOf } from "./control-input.ts";
import { fixedOtpRuleProblem, type FixedOtpRule } from "../../domain/ops/sign-in/fixed-otp.ts";

/**
 * GET / PUT `/__emulator/fixed-otp` `{rules: [{pattern, code}]}`: the addresses whose sign-in OTP is fixed
 * (domain/ops/sign-in/fixed-otp.ts), readable and replaceable while the emulator runs, e.g. by a test or a dev-server script. The rules
 * are a setting like `--fixed-otp`, not state: reset() and snapshots leave them alone.
 */
const rulesBody = ep.setFixedOtp.body;

const view = (rules: readonly FixedOtpRule[] | undefined) => ({ rules: rules ?? [] });

export function mountFixedOtpControl(app: Hono, provider: FakeProvider): void {
  app.get(pathOf("fixedOtp"), () => json(view(provider.settings.fixedOtp)));
  app.put(pathOf("setFixedOtp"), async (c) => {
    let raw: unknown;
    try {
      raw = await c.req.raw.json();
    } catch {
      return json({ error: "Invalid JSON in request body" }, 400);
    }
    const parsed = rulesBody.safeParse(raw);
    if (!parsed.success)
      return json(
        {
          error: "Expected {rules: [{pattern, code}]}",
          issues: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`),
        },
        400,
      );
    const problems = parsed.data.rules.flatMap((rule, index) => {
      const problem = fixedOtpRuleProblem(rule);
      return problem ? [`rules.${index}: ${problem}`] : [];
    });
    if (problems.length > 0) return json({ error: "Invalid fixed-OTP rules", issues: problems }, 400);
    provider.settings.fixedOtp = parsed.data.rules;
    return json(view(provider.settings.fixedOtp));
  });
}
