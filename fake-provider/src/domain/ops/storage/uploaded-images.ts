import { base64ToBytes, uuid } from "@authsim/sdk/runtime";
import { refusal } from "../../errors/refusals.ts";
import type { StoredObjectRecord } from "../../store/service-records.ts";
import type { Tables } from "../../store/store.ts";
import type { OpContext, ProviderSettings } from "../context.ts";

/**
 * Uploaded images, as the real service stores them: a base64 data URL given as a user's, team's or member's profile
 * image or a project's logo is decoded, checked to be an image, put in its storage bucket under
 * `<folder>/<uuid>.<format>`, and the record keeps the object's public URL (`<endpoint>/<bucket>/<key>`: its
 * development setup's `http://localhost:<prefix>21/stack-storage/…`). A web URL is kept as given. The emulator's bucket
 * is the `storedObjects` table, served by emulator/storage/ on the storage port or under the API's own origin.
 */

/** The real development setup's public bucket (STACK_S3_BUCKET). */
export const STORAGE_BUCKET = "stack-storage";
/** Where the API's own origin serves the bucket when no storage port is configured (emulator/storage/routes.ts). */
export const STORAGE_PREFIX = "/__storage";

export type ImageFolder =
  "user-profile-images" | "team-profile-images" | "team-member-profile-images" | "project-logos";

/** The real service's limit on an uploaded image (1 MB), checked on the base64 text and on the bytes. */
export const MAX_IMAGE_BYTES = 1_000_000;

const DATA_URL = /^data:image\/[a-zA-Z0-9]+;base64,/;

/** The storage endpoint objects are named under: the configured one, or the API's own origin at STORAGE_PREFIX. */
export const storageEndpoint = (settings: ProviderSettings): string =>
  (settings.storageUrl ?? `${settings.apiBaseUrl}${STORAGE_PREFIX}`).replace(/\/+$/, "");

/** The formats an image is recognised as, by its first bytes (what the real service's image library reports). */
const SIGNATURES: { format: string; contentType: string; matches: (b: Uint8Array) => boolean }[] = [
  {
    format: "png",
    contentType: "image/png",
    matches: (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((x, i) => b[i] === x),
  },
  { format: "jpeg", contentType: "image/jpeg", matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    format: "gif",
    contentType: "image/gif",
    matches: (b) => ascii(b, 0, 6) === "GIF87a" || ascii(b, 0, 6) === "GIF89a",
  },
  {
    format: "webp",
    contentType: "image/webp",
    matches: (b) => ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 12) === "WEBP",
  },
];

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

/**
 * The value a record keeps for an image field: `undefined` and `null` as given, a base64 data URL stored and replaced
 * by its URL, anything else unchanged (the callers' own checks decide which other values a caller may send).
 */
export function storedImageUrl<T extends string | null | undefined>(
  ctx: OpContext,
  value: T,
  folder: ImageFolder,
): T | string {
  if (typeof value !== "string" || !DATA_URL.test(value)) return value;
  const base64 = value.replace(DATA_URL, "");
  if (base64.length > MAX_IMAGE_BYTES) throw refusal("imageTooLarge", base64.length, MAX_IMAGE_BYTES);
  let bytes: Uint8Array;
  try {
    bytes = base64ToBytes(base64);
  } catch {
    throw refusal("invalidImageFormat");
  }
  const kind = SIGNATURES.find((s) => s.matches(bytes));
  if (!kind) throw refusal("invalidImageFormat");
  const key = `${folder}/${uuid(ctx.random)}.${kind.format}`;
  const record: StoredObjectRecord = { key, contentType: kind.contentType, base64, createdAtMillis: ctx.now };
  ctx.tables.storedObjects.set(key, record);
  return `${storageEndpoint(ctx.settings)}/${STORAGE_BUCKET}/${key}`;
}

/** A stored object by bucket and key, or undefined (the storage server's 404). */
export function storedObject(tables: Pick<Tables, "storedObjects">, bucket: string, key: string) {
  return bucket === STORAGE_BUCKET ? tables.storedObjects.get(key) : undefined;
}

/**
 * An image URL as it travels in a fixture: one of the emulator's stored objects (whatever endpoint named it) as its data
 * URL again, so the document loads into another emulator, which stores it anew; any other URL unchanged.
 */
export function inlineStoredImage(tables: Pick<Tables, "storedObjects">, url: string | null): string | null {
  if (url === null) return null;
  const marker = `/${STORAGE_BUCKET}/`;
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return url;
  }
  const at = path.indexOf(marker);
  const object = at < 0 ? undefined : tables.storedObjects.get(decodeURIComponent(path.slice(at + marker.length)));
  return object ? `data:${object.contentType};base64,${object.base64}` : url;
}
