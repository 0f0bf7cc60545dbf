import type { EndUserIpInfo } from "../../domain/store/account-records.ts";

/**
 * The end user's address and location as a proxy in front of the provider reports them (protocol.md §2.1:
 * x-forwarded-for and x-vercel-ip-country, -region, -city, -latitude, -longitude, -timezone). The session list shows
 * them (§5.7). Without an address there is nothing to report.
 */
export function endUserFromHeaders(headers: Headers): EndUserIpInfo | undefined {
  const ip = headers.get("x-forwarded-for")?.split(",")[0]?.trim() || headers.get("x-real-ip")?.trim();
  if (!ip) return undefined;
  const text = (name: string) => {
    const value = headers.get(`x-vercel-ip-${name}`);
    // Vercel URL-encodes the city (e.g. "S%C3%A3o%20Paulo").
    if (value === null || value === "") return null;
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  };
  const number = (name: string) => {
    const value = text(name);
    const parsed = value === null ? NaN : Number(value);
    return Number.isFinite(parsed) ? parsed : null;
  };
  return {
    ip,
    countryCode: text("country"),
    regionCode: text("country-region") ?? text("region"),
    cityName: text("city"),
    latitude: number("latitude"),
    longitude: number("longitude"),
    tzIdentifier: text("timezone"),
  };
}
