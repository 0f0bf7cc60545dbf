/**
 * The request log (Firebase Emulator UI style): every /api/v1 request with its outcome and *why* — which rule of the
 * pipeline decided it. A bounded ring buffer: the emulator runs for days in a dev loop, so old entries fall off rather
 * than growing memory. Not part of snapshots (it describes traffic, not state); cleared by reset.
 */
export interface RequestLogEntry {
  /** Monotonic per provider; survives clearing, so a poller can ask for entries after the last one it saw. */
  seq: number;
  /** When the request arrived, on the provider's (controllable) clock. */
  atMillis: number;
  method: string;
  /** The pathname, e.g. /api/v1/users/me (secret-shaped segments masked, redact.ts). */
  path: string;
  /** The query string without "?" ("" when none), with secret parameters masked (redact.ts): the log holds no secret. */
  query: string;
  projectId: string | null;
  /** The access type the request claimed (x-stack-access-type), valid or not. */
  accessType: string | null;
  /** The signed-in user of a valid access token, when there was one. */
  userId: string | null;
  /** The contract operation the path matched, when it matched one. */
  operationId: string | null;
  /** The status the client saw (the real one under override-error-status); null for a dropped connection. */
  status: number | null;
  knownError: string | null;
  /** Real elapsed milliseconds (latency faults included): a diagnostic, never an input to a decision. */
  durationMillis: number;
  /** Why the answer is what it is, in pipeline order (fault rules, the auth step, schema problems, the op). */
  why: string[];
  /** Sent by the emulator's own dashboard (x-authsim-dashboard header), so the UI can hide its own traffic. */
  fromDashboard: boolean;
}

export interface RequestLogFilter {
  method?: string;
  /** A substring of the path. */
  path?: string;
  projectId?: string;
  /** An exact status, or a class such as "4xx". */
  status?: string;
  knownError?: string;
  afterSeq?: number;
  /** Leave out the dashboard's own requests. */
  excludeDashboard?: boolean;
  /** At most this many, the newest. */
  limit?: number;
}

export interface RequestLog {
  readonly capacity: number;
  /** How many entries fell off the end since the last clear (the dashboard shows it). */
  readonly dropped: number;
  record(entry: Omit<RequestLogEntry, "seq">): RequestLogEntry;
  /** Oldest first. */
  list(filter?: RequestLogFilter): RequestLogEntry[];
  clear(): void;
}

export const DEFAULT_REQUEST_LOG_CAPACITY = 1_000;

function matches(entry: RequestLogEntry, f: RequestLogFilter): boolean {
  if (f.method !== undefined && entry.method !== f.method.toUpperCase()) return false;
  if (f.path !== undefined && !entry.path.includes(f.path)) return false;
  if (f.projectId !== undefined && entry.projectId !== f.projectId) return false;
  if (f.knownError !== undefined && entry.knownError !== f.knownError) return false;
  if (f.afterSeq !== undefined && entry.seq <= f.afterSeq) return false;
  if (f.excludeDashboard && entry.fromDashboard) return false;
  if (f.status !== undefined) {
    const status = entry.status === null ? "" : String(entry.status);
    const statusClass = /^[1-5]xx$/i.test(f.status);
    if (statusClass ? status[0] !== f.status[0] : status !== f.status) return false;
  }
  return true;
}

export function createRequestLog(capacity = DEFAULT_REQUEST_LOG_CAPACITY): RequestLog {
  if (!Number.isInteger(capacity) || capacity < 1)
    throw new RangeError("The request log capacity must be a positive integer.");
  // An array written round-robin once full: recording is O(1) however long the emulator runs. It grows as entries come
  // rather than being made at its capacity: most providers of a test suite see a few requests, and a thousand empty
  // slots for each was garbage for the collector (issue 30).
  let slots: (RequestLogEntry | undefined)[] = [];
  let next = 0;
  let seq = 0;
  let recordedSinceClear = 0;
  const ordered = (): RequestLogEntry[] => {
    // Until the array is full, `next` is its length and the oldest entry is the first.
    const out: RequestLogEntry[] = [];
    for (let i = 0; i < slots.length; i++) {
      const entry = slots[(next + i) % slots.length];
      if (entry) out.push(entry);
    }
    return out;
  };
  return {
    capacity,
    get dropped() {
      return Math.max(0, recordedSinceClear - capacity);
    },
    record(fields) {
      const entry: RequestLogEntry = { seq: ++seq, ...fields };
      recordedSinceClear++;
      slots[next] = entry;
      next = (next + 1) % capacity;
      return entry;
    },
    list(filter = {}) {
      const found = ordered().filter((e) => matches(e, filter));
      return filter.limit !== undefined ? found.slice(Math.max(0, found.length - filter.limit)) : found;
    },
    clear() {
      slots = [];
      next = 0;
      recordedSinceClear = 0;
    },
  };
}
