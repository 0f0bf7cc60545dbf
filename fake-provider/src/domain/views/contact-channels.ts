import type { ContactChannelJson } from "@authsim/sdk/contract";
import type { ContactChannelRecord } from "../store/account-records.ts";

/** protocol.md §5.6: the same view for every access type. */
export function contactChannelView(channel: ContactChannelRecord): ContactChannelJson {
  return {
    user_id: channel.userId,
    id: channel.id,
    value: channel.value,
    type: channel.type,
    used_for_auth: channel.usedForAuth,
    is_verified: channel.isVerified,
    is_primary: channel.isPrimary,
  };
}
