import type { CheckVersionResponse } from "@authsim/sdk/contract";
import { compare, parse, type SemVer } from "semver";

/**
 * POST /check-version (protocol.md §6.1): is the dashboard's or CLI's package version current? The rules and their
 * order are upstream's (A26 route): not a version, then older than the security floor, then another major or minor
 * line (severe), then an older patch (not severe), then anything but exactly the provider's version or newer (severe).
 * The wording is the emulator's own; the answer is always 200.
 */

/** The provider release the emulator stands for: the published SDK it is tested with (@stackframe/js 2.8.108). */
export const EMULATED_PROVIDER_VERSION = "2.8.108";

/** Releases before this miss the React Server Components fix (CVE-2025-55182); upstream calls them out as severe. */
export const SECURITY_FLOOR_VERSION = "2.8.57";

const outdated = (severe: boolean, error: string): CheckVersionResponse => ({ upToDate: false, error, severe });

export function checkVersion(
  clientVersion: string,
  providerVersion: string = EMULATED_PROVIDER_VERSION,
): CheckVersionResponse {
  const server = parse(providerVersion);
  if (!server) throw new RangeError(`The emulated provider version "${providerVersion}" is not a semantic version.`);
  // Like upstream, a leading "v" or "=" and surrounding spaces still parse; that spelling is judged further down.
  const client = parse(clientVersion.trim());
  if (!client) {
    return outdated(
      true,
      `"${clientVersion}" is not a semantic version, so its age cannot be judged. Update to the latest version (v${providerVersion}) to get the latest features and security fixes.`,
    );
  }
  const cmp = (other: SemVer | string) => compare(client, other);
  if (cmp(SECURITY_FLOOR_VERSION) < 0) {
    return outdated(
      true,
      `Version ${clientVersion} predates v${SECURITY_FLOOR_VERSION} and its security fixes, including the React Server Components advisory (CVE-2025-55182). Update immediately.`,
    );
  }
  if (client.major !== server.major || client.minor !== server.minor) {
    return outdated(
      true,
      `Version ${clientVersion} is severely outdated: the provider runs v${providerVersion}. Update as soon as possible; security fixes only reach current versions.`,
    );
  }
  if (cmp(server) < 0) {
    return outdated(
      false,
      `Version ${clientVersion} is outdated (the provider runs v${providerVersion}). Update to get the latest features and security fixes.`,
    );
  }
  // Upstream compares the strings here: same precedence but another spelling (a build suffix, a leading "v") is not
  // a version the provider knows.
  if (cmp(server) <= 0 && clientVersion !== providerVersion) {
    return outdated(
      true,
      `Version ${clientVersion} is not the provider's version (v${providerVersion}). Update to v${providerVersion}.`,
    );
  }
  return { upToDate: true };
}
