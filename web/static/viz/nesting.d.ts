// The part of the global `ratelab` that the hierarchy-leak visualization
// (nesting.js) uses: wasm/nesting_js.go, lab/nesting. Merged into lab.d.ts's
// namespace. For tsc only; the browser never loads this file.

declare namespace lab {
  /** Offsets, in float64s, of nesting's Encode. */
  interface NestingLayout {
    now: number; duration: number; done: number; header: number; sideFields: number;
    stopped: number; lost: number; available: number; sessions: number; sessionFields: number;
    orders: number; attempts: number; accepted: number; refused: number; gaveUp: number; sessionLost: number;
    nodeFirm: number; nodeAccount: number; nodeSession: number;
  }

  interface NestingBudget {
    capacity: number; rate: number;
  }

  interface Nesting {
    /** The length in bytes of one step's output. */
    bytes: number;
    sessions: { name: string; capacity: number; rate: number; ordersPerSec: number }[];
    firm: NestingBudget;
    account: NestingBudget;
    retryNs: number; maxAttempts: number; durationNs: number;
    layout: NestingLayout;
  }

  interface NestingConfig {
    impl: string; seed: number;
  }

  interface NestingInfo {
    impl: string; implStatus: string; stopped: boolean; status: string; leakyStatus: string;
    now: number; done: boolean; seed: number;
  }

  /** A hierarchy-leak run (nesting.Run). */
  interface NestingSim {
    step(untilNs: number, bytes: Uint8Array): number;
    info(): NestingInfo;
    free(): void;
  }

  interface API {
    /** Absent from a lab.wasm built before week 3's visualizations. */
    nesting?: Nesting;
    newNestingSim?(config: NestingConfig): NestingSim | Failure;
  }
}
