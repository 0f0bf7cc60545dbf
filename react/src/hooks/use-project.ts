import type { Project } from "@authsim/sdk";
import { useCachedValue } from "./use-cached-value.ts";
import { useStackContext } from "./use-stack-app.ts";

/** The project's client view (GET /projects/current), cached for every component (spec §9). */
export function useProject(): Project {
  return useCachedValue(useStackContext().caches.project);
}
