import { createLocalJWKSet, decodeJwt, errors, jwtVerify, type JSONWebKeySet } from "jose";
import { accessTokenClaims, type AccessTokenClaims } from "../contract/areas/sessions.ts";
import { constants } from "../contract/headers.ts";
import type { Clock } from "../runtime/clock.ts";
import type { Transport } from "../transport/transport.ts";
import { answerSchema, sendBare } from "../transport/operation-call.ts";

/**
 * Local verification of access tokens against the project's key set (protocol.md §4.1), so server code can trust a
 * request's token without a round trip. The key set is cached for 300 s of the injected clock (spec §9).
 */

export type AccessTokenVerifier = (token: string) => Promise<AccessTokenClaims | null>;

export function createAccessTokenVerifier(transport: Transport, clock: Clock): AccessTokenVerifier {
  const projectId = transport.projectId;
  const cache = new Map<boolean, { fetchedAt: number; keys: ReturnType<typeof createLocalJWKSet> }>();

  async function keySet(includeAnonymous: boolean) {
    const hit = cache.get(includeAnonymous);
    if (hit && clock.now() - hit.fetchedAt < constants.jwksCacheMillis) return hit.keys;
    // The default set lists only the keys of audience {projectId}; anonymous and restricted tokens need the wider one.
    const response = await sendBare(transport, "jwks", {
      params: { project_id: projectId },
      query: includeAnonymous ? { include_anonymous: "true" } : {},
    });
    const keys = createLocalJWKSet(transport.parseJson(response, answerSchema("jwks", "server")) as JSONWebKeySet);
    cache.set(includeAnonymous, { fetchedAt: clock.now(), keys });
    return keys;
  }

  return async (token) => {
    let aud: unknown;
    try {
      aud = decodeJwt(token).aud;
    } catch {
      return null;
    }
    const keys = await keySet(aud !== projectId);
    try {
      const { payload } = await jwtVerify(token, keys, {
        algorithms: ["ES256"],
        audience: [projectId, `${projectId}:anon`, `${projectId}:restricted`],
        currentDate: new Date(clock.now()),
      });
      const parsed = accessTokenClaims.safeParse(payload);
      return parsed.success ? parsed.data : null;
    } catch (e) {
      // A bad signature, unknown key, wrong audience or expiry: not a token of this project's users.
      if (e instanceof errors.JOSEError) return null;
      throw e;
    }
  };
}
