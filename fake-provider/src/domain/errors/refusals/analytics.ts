import type { Arg, Refusal } from "./refusal.ts";

/** Plain-text refusals of analytics events and session replays (domain/ops/analytics/). */
export const analyticsRefusals = {
  // domain/ops/analytics/analytics-events.ts
  refreshTokenRequiredAnalyticsEvents: { status: 400, text: "A refresh token is required for analytics events" },
  // domain/ops/analytics/session-replays.ts
  refreshTokenRequiredSessionReplays: { status: 400, text: "A refresh token is required for session replays" },
  requestBodyTooLargeMax: {
    status: 413,
    text: (MAX_BODY_BYTES: Arg) => `Request body too large (max ${MAX_BODY_BYTES} bytes)`,
  },
  eventsEmpty: { status: 400, text: "events must not be empty" },
  tooManyEventsMax: {
    status: 400,
    text: (MAX_EVENTS_PER_BATCH: Arg) => `Too many events (max ${MAX_EVENTS_PER_BATCH})`,
  },
  notUuidValues: {
    status: 400,
    text: (name: Arg) => `${name} must contain valid UUID values`,
    operations: [
      "listSessionReplays",
      "listSessionReplayChunks",
      "getSessionReplayChunkEvents",
      "getSessionReplayEvents",
    ],
  },
  notNonNegativeInteger: {
    status: 400,
    text: (name: Arg) => `${name} must be a non-negative integer`,
    operations: [
      "listSessionReplays",
      "listSessionReplayChunks",
      "getSessionReplayChunkEvents",
      "getSessionReplayEvents",
    ],
  },
  notNonNegativeTimestamp: {
    status: 400,
    text: (name: Arg) => `${name} must be a non-negative timestamp in milliseconds`,
    operations: [
      "listSessionReplays",
      "listSessionReplayChunks",
      "getSessionReplayChunkEvents",
      "getSessionReplayEvents",
    ],
  },
  durationMsMinLessThan: {
    status: 400,
    text: "duration_ms_min must be less than or equal to duration_ms_max",
    operations: [
      "listSessionReplays",
      "listSessionReplayChunks",
      "getSessionReplayChunkEvents",
      "getSessionReplayEvents",
    ],
  },
  lastEventAtFromMillis: {
    status: 400,
    text: "last_event_at_from_millis must be less than or equal to last_event_at_to_millis",
    operations: [
      "listSessionReplays",
      "listSessionReplayChunks",
      "getSessionReplayChunkEvents",
      "getSessionReplayEvents",
    ],
  },
} as const satisfies Readonly<Record<string, Refusal>>;
