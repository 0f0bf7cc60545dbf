import { expect } from "vitest";
import { devProjectSeed } from "@authsim/fixtures";
import {
  DEFAULT_BRANCH_ID,
  type AccessType,
  type ConcreteKnownErrorCode,
  type ServerUserCreate,
} from "@authsim/sdk/contract";
import { manualClock, seededRandom, type RandomSource } from "@authsim/sdk/runtime";
import { defaultCryptoBackend } from "../domain/auth/default-crypto.ts";
import { signAccessToken } from "../domain/auth/tokens.ts";
import type { Auth } from "../api/auth/parse-auth.ts";
import { hashCosts } from "../domain/auth/passwords.ts";
import { controllableClock, type ControllableClock } from "../clock.ts";
import { KnownErrorException, StatusError } from "../domain/errors/known-error.ts";
import type { AuthedContext, OpContext, ProviderSettings } from "../domain/ops/context.ts";
import { openSession } from "../domain/ops/sign-in/sessions.ts";
import { createUser } from "../domain/ops/users/users.ts";
import { opContextOn, runOp } from "../domain/run-op.ts";
import { applySeed, defaultSeed, type ProviderSeed } from "../seed.ts";
import type { EndUserIpInfo } from "../domain/store/account-records.ts";
import type { ProjectRecord, UserRecord } from "../domain/store/records.ts";
import { Store, type StoreSnapshot, type Tables } from "../domain/store/store.ts";
import { START_MILLIS } from "./start.ts";

const DEV = devProjectSeed;

/**
 * Operations tested at their seam: an op is a function of the tables, its input, the clock and the random source
 * (domain/ops/context.ts), so a test can run it without HTTP. `opSeam()` builds what createFakeProvider builds for ops — a
 * store seeded by seed.ts, a controllable clock (moved only by the test, from START_MILLIS), the seeded random source
 * and the provider's default settings — and runs an op in one store transaction exactly as api/routes/mount.ts does: a
 * throw rolls every write back, except those the op made through `keepOnFailure`, which are written again afterwards.
 *
 *     const seam = opSeam();                                             // or opSeam({ seed: devSeedWith({ sign_up_enabled: false }) })
 *     const user = await seam.addUser({ primary_email: "a@example.com", password: "correct horse battery" });
 *     const out = await seam.run(asClient(), (ctx) => passwordSignIn(ctx, { email: "a@example.com", password: "x" }));
 *     // out: { ok: true, value } or { ok: false, error: KnownErrorException | StatusError }
 *     await seam.refuses(asClient(), (ctx) => passwordSignIn(ctx, …), "EMAIL_PASSWORD_MISMATCH"); // and no table changed
 *     seam.clock.advance(10 * 60_000);                                   // then run again to see expiry
 *     seam.tables.sessions.size;                                         // read the state
 *
 * Any other throw (what the app would answer with a 500) fails the test.
 */

export interface OpSeamOptions {
  /** The projects besides `internal`, through seed.ts's applySeed: the dev project (and its payments) by default. */
  seed?: ProviderSeed;
  /** The clock's start; START_MILLIS (2025-06-15) by default. */
  startMillis?: number;
  /** Settings over the provider's defaults (fast hashing, 600 s access tokens). */
  settings?: Partial<ProviderSettings>;
  /** The random source's seed: the same seed gives the same ids, codes and tokens. */
  randomSeed?: string;
}

/** What an op did: its result, or the known error or plain-text 4xx it refused with. */
export type Outcome<R> = { ok: true; value: R } | { ok: false; error: KnownErrorException | StatusError };

/** A known error's code, or the status of a plain-text refusal (StatusError). */
export type Refusal = ConcreteKnownErrorCode | number;
export type RefusedWith<C extends Refusal> = C extends number ? StatusError : KnownErrorException;

/** Who calls an op that needs a caller (what parseAuth would have made of the request's headers). */
export interface Caller {
  type: AccessType;
  /** The project by id; the dev project by default. */
  projectId?: string;
  /** The signed-in user, if any, and the session its access token was minted for. */
  user?: UserRecord | null;
  sessionId?: string | null;
}

export interface OpSeam {
  readonly store: Store;
  readonly clock: ControllableClock;
  readonly random: RandomSource;
  readonly settings: ProviderSettings;
  /** The tables, to read and assert on. Write only through `run` (ops) so writes go through their transitions. */
  readonly tables: Tables;
  /** Runs an op without a caller (`ctx: OpContext`). */
  run<R>(op: (ctx: OpContext) => R | Promise<R>, endUser?: EndUserIpInfo): Promise<Outcome<R>>;
  /** Runs an op as `caller` (`ctx: AuthedContext`, auth built from the tables as they are when the op starts). */
  run<R>(caller: Caller, op: (ctx: AuthedContext) => R | Promise<R>, endUser?: EndUserIpInfo): Promise<Outcome<R>>;
  /** `run` that expects success and returns the op's result (a refusal fails the test with its code). */
  ok<R>(op: (ctx: OpContext) => R | Promise<R>): Promise<R>;
  ok<R>(caller: Caller, op: (ctx: AuthedContext) => R | Promise<R>): Promise<R>;
  /**
   * `run` that expects the known error `code` (or, given a number, the plain-text 4xx of that status) and that the
   * refusal left every table as it was (the atomicity rule); returns the error for checks of its details.
   */
  refuses<C extends Refusal>(op: (ctx: OpContext) => unknown, code: C): Promise<RefusedWith<C>>;
  refuses<C extends Refusal>(caller: Caller, op: (ctx: AuthedContext) => unknown, code: C): Promise<RefusedWith<C>>;
  /**
   * `refuses` for a route whose verification code the real service spends before its handler refuses (spendCode in
   * domain/ops/sign-in/verification-codes.ts): the one change left is that code marked used.
   */
  refusesSpendingCode<C extends Refusal>(op: (ctx: OpContext) => unknown, code: C): Promise<RefusedWith<C>>;
  refusesSpendingCode<C extends Refusal>(
    caller: Caller,
    op: (ctx: AuthedContext) => unknown,
    code: C,
  ): Promise<RefusedWith<C>>;
  /** A project's record (the dev project by default). */
  project(id?: string): ProjectRecord;
  /** A user made by the server's create-user op (domain/ops/users/users.ts createUser), as fixtures load theirs. */
  addUser(body?: ServerUserCreate, projectId?: string): Promise<UserRecord>;
  /** Opens a session for the user (domain/ops/sign-in/sessions.ts) and returns the caller holding its access token. */
  signIn(user: UserRecord, type?: AccessType): Promise<Caller & { refreshToken: string; accessToken: string }>;
  /** The whole state, to compare before and after. */
  snapshot(): StoreSnapshot;
}

export function opSeam(options: OpSeamOptions = {}): OpSeam {
  const clock = controllableClock(manualClock(options.startMillis ?? START_MILLIS));
  const random = seededRandom(options.randomSeed ?? "op-seam");
  const settings: ProviderSettings = {
    apiBaseUrl: "http://localhost:8102",
    accessTokenLifetimeSeconds: 600,
    passwordHashIterations: hashCosts.fast,
    crypto: defaultCryptoBackend,
    fixedOtp: [],
    ...options.settings,
  };
  const store = new Store();
  store.transactSync((tables) =>
    applySeed(opContextOn(tables, clock.now(), random, settings), options.seed ?? defaultSeed),
  );

  const authOf = (tables: Tables, caller: Caller): Auth => {
    const projectId = caller.projectId ?? caller.user?.projectId ?? DEV.id;
    const project = tables.projects.get(projectId);
    if (!project) throw new Error(`op-seam: no project ${projectId}`);
    // The user as the tables hold it now (parseAuth reads it at the start of the request, after earlier ops wrote it).
    const user = caller.user ? (tables.users.get(caller.user.id) ?? null) : null;
    return {
      type: caller.type,
      project,
      branchId: DEFAULT_BRANCH_ID,
      user,
      sessionId: caller.sessionId ?? null,
      claims: null,
    };
  };

  // The transaction api/routes/mount.ts runs an op in (runOp): keepOnFailure writes survive a refusal.
  async function execute<R>(
    caller: Caller | null,
    op: (ctx: AuthedContext) => R | Promise<R>,
    endUser?: EndUserIpInfo,
  ): Promise<Outcome<R>> {
    try {
      // Ops without a caller never read ctx.auth; the cast only lets both overloads share this body.
      const value = await runOp(
        { store, clock, random, settings },
        (ctx) => op((caller ? { ...ctx, auth: authOf(ctx.tables, caller) } : ctx) as AuthedContext),
        endUser ? { endUser } : {},
      );
      return { ok: true, value };
    } catch (error) {
      if (error instanceof KnownErrorException || error instanceof StatusError) return { ok: false, error };
      throw error;
    }
  }

  type AnyOp<R> = (ctx: AuthedContext) => R | Promise<R>;
  const split = <R>(a: Caller | AnyOp<R>, b: unknown): [Caller | null, AnyOp<R>] =>
    typeof a === "function" ? [null, a] : [a, b as AnyOp<R>];

  const seam: OpSeam = {
    store,
    clock,
    random,
    settings,
    tables: store.tables,
    run<R>(a: Caller | AnyOp<R>, b?: unknown, c?: EndUserIpInfo): Promise<Outcome<R>> {
      const [caller, op] = split(a, b);
      return execute(caller, op, caller ? c : (b as EndUserIpInfo | undefined));
    },
    async ok<R>(a: Caller | AnyOp<R>, b?: unknown): Promise<R> {
      const [caller, op] = split(a, b);
      const outcome = await execute(caller, op);
      if (!outcome.ok)
        throw new Error(
          `op-seam: expected success, the op refused: ${outcome.error instanceof KnownErrorException ? outcome.error.code : outcome.error.message}`,
        );
      return outcome.value;
    },
    async refuses<C extends Refusal>(a: Caller | AnyOp<unknown>, b: unknown, c?: C): Promise<RefusedWith<C>> {
      const [caller, op] = split(a, b);
      const code = (caller ? c : b) as C;
      const before = store.snapshot();
      const outcome = await execute(caller, op);
      const got = outcome.ok
        ? "success"
        : outcome.error instanceof KnownErrorException
          ? outcome.error.code
          : outcome.error.status;
      expect(got).toBe(code);
      expect(store.snapshot(), `a refusal with ${code} changed the state`).toEqual(before);
      return (outcome as { error: RefusedWith<C> }).error;
    },
    async refusesSpendingCode<C extends Refusal>(a: Caller | AnyOp<unknown>, b: unknown, c?: C) {
      const [caller, op] = split(a, b);
      const code = (caller ? c : b) as C;
      const before = store.snapshot();
      const outcome = await execute(caller, op);
      expect(
        outcome.ok
          ? "success"
          : outcome.error instanceof KnownErrorException
            ? outcome.error.code
            : outcome.error.status,
      ).toBe(code);
      const after = store.snapshot();
      const spent = unspendCodes(after, before);
      expect(spent, `a refusal with ${code} spent no verification code`).toBe(1);
      expect(after, `a refusal with ${code} changed more than its code's use`).toEqual(before);
      return (outcome as { error: RefusedWith<C> }).error;
    },
    project(id = DEV.id) {
      const project = store.tables.projects.get(id);
      if (!project) throw new Error(`op-seam: no project ${id}`);
      return project;
    },
    addUser(body = {}, projectId = DEV.id) {
      return seam.ok((ctx) => createUser(ctx, projectId, body));
    },
    async signIn(user, type = "client") {
      const { session, accessToken } = await seam.ok((ctx) => openSession(ctx, user));
      return {
        type,
        projectId: user.projectId,
        user,
        sessionId: session.id,
        refreshToken: session.refreshToken,
        accessToken: await signAccessToken(accessToken),
      };
    },
    snapshot: () => store.snapshot(),
  };
  return seam;
}

/** Callers by access type, for `run(caller, op)`. */
export const asClient = (user: UserRecord | null = null, projectId: string = DEV.id): Caller => ({
  type: "client",
  projectId,
  user,
});
export const asServer = (user: UserRecord | null = null, projectId: string = DEV.id): Caller => ({
  type: "server",
  projectId,
  user,
});
export const asAdmin = (projectId: string = DEV.id): Caller => ({ type: "admin", projectId });

/** The default seed with some of the dev project's config flags changed (e.g. `{ sign_up_enabled: false }`). */
export function devSeedWith(config: Partial<Record<string, boolean>>): ProviderSeed {
  return { ...defaultSeed, projects: [{ ...DEV, config: { ...DEV.config, ...config } }] };
}

/**
 * Puts back, in `after`, the verification codes that were unused in `before` and are used now; answers how many. What
 * is left to compare is every other change.
 */
function unspendCodes(after: StoreSnapshot, before: StoreSnapshot): number {
  const was = new Map(before.tables.verificationCodes ?? []);
  let spent = 0;
  after.tables.verificationCodes = (after.tables.verificationCodes ?? []).map(([key, value]) => {
    const old = was.get(key) as { usedAtMillis: number | null } | undefined;
    const now = value as { usedAtMillis: number | null };
    if (old && old.usedAtMillis === null && now.usedAtMillis !== null) {
      spent++;
      return [key, { ...now, usedAtMillis: null }];
    }
    return [key, value];
  });
  return spent;
}
