/** 2025-06-15T00:00:00Z: a fixed start so every run mints the same iat/exp (the HTTP tests' provider and the op seam). */
export const START_MILLIS = 1_749_945_600_000;
