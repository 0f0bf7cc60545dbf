import { expect } from "vitest";
import { StackClientApp, StackServerApp, type TokenStoreInit } from "@authsim/sdk";
import {
  headerNames,
  knownErrorSpec,
  rebranded,
  type ConcreteKnownErrorCode,
  type HeaderKey,
} from "@authsim/sdk/contract";
import { ORIGIN, projects, type HeaderFields, type ProjectName, type World } from "../fuzz/world.ts";

/**
 * Helpers of the security suite: raw HTTP calls to the world's provider in either header family, the known-error
 * wire assertion (protocol.md §3.1), and SDK apps bound to the provider and its clock.
 */
export type Family = "stack" | "hexclave";
export const families: readonly Family[] = ["stack", "hexclave"];

export interface Answer {
  /** The header family the request was sent in, which the answer's headers follow. */
  family: Family;
  status: number;
  headers: Headers;
  text: string;
  json: Record<string, unknown> | null;
}

export interface CallOptions {
  family?: Family;
  body?: unknown;
  form?: Record<string, string>;
}

export async function api(
  world: World,
  method: string,
  path: string,
  fields: HeaderFields,
  options: CallOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields) as [HeaderKey, string | undefined][]) {
    if (value !== undefined)
      headers[options.family === "hexclave" ? rebranded(headerNames[key]) : headerNames[key]] = value;
  }
  let body: string | undefined;
  if (options.form) {
    body = new URLSearchParams(options.form).toString();
    headers["content-type"] = "application/x-www-form-urlencoded";
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] = "application/json";
  }
  const response = await world.provider.fetch(`${ORIGIN}/api/v1${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  let json: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed))
      json = parsed as Record<string, unknown>;
  } catch {
    // plain text
  }
  return { family: options.family ?? "stack", status: response.status, headers: response.headers, text, json };
}

/** The code an answer names in the header family of its request (protocol.md §3.1), or null. */
export function knownErrorOf(answer: Answer): string | null {
  return answer.headers.get(familyHeader(answer.family, "x-stack-known-error"));
}

function familyHeader(family: Family, stackName: string): string {
  return family === "hexclave" ? rebranded(stackName) : stackName;
}

/**
 * The wire shape of a known error: catalogue status, the code in the body and in the header of the request's family,
 * and none in the other family (the real service answers in the caller's family only).
 */
export function expectKnownError(answer: Answer, code: ConcreteKnownErrorCode): Record<string, unknown> {
  expect({ status: answer.status, code: knownErrorOf(answer), text: answer.text.slice(0, 300) }).toMatchObject({
    status: knownErrorSpec(code).status,
    code,
  });
  const other: Family = answer.family === "hexclave" ? "stack" : "hexclave";
  expect(answer.headers.get(familyHeader(other, "x-stack-known-error"))).toBeNull();
  expect(answer.json?.code).toBe(code);
  return answer.json ?? {};
}

export function expectOk(answer: Answer, status = 200): Record<string, unknown> {
  expect({ status: answer.status, text: answer.text.slice(0, 300) }).toMatchObject({ status });
  return answer.json ?? {};
}

/** SDK apps on the world's provider, sharing its clock (so token freshness is judged on the provider's time). */
export function clientApp(world: World, project: ProjectName, tokenStore: TokenStoreInit = "memory"): StackClientApp {
  const seed = projects[project];
  return new StackClientApp({
    baseUrl: ORIGIN,
    projectId: seed.id,
    publishableClientKey: seed.keys.publishable_client_key,
    tokenStore,
    fetch: world.provider.fetch,
    clock: world.provider.clock,
  });
}

export function serverApp(
  world: World,
  project: ProjectName,
  secretServerKey = projects[project].keys.secret_server_key,
): StackServerApp {
  const seed = projects[project];
  return new StackServerApp({
    baseUrl: ORIGIN,
    projectId: seed.id,
    publishableClientKey: seed.keys.publishable_client_key,
    secretServerKey,
    tokenStore: "memory",
    fetch: world.provider.fetch,
    clock: world.provider.clock,
  });
}
