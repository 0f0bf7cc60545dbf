import { z } from "zod";
import { userIdOrMe, uuidV4 } from "./common.ts";

/** Contact channels and email verification (spec §3 "Contact channel", protocol.md §5.6, §6.3, §7.3). */

/** Only email channels exist on the wire today. */
export const contactChannelType = z.literal("email");
const channelValue = z.string().max(254).email();

export const contactChannel = z.object({
  user_id: uuidV4,
  id: uuidV4,
  value: z.string(),
  type: contactChannelType,
  used_for_auth: z.boolean(),
  is_verified: z.boolean(),
  is_primary: z.boolean(),
});
export type ContactChannelJson = z.infer<typeof contactChannel>;

/** POST /contact-channels with client access; a server may also say whether the address is verified. */
export const clientContactChannelCreate = z.strictObject({
  user_id: userIdOrMe,
  value: channelValue,
  type: contactChannelType,
  used_for_auth: z.boolean(),
  is_primary: z.boolean().optional(),
});
export const serverContactChannelCreate = clientContactChannelCreate.extend({ is_verified: z.boolean().optional() });
export type ServerContactChannelCreate = z.infer<typeof serverContactChannelCreate>;

export const clientContactChannelUpdate = z.strictObject({
  value: channelValue.optional(),
  type: contactChannelType.optional(),
  used_for_auth: z.boolean().optional(),
  is_primary: z.boolean().optional(),
});
export const serverContactChannelUpdate = clientContactChannelUpdate.extend({ is_verified: z.boolean().optional() });
export type ServerContactChannelUpdate = z.infer<typeof serverContactChannelUpdate>;

/** GET /contact-channels?user_id= (a client must name itself). */
export const contactChannelListQuery = z.strictObject({ user_id: userIdOrMe });
export const contactChannelParams = z.strictObject({ user_id: userIdOrMe, channel_id: uuidV4 });

/** POST /contact-channels/{user_id}/{id}/send-verification-code. */
export const sendChannelVerificationBody = z.strictObject({ callback_url: z.string().url() });
/** POST /contact-channels/send-verification-code (legacy, the primary email of the signed-in user). */
export const sendPrimaryVerificationBody = z.strictObject({ email: z.string().max(254), callback_url: z.string().url() });

/** The body of every code-redeeming endpoint (verify, reset, OTP sign-in and their check-code forms). */
export const verificationCodeBody = z.strictObject({ code: z.string().min(1).max(256) });
export const verificationCodeCheckResponse = z.object({ is_code_valid: z.literal(true) });
