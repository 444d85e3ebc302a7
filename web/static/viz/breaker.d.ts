// The part of the global `ratelab` that the failure-driven breaker's
// visualization (breaker.js) uses: wasm/breaker_js.go, lab/breaker. Merged
// into lab.d.ts's namespace. For tsc only; the browser never loads this
// file.

declare namespace lab {
  /** Offsets, in float64s, of breaker's Encode; the event kinds and flag bits. */
  interface BreakerLayout {
    now: number; duration: number; done: number; pending: number; events: number; header: number;
    sideFields: number; stopped: number; state: number; gen: number;
    requests: number; requestsOK: number; requestsFailed: number; attempts: number; downAttempts: number;
    retries: number; refused: number; probes: number; late: number; lateChanged: number; opens: number;
    inFlight: number; maxInFlight: number; downNs: number;
    eventFields: number; at: number; kind: number; client: number; try: number; evGen: number; evState: number;
    flags: number; start: number; ticketGen: number; prevGen: number; prevState: number;
    maxEvents: number;
    kindCall: number; kindResult: number; kindState: number;
    flagAdmitted: number; flagProbe: number; flagSuccess: number; flagTimeout: number; flagLate: number;
  }

  interface Breaker {
    /** The largest length in bytes of one step's output. */
    bytes: number;
    scenarios: { id: string; title: string }[];
    /** State names by number: closed, open, half-open. */
    states: string[];
    layout: BreakerLayout;
  }

  interface BreakerScenario {
    id: string; title: string;
    failureThreshold: number; openNs: number; halfOpenProbes: number;
    clients: number; everyNs: number; tries: number; retryNs: number;
    latencyNs: number; slowPerMille: number; slowNs: number;
    failNs: number; hangPerMille: number; timeoutNs: number;
    down: { fromNs: number; toNs: number }[];
    /** When every call the backend answers is slow. */
    slow: { fromNs: number; toNs: number }[];
    durationNs: number; seed: number;
  }

  interface BreakerSimConfig {
    impl: string; scenario: string; seed?: number;
  }

  interface BreakerInfo {
    impl: string; implStatus: string; stopped: boolean; status: string; bareStatus: string;
    scenario: BreakerScenario; now: number; done: boolean;
  }

  /** A run of the failure-driven breaker (breaker.Run). */
  interface BreakerSim {
    step(untilNs: number, bytes: Uint8Array): number;
    info(): BreakerInfo;
    free(): void;
  }

  interface API {
    /** Absent from a lab.wasm built before the failure-driven breaker. */
    breaker?: Breaker;
    newBreakerSim?(config: BreakerSimConfig): BreakerSim | Failure | Promise<Run<BreakerSim> | Failure>;
  }
}
