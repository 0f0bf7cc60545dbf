import { z } from "zod";
import { listEnvelope, userIdOrMe, uuidV4 } from "./common.ts";
import { byCaller, created, defineOperations, json, success } from "../define-operations.ts";

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
export const sendPrimaryVerificationBody = z.strictObject({
  email: z.string().max(254),
  callback_url: z.string().url(),
});

/** The body of every code-redeeming endpoint (verify, reset, OTP sign-in and their check-code forms). */
export const verificationCodeBody = z.strictObject({ code: z.string().min(1).max(256) });
export const verificationCodeCheckResponse = z.object({ is_code_valid: z.literal(true) });

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const contactChannelsOperations = defineOperations("contact-channels", {
  listContactChannels: {
    method: "GET",
    path: "/contact-channels",
    access: "client",
    query: contactChannelListQuery,
    errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_NOT_FOUND"],
    responses: [json(listEnvelope(contactChannel))],
  },
  createContactChannel: {
    method: "POST",
    path: "/contact-channels",
    access: "client",
    body: byCaller(clientContactChannelCreate, serverContactChannelCreate),
    errors: [
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
      "USER_NOT_FOUND",
    ],
    responses: [created(contactChannel)],
  },
  sendVerificationCodeLegacy: {
    method: "POST",
    path: "/contact-channels/send-verification-code",
    access: "client",
    body: sendPrimaryVerificationBody,
    errors: ["EMAIL_ALREADY_VERIFIED", "EMAIL_IS_NOT_PRIMARY_EMAIL", "REDIRECT_URL_NOT_WHITELISTED", "SCHEMA_ERROR"],
    responses: [success],
  },
  verifyContactChannel: {
    method: "POST",
    path: "/contact-channels/verify",
    access: "client",
    body: verificationCodeBody,
    errors: [
      "VERIFICATION_CODE_ALREADY_USED",
      "VERIFICATION_CODE_EXPIRED",
      "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
      "VERIFICATION_CODE_NOT_FOUND",
    ],
    responses: [success],
  },
  checkContactChannelCode: {
    method: "POST",
    path: "/contact-channels/verify/check-code",
    access: "client",
    body: verificationCodeBody,
    errors: [
      "VERIFICATION_CODE_ALREADY_USED",
      "VERIFICATION_CODE_EXPIRED",
      "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
      "VERIFICATION_CODE_NOT_FOUND",
    ],
    responses: [json(verificationCodeCheckResponse)],
  },
  getContactChannel: {
    method: "GET",
    path: "/contact-channels/:user_id/:channel_id",
    access: "client",
    params: contactChannelParams,
    errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_NOT_FOUND"],
    responses: [json(contactChannel)],
  },
  updateContactChannel: {
    method: "PATCH",
    path: "/contact-channels/:user_id/:channel_id",
    access: "client",
    params: contactChannelParams,
    body: byCaller(clientContactChannelUpdate, serverContactChannelUpdate),
    errors: [
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
      "USER_NOT_FOUND",
    ],
    responses: [json(contactChannel)],
  },
  deleteContactChannel: {
    method: "DELETE",
    path: "/contact-channels/:user_id/:channel_id",
    access: "client",
    params: contactChannelParams,
    errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_NOT_FOUND"],
    responses: [success],
  },
  sendContactChannelVerificationCode: {
    method: "POST",
    path: "/contact-channels/:user_id/:channel_id/send-verification-code",
    access: "client",
    params: contactChannelParams,
    body: sendChannelVerificationBody,
    errors: [
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      "EMAIL_ALREADY_VERIFIED",
      "REDIRECT_URL_NOT_WHITELISTED",
      "USER_ID_DOES_NOT_EXIST",
    ],
    responses: [success],
  },
});
