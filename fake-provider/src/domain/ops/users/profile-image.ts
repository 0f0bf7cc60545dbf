import { refusal } from "../../errors/refusals.ts";

/**
 * What a client may send as a user's or a team's image: an inline base64 image (png, jpeg, gif, bmp or webp) or bare
 * base64; a web URL is for server access only. Anything else is upstream's plain 400.
 */
const CLIENT_IMAGE = /^(data:image\/(png|jpe?g|gif|bmp|webp);base64,)?[A-Za-z0-9+/]+={0,2}$/;

export function assertClientProfileImage(value: string | null | undefined): void {
  if (value && !CLIENT_IMAGE.test(value)) throw refusal("invalidProfileImageUrl");
}
