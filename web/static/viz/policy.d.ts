// The part of the global `ratelab` that the policy visualization
// (policy.js) uses: wasm/policy_js.go, lab/policy. Merged into lab.d.ts's
// namespace. For tsc only; the browser never loads this file.

declare namespace lab {
  /** Offsets, in float64s, of policy's Encode, and the marks' numbers. */
  interface PolicyLayout {
    now: number; duration: number; done: number; pending: number; events: number; header: number;
    sideFields: number; stopped: number; counts: number;
    eventFields: number; at: number; kind: number; outcome: number; budget: number; retry: number; flood: number; mark: number;
    maxEvents: number;
    markNone: number; markOpen: number; markReload: number; markFlood: number; markFloodOver: number;
  }

  interface PolicyBudget {
    capacity: number; rate: number;
  }

  /** One class's budgets and the escalation times. */
  interface PolicyConfig {
    orders: PolicyBudget; cancels: PolicyBudget; silenceAfterNs: number; disconnectAfterNs: number;
  }

  interface PolicyPhase {
    name: string; fromNs: number; orderEveryNs: number; cancelEveryNs: number;
  }

  interface PolicyScenario {
    class: string; config: PolicyConfig; phases: PolicyPhase[];
    heartbeatEveryNs: number; reconnectNs: number; reloadAtNs: number; reload: PolicyConfig; durationNs: number;
  }

  interface Policy {
    /** The largest length in bytes of one step's output. */
    bytes: number;
    /** Kind names by number: new order, modify, cancel, heartbeat. */
    kinds: string[];
    /** Outcome names by number: accept, reject, silent, disconnect. */
    outcomes: string[];
    /** Budget names by their code in an event. */
    budgets: string[];
    scenario: PolicyScenario;
    layout: PolicyLayout;
  }

  interface PolicySimConfig {
    impl: string;
  }

  interface PolicyInfo {
    impl: string; implStatus: string; stopped: boolean; status: string; sharedStatus: string;
    /** Why each side's reload failed, "" if it did not. */
    reloadErrors: string[];
    now: number; done: boolean;
  }

  /** A policy run (policy.Run). */
  interface PolicySim {
    step(untilNs: number, bytes: Uint8Array): number;
    info(): PolicyInfo;
    free(): void;
  }

  interface API {
    /** Absent from a lab.wasm built before the policy visualization. */
    policy?: Policy;
    newPolicySim?(config: PolicySimConfig): PolicySim | Failure;
  }
}
