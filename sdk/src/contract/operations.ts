import * as a from "./areas/index.ts";
import type { HttpMethod, OperationAccess } from "./define-operations.ts";
import type { OperationRequest } from "./request-kinds.ts";
import type { OperationResponse } from "./response-kinds.ts";

/**
 * Every operation of the /api/v1 contract (protocol.md §6, spec §7), joined from the areas' definitions
 * (areas/<area>.ts, `defineOperations`): the one place an operation's method, path, access, request, answers and
 * known errors are written. The fake provider registers a handler per id; an id without one answers 501 with a clear
 * body, never a silent 404.
 *
 * The order is the route table's: the mount registers the operations in it, and where two paths match one request
 * (`/users/me` beside `/users/:user_id`) the first registered serves it (operations.test.ts holds that each
 * operation's own path reaches it).
 */
export type { HttpMethod, OperationAccess } from "./define-operations.ts";

export const operationDefinitions = {
  ...a.metaOperations,
  ...a.sessionsOperations,
  ...a.passwordOperations,
  ...a.otpOperations,
  ...a.mfaOperations,
  ...a.passkeysOperations,
  ...a.oauthOperations,
  ...a.cliOperations,
  ...a.usersOperations,
  ...a.contactChannelsOperations,
  ...a.oauthProvidersOperations,
  ...a.notificationsOperations,
  ...a.apiKeysOperations,
  ...a.dataVaultOperations,
  ...a.teamsOperations,
  ...a.teamMembersOperations,
  ...a.permissionsOperations,
  ...a.invitationsOperations,
  ...a.projectsOperations,
  ...a.projectAdminOperations,
  ...a.internalApiKeysOperations,
  ...a.signUpRulesOperations,
  ...a.adminMiscOperations,
  ...a.emailsOperations,
  ...a.managedEmailOperations,
  ...a.onboardingOperations,
  ...a.internalExtrasOperations,
  ...a.paymentsOperations,
  ...a.paymentMethodsOperations,
  ...a.analyticsOperations,
  ...a.sessionReplaysOperations,
  ...a.migrationTestsOperations,
  ...a.featureRequestsOperations,
  ...a.mcpReviewOperations,
  ...a.aiConversationsOperations,
  ...a.aiProxyOperations,
  ...a.integrationsOperations,
  ...a.neonIntegrationOperations,
  ...a.externalDbSyncOperations,
};

/** Every operation id of the contract. */
export type OperationId = keyof typeof operationDefinitions;
/** The definition of the operation with this id, with its literal types (its schemas, access, errors). */
export type OperationDefinitionOf<Id extends OperationId> = (typeof operationDefinitions)[Id];
/** Who may call the operation with this id. */
export type AccessOf<Id extends OperationId> = OperationDefinitionOf<Id>["access"];

export interface Operation {
  readonly id: OperationId;
  readonly method: HttpMethod;
  readonly path: string;
  readonly access: OperationAccess;
  /** The area file that defines it: sdk/src/contract/areas/<area>.ts. */
  readonly area: string;
  /** What it accepts (params, query, body) and the known errors it may answer. */
  readonly request: OperationRequest;
  /** What it answers unless it refuses with a known error, one entry per status. */
  readonly responses: readonly OperationResponse[];
}

/** Every operation, in the route table's order, with its request parts gathered as `request`. */
export const operations: readonly Operation[] = Object.values(operationDefinitions).map(
  ({ id, area, method, path, access, responses, ...request }): Operation => ({
    id,
    method,
    path,
    access,
    area,
    request,
    responses,
  }),
);

export const operationsById: ReadonlyMap<string, Operation> = new Map(operations.map((o) => [o.id, o]));
