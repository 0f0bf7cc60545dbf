import { z } from "zod";
import { metadata, millis, uuidV4 } from "./common.ts";

/** Team views (spec §3, protocol.md §5.3). The team endpoints themselves arrive with the teams issue. */
export const clientTeam = z.object({
  id: uuidV4,
  display_name: z.string(),
  profile_image_url: z.string().nullable(),
  client_metadata: metadata.optional(),
  client_read_only_metadata: metadata.optional(),
});
export const serverTeam = clientTeam.extend({
  created_at_millis: millis,
  server_metadata: metadata.optional(),
});
export type ClientTeamJson = z.infer<typeof clientTeam>;
export type ServerTeamJson = z.infer<typeof serverTeam>;
