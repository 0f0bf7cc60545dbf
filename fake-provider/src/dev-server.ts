/**
 * `@authsim/fake-provider/dev-server`: what a server in front of the emulator needs besides `createFakeProvider` (the
 * `authsim` CLI in its own package): the Host check, the refusal of real-looking keys and domains, the `--fixed-otp`
 * rule parser. Web standards only, like the rest of the core.
 */
export { controlRefusal, hostName, hostRefusal, type HostPolicy } from "./emulator/safety/request-guard.ts";
export { bodyTooLargeText, MAX_BODY_BYTES } from "./api/http/parse.ts";
export { corsHeaders } from "./api/http/cors.ts";
export {
  fixtureState,
  isRealServiceHost,
  liveStateReason,
  looksLikeLiveKey,
  storeState,
  type Found,
  type StateFound,
} from "./emulator/safety/live-keys.ts";
export { parseFixedOtpRule } from "./domain/ops/sign-in/fixed-otp.ts";
export { emulatorProjectKey } from "./domain/ops/projects/internal-api-keys.ts";
export { forbidFraming, FRAME_ANCESTORS_POLICY, FRAME_OPTIONS } from "./emulator/safety/framing.ts";
