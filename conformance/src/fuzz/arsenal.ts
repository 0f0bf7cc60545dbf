import { decodeProtectedHeader } from "jose";
import { PUBLIC_CLIENT_SENTINEL } from "@authsim/sdk/contract";
import { algNone, garbageTokens, hmacConfused, resign, spliceSignature, tamper } from "./forge.ts";
import type { Pools } from "./schema-arb.ts";
import { PASSWORD, projects, residentEmails, TRUSTED_CALLBACK, type World } from "./world.ts";

/**
 * Everything the request arbitraries draw from, computed once per world: forged tokens (async to make), and pools of
 * real ids, emails, codes and secrets by field name.
 */
export interface Arsenal {
  world: World;
  /** Forged user access tokens (tampered, alg none, re-signed, HS256 with public material, spliced). */
  forgedUserTokens: string[];
  /** The same for the dashboard owner's token, to be sent as an admin access token. */
  forgedOwnerTokens: string[];
  pools: Pools;
}

export const EVIL_CALLBACKS = [
  "https://evil.example.com/handler/callback",
  "http://localhost.evil.example.com/cb",
  "http://localhost:3000@evil.example.com/cb",
  "javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "//evil.example.com/cb",
  "http://[::1]:3000/cb",
  "http://127.0.0.1.nip.io/cb",
];

const SYSTEM_PERMISSIONS = [
  "$update_team",
  "$delete_team",
  "$read_members",
  "$remove_members",
  "$invite_members",
  "$manage_api_keys",
];

/** A wrong guess that shares a real code's nonce (it counts against that code: the one trace a refusal may leave). */
const nearMiss = (code: string) =>
  code.length > 6 ? (code[0] === "a" ? "b" : "a") + code.slice(1) : code.toLowerCase();

export async function buildArsenal(world: World): Promise<Arsenal> {
  const { a, b, owner, outsider } = world.users;
  const jwks = world.baseline.store.tables.signingKeys ?? [];
  const kid = decodeProtectedHeader(a.accessToken).kid;
  const publicJwk = jwks
    .map(([, row]) => row as { kid?: string; publicJwk?: unknown })
    .find((row) => row.kid === kid)?.publicJwk;
  const forgedUserTokens = [
    tamper(a.accessToken, { sub: b.userId }),
    tamper(a.accessToken, { aud: projects.other.id, project_id: projects.other.id }),
    tamper(a.accessToken, { exp: 4_102_444_800 }),
    algNone(a.accessToken),
    algNone(a.accessToken, { sub: b.userId }),
    await resign(a.accessToken),
    await resign(a.accessToken, { sub: b.userId }),
    await hmacConfused(a.accessToken, JSON.stringify(publicJwk ?? {})),
    spliceSignature(b.accessToken, a.accessToken),
    world.stale.a.accessToken,
  ];
  const forgedOwnerTokens = [
    tamper(owner.accessToken, { sub: outsider.userId }),
    tamper(outsider.accessToken, { sub: owner.userId }),
    algNone(owner.accessToken),
    await resign(owner.accessToken),
    world.stale.owner.accessToken,
    ...garbageTokens.slice(0, 3),
  ];

  const ids = (table: string) => world.idsByTable[table] ?? [];
  const users = ids("users");
  const permissionIds = [
    ...ids("permissionDefinitions").map((key) => key.split(":").slice(1).join(":")),
    ...SYSTEM_PERMISSIONS,
  ];
  const emails = [...Object.values(world.users).flatMap((u) => (u.email ? [u.email] : [])), ...residentEmails];
  const refreshTokens = [...Object.values(world.users), ...Object.values(world.stale)].map((s) => s.refreshToken);
  const named: Record<string, readonly string[]> = {
    user_id: [...users, "me"],
    creator_user_id: [...users, "me"],
    customer_id: [...users, ...ids("teams"), "custom-1"],
    team_id: ids("teams"),
    session_id: ids("sessions"),
    api_key_id: [...ids("projectApiKeys"), ...ids("apiKeySets")],
    channel_id: ids("contactChannels"),
    contact_channel_id: ids("contactChannels"),
    invitation_id: [...ids("verificationCodes"), ...world.seenIds],
    category_id: world.seenIds,
    permission_id: permissionIds,
    id: permissionIds,
    project_id: Object.values(projects).map((p) => p.id),
    code: [...world.codes, ...world.codes.map(nearMiss)],
    email: emails,
    primary_email: emails,
    password: [PASSWORD, "short", "x".repeat(71)],
    old_password: [PASSWORD, "wrong-password-123"],
    new_password: ["new-fuzz-password-1", "short"],
    api_key: world.apiKeys,
    refresh_token: refreshTokens,
    callback_url: [TRUSTED_CALLBACK, ...EVIL_CALLBACKS],
    verification_callback_url: [TRUSTED_CALLBACK, ...EVIL_CALLBACKS],
    return_url: [TRUSTED_CALLBACK, ...EVIL_CALLBACKS],
    item_id: world.catalogueIds,
    offer_id: world.catalogueIds,
    product_id: world.catalogueIds,
    store_id: world.catalogueIds,
    provider_id: ["github", "google", "microsoft", "spotify", "nope"],
    customer_type: ["user", "team", "custom"],
    level: ["project", "branch", "environment", "nope"],
    grant_type: ["refresh_token", "authorization_code", "password", "client_credentials"],
    client_id: [
      ...Object.values(projects).map((p) => p.id),
      `${projects.dev.id}#main`,
      `${projects.dev.id}#other`,
      "#",
    ],
    client_secret: [
      ...Object.values(projects).map((p) => p.keys.publishable_client_key),
      PUBLIC_CLIENT_SENTINEL,
      projects.dev.keys.secret_server_key,
      "",
    ],
    scope: ["legacy", "openid", ""],
  };
  const uuids = [...new Set([...Object.values(world.idsByTable).flat(), ...world.seenIds])].filter((id) =>
    /^[0-9a-f-]{36}$/i.test(id),
  );
  const pools: Pools = {
    byName: (name) => named[name] ?? [],
    uuids,
    emails,
    urls: [TRUSTED_CALLBACK, ...EVIL_CALLBACKS],
  };
  return { world, forgedUserTokens, forgedOwnerTokens, pools };
}
