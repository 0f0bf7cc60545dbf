/**
 * An array that also carries the cursor of the next page (sdk-surface.md conventions, "+cursor list"): listUsers and
 * listTeams answer with it.
 */
export type CursorList<T> = T[] & { nextCursor: string | null };
