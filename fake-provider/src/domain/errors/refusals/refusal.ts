import type { OperationId } from "@authsim/sdk/contract";

/** A part of a refusal's text that depends on the request. */
export type Arg = string | number;

export interface Refusal {
  readonly status: number;
  readonly text: string | ((...args: never[]) => string);
  /** Only these operations answer it (the fuzzer's check); absent: wherever it is thrown. */
  readonly operations?: readonly OperationId[];
}
