// The part of the global `ratelab` that the operator's console
// (throttle.js) uses: wasm/throttle_js.go, lab/throttle. Merged into
// lab.d.ts's namespace. For tsc only; the browser never loads this file.

declare namespace lab {
  /** Offsets, in float64s, of throttle's Encode, and the event kinds' numbers. */
  interface ThrottleLayout {
    now: number; duration: number; done: number; pending: number; events: number; stopped: number;
    statusOK: number; status: number; counts: number; header: number; maxAddresses: number;
    stState: number; stRecoverAt: number; stDegradedLimit: number; stDegradedWrites: number;
    stMaxCalls: number; stWindow: number; stLevel: number; stCWindow: number; stLowBelow: number;
    stHighAbove: number; stReduceBps: number; stIncreaseBps: number; stMinMaxCalls: number; stMaxMaxCalls: number;
    eventFields: number; at: number; kind: number; addr: number; outcome: number; state: number; level: number;
    maxCalls: number; degradedWrites: number; limit: number; used: number;
    afterState: number; afterLevel: number; afterMaxCalls: number; recoverAt: number; since: number; lastSeen: number;
    maxEvents: number;
    kindWrite: number; kindKeeper: number; kindOperator: number; kindRecovered: number;
  }

  interface ThrottleRate {
    maxCalls: number; windowNs: number;
  }

  interface ThrottleAddress {
    name: string;
    /** The address as the gate sees it, in hexadecimal ("0xb0b"). */
    addr: string;
    whitelisted: boolean;
    /** Its own limit, or null: the global one. */
    override: ThrottleRate | null;
    phases: { fromNs: number; everyNs: number }[];
  }

  interface ThrottlePreset {
    name: string; title: string; durationNs: number; keeperEveryNs: number;
    breaker: { ttlNs: number; degradedWriteLimit: number; autoRecover: boolean };
    rate: ThrottleRate;
    congestion: {
      windowNs: number; lowBelow: number; highAbove: number; reduceBps: number; increaseBps: number;
      minMaxCalls: number; maxMaxCalls: number;
    };
    addresses: ThrottleAddress[];
    /** The operator's scripted actions: set is a state's number. */
    script: { atNs: number; set: number }[];
  }

  interface Throttle {
    /** The largest length in bytes of one step's output. */
    bytes: number;
    /** Outcome names by number: accepted, paused, degraded cap, rate limit, other error. */
    outcomes: string[];
    /** The breaker's states by number, as act takes them: normal, degraded, paused. */
    states: string[];
    /** The congestion levels by number: low, normal, high. */
    levels: string[];
    presets: ThrottlePreset[];
    layout: ThrottleLayout;
  }

  interface ThrottleSimConfig {
    impl: string; preset: string; seed: number;
  }

  interface ThrottleInfo {
    impl: string; implStatus: string; stopped: boolean; status: string; preset: string; seed: number;
    now: number; done: boolean;
    /** The first refusal's text that was none of the contract's three errors, "" if none. */
    otherError: string;
  }

  /** An operator's console run (throttle.Run); a run of Yours answers with promises. */
  interface ThrottleSim {
    step(untilNs: number, bytes: Uint8Array): number | Promise<number>;
    act(state: string): boolean | Promise<boolean>;
    info(): ThrottleInfo | Promise<ThrottleInfo>;
    free(): void;
  }

  interface API {
    /** Absent from a lab.wasm built before the operator's console. */
    throttle?: Throttle;
    newThrottleSim?(config: ThrottleSimConfig): ThrottleSim | Failure | Promise<ThrottleSim | Failure>;
  }
}
