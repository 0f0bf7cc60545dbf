/**
 * The texts of upstream's migration-test routes (GET /migration-tests and /migration-tests/smart-route-handler). They
 * exist upstream to demonstrate its API-version migrations; outside that they are fixed texts, so here they are the
 * same texts built from the request's URL and query.
 */

/** The tests the index lists, resolved against the request's URL as upstream resolves them (relative to its path). */
const TESTS = ["./smart-route-handler"];

export function migrationTestsIndex(requestUrl: string): string {
  const links = TESTS.map((path) => `- ${new URL(path, requestUrl).toString()}`).join("\n");
  return `You are on ${requestUrl}. Please pick a migration test.\n\n${links}`;
}

const VERSIONS = [
  "v1: This route does not yet exist; it shows a 404 error.",
  "v2beta1: Takes an optional query parameter 'queryParam' and displays it. If not given, it defaults to the string \"n/a\".",
  "v2beta2: The query parameter is now required.",
  "v2beta3: The query parameter is now called 'queryParamNew'.",
  "v2beta4: The query parameter is now optional again (this is not actually a breaking change, so in a real scenario we wouldn't need a new version).",
];

export function smartRouteHandlerMigrationTest(queryParamNew: string | undefined): string {
  const given = queryParamNew
    ? `The query parameter you passed in is: ${queryParamNew}`
    : "Looks like you didn't pass in the query parameter. That's fine, read on below to see what this route does.";
  return [
    "Welcome to the migration test route for SmartRouteHandler! This route only exists for demonstration purposes and has no practical functionality.",
    "",
    given,
    "",
    "Here's what it does:",
    "",
    ...VERSIONS.map((line) => `- ${line}`),
  ].join("\n");
}
