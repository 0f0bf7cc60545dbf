import type { AppCaches } from "@authsim/sdk";

/**
 * One navigation at a time per app: the first redirect wins and later ones (say, "user required → sign-in" firing
 * while a deletion already sends the page home) join it instead of racing it. For "window" a flight lasts the 2 s
 * redirect pause of spec §2. A page that was already sent somewhere is not sent there again when it re-renders
 * (a router's navigate returns at once, before the page has changed).
 */
interface Flight {
  url: string;
  from: string;
  promise: Promise<void>;
  settled: boolean;
}

const flights = new WeakMap<AppCaches, Flight>();

export function redirectOnce(caches: AppCaches, url: string, from: string): Promise<void> {
  const last = flights.get(caches);
  if (last && (!last.settled || (last.url === url && last.from === from))) return last.promise;
  const flight: Flight = { url, from, settled: false, promise: Promise.resolve() };
  flight.promise = caches.redirect(url).finally(() => {
    flight.settled = true;
  });
  flights.set(caches, flight);
  return flight.promise;
}
