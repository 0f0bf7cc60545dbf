/**
 * The requests the bench measures, the same over loopback and in process: each scenario prepares what it needs
 * (accounts, tokens) through the API and then hands out its i-th request.
 */
import { devProjectSeed as dev } from "@authsim/fixtures";
import { callerHeaders } from "@authsim/sdk/contract";
import type { Answer, BenchRequest } from "./http-load.ts";

export const PASSWORD = "bench-password-123";
const caller = {
  projectId: dev.id,
  publishableClientKey: dev.keys.publishable_client_key,
  secretServerKey: dev.keys.secret_server_key,
};
export const clientHeaders: Record<string, string> = {
  "content-type": "application/json",
  ...callerHeaders({ ...caller, accessType: "client" }),
};
export const serverHeaders: Record<string, string> = {
  "content-type": "application/json",
  ...callerHeaders({ ...caller, accessType: "server" }),
};

export type Send = (req: BenchRequest) => Promise<Answer>;

export const signUpRequest = (email: string): BenchRequest => ({
  method: "POST",
  path: "/api/v1/auth/password/sign-up",
  headers: clientHeaders,
  body: JSON.stringify({ email, password: PASSWORD }),
});
export const signInRequest = (email: string): BenchRequest => ({
  method: "POST",
  path: "/api/v1/auth/password/sign-in",
  headers: clientHeaders,
  body: JSON.stringify({ email, password: PASSWORD }),
});
export const refreshRequest = (refreshToken: string): BenchRequest => ({
  method: "POST",
  path: "/api/v1/auth/oauth/token",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams({
    grant_type: "refresh_token",
    client_id: dev.id,
    client_secret: dev.keys.publishable_client_key,
    refresh_token: refreshToken,
  }).toString(),
});
export const meRequest = (accessToken: string): BenchRequest => ({
  method: "GET",
  path: "/api/v1/users/me",
  headers: { ...clientHeaders, "x-stack-access-token": accessToken },
});
export const projectRequest: BenchRequest = { method: "GET", path: "/api/v1/projects/current", headers: clientHeaders };
/** An emailed sign-in code (OTP + magic link): one email in the outbox per request. To an address without an account (an unverified account refuses it with USER_EMAIL_ALREADY_EXISTS). */
export const otpRequest = (email: string): BenchRequest => ({
  method: "POST",
  path: "/api/v1/auth/otp/send-sign-in-code",
  headers: clientHeaders,
  body: JSON.stringify({ email, callback_url: "http://localhost:3000/handler/magic-link-callback" }),
});

export interface Account {
  email: string;
  accessToken: string;
  refreshToken: string;
}

/** Signs up `count` accounts (8 at a time) and returns their tokens. */
export async function prepareAccounts(send: Send, prefix: string, count: number): Promise<Account[]> {
  const accounts: Account[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) {
        const email = `${prefix}-${next++}@bench.test`;
        const answer = await send(signUpRequest(email));
        if (answer.status !== 200)
          throw new Error(`sign-up for the bench answered ${answer.status}: ${answer.body.slice(0, 200)}`);
        const body = JSON.parse(answer.body) as { access_token: string; refresh_token: string };
        accounts.push({ email, accessToken: body.access_token, refreshToken: body.refresh_token });
      }
    }),
  );
  return accounts;
}

export interface Scenario {
  name: string;
  next(i: number): BenchRequest;
}

/** The five measured endpoints; `run` keeps sign-up emails unique across runs against one server. */
export function scenarios(accounts: Account[], run: string): Scenario[] {
  const at = (i: number) => accounts[i % accounts.length]!;
  return [
    { name: "password sign-up", next: (i) => signUpRequest(`${run}-up-${i}@bench.test`) },
    { name: "password sign-in", next: (i) => signInRequest(at(i).email) },
    { name: "token refresh", next: (i) => refreshRequest(at(i).refreshToken) },
    { name: "GET /users/me", next: (i) => meRequest(at(i).accessToken) },
    { name: "GET /projects/current", next: () => projectRequest },
  ];
}
