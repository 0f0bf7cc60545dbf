import { CLI_MESSAGES, cliPollResponse } from "../contract/areas/cli.ts";
import { constants } from "../contract/headers.ts";
import { KnownError, isKnownError, type KnownErrorOf } from "../errors/known-error.ts";
import { err, ok, type Result } from "../errors/result.ts";
import { HttpError } from "../errors/sdk-errors.ts";
import type { Session } from "../session/session.ts";
import type { AppContext } from "./app-context.ts";
import { asClient } from "../transport/operation-call.ts";

/**
 * Command-line login (spec §4 "Command-line login polling", §8 "CLI auth", §9; protocol.md §7.7): the CLI opens an
 * attempt, shows the person a link to the app's cli-auth-confirm page, and polls until the browser hands it a
 * refresh token. The wait between polls is the app's injected sleep, so tests do not wait in real time.
 */

export type CliLoginError = KnownErrorOf<"CLI_AUTH_ERROR" | "CLI_AUTH_EXPIRED_ERROR" | "CLI_AUTH_USED_ERROR">;

export interface PromptCliLoginOptions {
  /** The app whose cli-auth-confirm page confirms the login. */
  appUrl: string;
  expiresInMillis?: number;
  /** An anonymous session the CLI already has, which the browser may claim. */
  anonRefreshToken?: string;
  /** Shows the person the link (default: printed to the console). */
  promptLink?: (url: string, loginCode: string) => void;
  /** Polls before giving up with 'Timed out waiting for CLI authentication.' (default: unlimited, spec §9). */
  maxAttempts?: number;
  /** Between polls (default 2000 ms, spec §9). */
  waitTimeMillis?: number;
}

const cliError = <C extends "CLI_AUTH_ERROR" | "CLI_AUTH_EXPIRED_ERROR" | "CLI_AUTH_USED_ERROR">(
  code: C,
  message: string,
) => new KnownError(code, {}, { message }) as KnownErrorOf<C>;

/** The confirm page's URL: the handler path resolved against the app, with the login code (protocol.md §7.7). */
export function cliAuthConfirmUrl(ctx: AppContext, appUrl: string, loginCode: string): string {
  const url = new URL(ctx.urls.cliAuthConfirm, appUrl);
  url.searchParams.set("login_code", loginCode);
  return url.toString();
}

/** StackClientApp.promptCliLogin: the refresh token of the user who confirmed, or why there is none. */
export async function promptCliLogin(
  ctx: AppContext,
  options: PromptCliLoginOptions,
): Promise<Result<string, CliLoginError>> {
  let started;
  try {
    const body = { expires_in_millis: options.expiresInMillis, anon_refresh_token: options.anonRefreshToken };
    started = await asClient.json(ctx.transport, "cliCreate", { body });
  } catch (error) {
    if (isKnownError(error))
      return err(cliError("CLI_AUTH_ERROR", `Failed to initiate CLI auth: ${error.code}: ${error.message}`));
    throw error;
  }
  const url = cliAuthConfirmUrl(ctx, options.appUrl, started.login_code);
  if (options.promptLink) options.promptLink(url, started.login_code);
  else
    console.log(
      `Your verification code: ${started.login_code}\nPlease visit the following URL to authenticate:\n${url}`,
    );

  const maxAttempts = options.maxAttempts ?? Infinity;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    let response;
    try {
      response = await asClient.send(ctx.transport, "cliPoll", { body: { polling_code: started.polling_code } });
    } catch (error) {
      // INVALID_POLLING_CODE and the like: the attempt is gone, so is the login.
      if (isKnownError(error))
        return err(cliError("CLI_AUTH_ERROR", `Failed to poll CLI auth: ${error.code}: ${error.message}`));
      throw error;
    }
    const polled = ctx.transport.parseJson(response, cliPollResponse);
    if (response.status === 201 && polled.status === "success" && polled.refresh_token) return ok(polled.refresh_token);
    if (polled.status === "waiting") {
      await ctx.transport.sleep(options.waitTimeMillis ?? constants.cliPollWaitMillis);
      continue;
    }
    if (polled.status === "expired") return err(cliError("CLI_AUTH_EXPIRED_ERROR", CLI_MESSAGES.expired));
    if (polled.status === "used") return err(cliError("CLI_AUTH_USED_ERROR", CLI_MESSAGES.used));
    return err(cliError("CLI_AUTH_ERROR", `Unexpected status from CLI auth polling: ${polled.status}`));
  }
  return err(cliError("CLI_AUTH_ERROR", CLI_MESSAGES.timeout));
}

/**
 * What the cli-auth-confirm page does once the person agrees: hands the signed-in session's refresh token to the CLI
 * waiting on `loginCode`.
 */
export async function completeCliLogin(
  ctx: AppContext,
  session: Session,
  loginCode: string,
): Promise<Result<void, CliLoginError>> {
  const refreshToken = session.getRefreshToken();
  if (!refreshToken)
    throw new Error("Completing a CLI login needs a signed-in user (no refresh token in this session).");
  try {
    await asClient.send(ctx.transport, "cliComplete", {
      body: { login_code: loginCode, refresh_token: refreshToken },
      session,
      allowAnonymousUser: true,
    });
    return ok(undefined);
  } catch (error) {
    // The service answers an unknown, expired or already completed code with one plain 400 (no known error); the
    // page shows it as the CLI error it is.
    if (error instanceof HttpError && error.status === 400 && error.bodyText === CLI_MESSAGES.invalidLoginCode) {
      return err(cliError("CLI_AUTH_ERROR", CLI_MESSAGES.invalidLoginCode));
    }
    throw error;
  }
}
