import { base64url } from "jose";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { cryptoRandom, type RandomSource } from "@authsim/sdk/runtime";
import { encodeCbor } from "./cbor.ts";

/**
 * A software WebAuthn authenticator for tests without a browser: it makes ES256 (P-256) credentials with Web Crypto,
 * answers registrations with `none` attestation and signs assertions (WebAuthn Level 2 §6.1, §6.5, §8.7), so the fake
 * provider's @simplewebauthn verification runs for real. Test support only — keys live in memory, unprotected.
 */

/** What a browser ceremony failure looks like from @simplewebauthn/browser: a WebAuthnError with a code (spec §8). */
export class VirtualAuthenticatorError extends Error {
  override readonly name = "WebAuthnError";
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface StoredCredential {
  id: Uint8Array;
  rpId: string;
  userHandle: string;
  privateKey: CryptoKey;
  signCount: number;
}

const ES256 = -7;
const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_CREDENTIAL = 0x40;

const utf8 = (s: string) => new TextEncoder().encode(s);
const sha256 = async (bytes: Uint8Array) =>
  new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(bytes)));
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
};
const uint32 = (n: number) => new Uint8Array([(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]);

/** WebAuthn wants ES256 signatures DER-encoded (RFC 3279); Web Crypto gives r‖s. */
function rawToDer(raw: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array) => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start++;
    const trimmed = bytes.slice(start);
    const body = trimmed[0]! & 0x80 ? concat(new Uint8Array([0]), trimmed) : trimmed;
    return concat(new Uint8Array([0x02, body.length]), body);
  };
  const seq = concat(integer(raw.slice(0, 32)), integer(raw.slice(32)));
  return concat(new Uint8Array([0x30, seq.length]), seq);
}

/** Whether `rpId` may be used from `hostname` (WebAuthn §5.1.3 step 8: equal, or a registrable suffix). */
function rpIdFits(rpId: string, hostname: string): boolean {
  return hostname === rpId || hostname.endsWith(`.${rpId}`);
}

export interface VirtualAuthenticatorOptions {
  /** The page origin the "browser" reports in clientDataJSON, e.g. http://localhost:3000. */
  origin: string;
  /** Credential ids come from here (seed it for reproducible ids). */
  random?: RandomSource;
}

export class VirtualAuthenticator {
  readonly origin: string;
  private readonly random: RandomSource;
  private readonly credentials: StoredCredential[] = [];

  constructor(options: VirtualAuthenticatorOptions) {
    this.origin = options.origin;
    this.random = options.random ?? cryptoRandom;
  }

  /** The credentials held, as (id, rpId, user handle, signature counter). */
  list(): { id: string; rpId: string; userHandle: string; signCount: number }[] {
    return this.credentials.map((c) => ({
      id: base64url.encode(c.id),
      rpId: c.rpId,
      userHandle: c.userHandle,
      signCount: c.signCount,
    }));
  }

  private rpIdOf(requested: string | undefined): string {
    const hostname = new URL(this.origin).hostname;
    const rpId = requested ?? hostname;
    if (!rpIdFits(rpId, hostname))
      throw new VirtualAuthenticatorError("ERROR_INVALID_RP_ID", `The RP ID "${rpId}" is invalid for this domain`);
    return rpId;
  }

  private clientData(type: "webauthn.create" | "webauthn.get", challenge: string): Uint8Array {
    return utf8(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** navigator.credentials.create() for the options' JSON form, answering RegistrationResponseJSON. */
  async register(options: PublicKeyCredentialCreationOptionsJSON): Promise<RegistrationResponseJSON> {
    const rpId = this.rpIdOf(options.rp.id);
    const userId = base64url.decode(options.user.id);
    if (userId.length < 1 || userId.length > 64)
      throw new VirtualAuthenticatorError(
        "ERROR_INVALID_USER_ID_LENGTH",
        "User ID was not between 1 and 64 characters",
      );
    if (!options.pubKeyCredParams.some((p) => p.alg === ES256)) {
      throw new VirtualAuthenticatorError(
        "ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG",
        "No entry in pubKeyCredParams was of type ES256",
      );
    }
    const excluded = new Set((options.excludeCredentials ?? []).map((c) => c.id));
    if (this.credentials.some((c) => c.rpId === rpId && excluded.has(base64url.encode(c.id)))) {
      throw new VirtualAuthenticatorError(
        "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED",
        "The authenticator was previously registered",
      );
    }
    const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
      "sign",
      "verify",
    ])) as CryptoKeyPair;
    const raw = new Uint8Array(await crypto.subtle.exportKey("raw", keys.publicKey));
    const coseKey = encodeCbor(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, ES256],
        [-1, 1],
        [-2, raw.slice(1, 33)],
        [-3, raw.slice(33, 65)],
      ]),
    );
    const id = this.random.bytes(16);
    const credential: StoredCredential = {
      id,
      rpId,
      userHandle: base64url.encode(userId),
      privateKey: keys.privateKey,
      signCount: 0,
    };
    // Authenticator data with attested credential data: a zero AAGUID, as `none` attestation allows.
    const authData = concat(
      await sha256(utf8(rpId)),
      new Uint8Array([FLAG_USER_PRESENT | FLAG_USER_VERIFIED | FLAG_ATTESTED_CREDENTIAL]),
      uint32(credential.signCount),
      new Uint8Array(16),
      new Uint8Array([id.length >> 8, id.length & 0xff]),
      id,
      coseKey,
    );
    const attestationObject = encodeCbor(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    this.credentials.push(credential);
    const credentialId = base64url.encode(id);
    return {
      id: credentialId,
      rawId: credentialId,
      type: "public-key",
      response: {
        clientDataJSON: base64url.encode(this.clientData("webauthn.create", options.challenge)),
        attestationObject: base64url.encode(attestationObject),
        transports: ["internal"],
        publicKeyAlgorithm: ES256,
        authenticatorData: base64url.encode(authData),
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** navigator.credentials.get() for the options' JSON form, answering AuthenticationResponseJSON. */
  async authenticate(options: PublicKeyCredentialRequestOptionsJSON): Promise<AuthenticationResponseJSON> {
    const rpId = this.rpIdOf(options.rpId);
    const allowed = new Set((options.allowCredentials ?? []).map((c) => c.id));
    const credential = this.credentials.find(
      (c) => c.rpId === rpId && (allowed.size === 0 || allowed.has(base64url.encode(c.id))),
    );
    if (!credential)
      throw new VirtualAuthenticatorError(
        "ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY",
        "The operation either timed out or was not allowed (no credential for this RP ID)",
      );
    credential.signCount += 1;
    const authData = concat(
      await sha256(utf8(rpId)),
      new Uint8Array([FLAG_USER_PRESENT | FLAG_USER_VERIFIED]),
      uint32(credential.signCount),
    );
    const clientDataJSON = this.clientData("webauthn.get", options.challenge);
    const signed = concat(authData, await sha256(clientDataJSON));
    const raw = new Uint8Array(
      await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, credential.privateKey, new Uint8Array(signed)),
    );
    const credentialId = base64url.encode(credential.id);
    return {
      id: credentialId,
      rawId: credentialId,
      type: "public-key",
      response: {
        clientDataJSON: base64url.encode(clientDataJSON),
        authenticatorData: base64url.encode(authData),
        signature: base64url.encode(rawToDer(raw)),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }
}
