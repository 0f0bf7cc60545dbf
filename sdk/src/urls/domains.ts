import { compileWildcard, type WildcardPart } from "../runtime/wildcard.ts";

/**
 * Trusted-domain rules of spec §5, one module for the SDK and the fake provider: the domain pattern, localhost
 * detection, redirect-URL matching (every endpoint that takes a redirect URL uses it) and production-mode checks.
 */

/** Localhost covers `localhost`, `*.localhost` and 127.x.x.x (spec §5). */
export function isLocalhost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  const parts = host.split(".");
  return parts.length === 4 && parts[0] === "127" && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/** A bare IPv4 or bracketed IPv6 host (flagged in production mode). */
export function isIpAddress(hostname: string): boolean {
  if (hostname.startsWith("[") && hostname.endsWith("]")) return true;
  const parts = hostname.split(".");
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/**
 * A host pattern: no leading or trailing dot, no "..", and otherwise letters, digits, dots, hyphens and "*" wildcards
 * (spec §5).
 */
export function isValidHostPattern(pattern: string): boolean {
  if (pattern.length === 0 || pattern.startsWith(".") || pattern.endsWith(".") || pattern.includes("..")) return false;
  return /^[A-Za-z0-9.*-]+$/.test(pattern);
}

/**
 * Matches a hostname against a pattern, case-insensitively: `*` stands for any run of characters within one label,
 * `**` for any run including dots (so `*.example.com` matches `a.example.com` but not `a.b.example.com`).
 */
export function matchesHostPattern(hostname: string, pattern: string): boolean {
  if (!isValidHostPattern(pattern)) return false;
  return compileWildcard(hostPatternParts(pattern.toLowerCase())).matches(hostname.toLowerCase());
}

/** `**` is any run, `*` any run within a label, everything else itself (matched without a backtracking regex). */
function hostPatternParts(pattern: string): WildcardPart[] {
  const parts: WildcardPart[] = [];
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== "*") parts.push({ kind: "char", char: pattern[i]! });
    else if (pattern[i + 1] === "*") {
      parts.push({ kind: "run" });
      i++;
    } else parts.push({ kind: "run", except: "." });
  }
  return parts;
}

/** A trusted domain as configured: a URL whose host may hold wildcards, e.g. `https://*.example.com`. */
export interface TrustedDomain {
  domain: string;
  handler_path?: string;
}

interface ParsedDomain {
  protocol: string;
  hostPattern: string;
  port: string;
  path: string;
}

const DEFAULT_PORTS: Record<string, string> = { "http:": "80", "https:": "443" };

/** Parses a trusted domain without letting the URL parser reject or rewrite its wildcards. */
export function parseTrustedDomain(domain: string): ParsedDomain | null {
  const match = /^(https?:)\/\/([^/:?#]+)(?::(\d+))?(\/[^?#]*)?$/i.exec(domain.trim());
  if (!match) return null;
  const [, protocol, host, port, path] = match;
  if (!isValidHostPattern(host!)) return null;
  const proto = protocol!.toLowerCase();
  return { protocol: proto, hostPattern: host!.toLowerCase(), port: port ?? DEFAULT_PORTS[proto]!, path: path ?? "/" };
}

function portOf(url: URL): string {
  return url.port || DEFAULT_PORTS[url.protocol] || "";
}

/**
 * Whether a redirect URL may be used (spec §5: "Redirect URLs must be on whitelisted domains"): localhost when the
 * project allows it, else same protocol, a matching host, the same port and a path under the domain's path.
 */
export function isTrustedRedirectUrl(
  url: string | URL,
  config: { allowLocalhost: boolean; domains: readonly TrustedDomain[] },
): boolean {
  let parsed: URL;
  try {
    parsed = typeof url === "string" ? new URL(url) : url;
  } catch {
    return false;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
  if (config.allowLocalhost && isLocalhost(parsed.hostname)) return true;
  return config.domains.some(({ domain }) => {
    const trusted = parseTrustedDomain(domain);
    if (!trusted) return false;
    const base = trusted.path.endsWith("/") ? trusted.path : `${trusted.path}/`;
    return (
      parsed.protocol === trusted.protocol &&
      matchesHostPattern(parsed.hostname, trusted.hostPattern) &&
      portOf(parsed) === trusted.port &&
      (parsed.pathname === trusted.path || parsed.pathname.startsWith(base))
    );
  });
}

export interface ProductionModeError {
  message: string;
  /** Where in the dashboard it is fixed. */
  relativeFixUrl: string;
}

export const LOCALHOST_IN_PRODUCTION_MESSAGE =
  "Localhost is not allowed in production mode, turn off Allow localhost in project settings";

/**
 * The checks a project must pass before production mode (spec §5). With the project's id, the fix URL is the
 * dashboard's page for its domains (`/projects/<id>/domains`, as the published SDK gives it).
 */
export function productionModeErrors(config: {
  allowLocalhost: boolean;
  domains: readonly TrustedDomain[];
  projectId?: string;
}): ProductionModeError[] {
  const errors: ProductionModeError[] = [];
  const fixUrl = config.projectId === undefined ? "/domains" : `/projects/${config.projectId}/domains`;
  if (config.allowLocalhost) errors.push({ message: LOCALHOST_IN_PRODUCTION_MESSAGE, relativeFixUrl: fixUrl });
  for (const { domain } of config.domains) {
    const parsed = parseTrustedDomain(domain);
    if (!parsed) {
      errors.push({ message: `Trusted domain ${domain} is not a valid URL`, relativeFixUrl: fixUrl });
      continue;
    }
    const host = parsed.hostPattern;
    if (isLocalhost(host))
      errors.push({
        message: `Trusted domain ${domain} is a localhost domain, which is not allowed in production mode`,
        relativeFixUrl: fixUrl,
      });
    else if (isIpAddress(host))
      errors.push({
        message: `Trusted domain ${domain} is an IP address; production mode needs a domain name`,
        relativeFixUrl: fixUrl,
      });
    if (parsed.protocol !== "https:")
      errors.push({
        message: `Trusted domain ${domain} does not use HTTPS, which production mode requires`,
        relativeFixUrl: fixUrl,
      });
  }
  return errors;
}
