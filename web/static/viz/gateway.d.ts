// The part of the global `ratelab` that the policy visualization
// (gateway.js) uses: wasm/gateway_js.go, lab/gateway. Merged into lab.d.ts's
// namespace. For tsc only; the browser never loads this file.

declare namespace lab {
  /** Offsets, in float64s, of gateway's Encode, and the marks' numbers. */
  interface GatewayLayout {
    now: number; duration: number; done: number; pending: number; events: number; header: number;
    sideFields: number; stopped: number; counts: number;
    eventFields: number; at: number; kind: number; outcome: number; budget: number; retry: number; flood: number; mark: number;
    maxEvents: number;
    markNone: number; markOpen: number; markReload: number; markFlood: number; markFloodOver: number;
  }

  interface GatewayBudget {
    capacity: number; rate: number;
  }

  /** One class's budgets and the escalation times. */
  interface GatewayConfig {
    orders: GatewayBudget; cancels: GatewayBudget; silenceAfterNs: number; disconnectAfterNs: number;
  }

  interface GatewayPhase {
    name: string; fromNs: number; orderEveryNs: number; cancelEveryNs: number;
  }

  interface GatewayScenario {
    class: string; config: GatewayConfig; phases: GatewayPhase[];
    heartbeatEveryNs: number; reconnectNs: number; reloadAtNs: number; reload: GatewayConfig; durationNs: number;
  }

  interface Gateway {
    /** The largest length in bytes of one step's output. */
    bytes: number;
    /** Kind names by number: new order, modify, cancel, heartbeat. */
    kinds: string[];
    /** Outcome names by number: accept, reject, silent, disconnect. */
    outcomes: string[];
    /** Budget names by their code in an event. */
    budgets: string[];
    scenario: GatewayScenario;
    layout: GatewayLayout;
  }

  interface GatewaySimConfig {
    impl: string;
  }

  interface GatewayInfo {
    impl: string; implStatus: string; stopped: boolean; status: string; sharedStatus: string;
    /** Why each side's reload failed, "" if it did not. */
    reloadErrors: string[];
    now: number; done: boolean;
  }

  /** A gateway run (gateway.Run). */
  interface GatewaySim {
    step(untilNs: number, bytes: Uint8Array): number;
    info(): GatewayInfo;
    free(): void;
  }

  interface API {
    /** Absent from a lab.wasm built before the policy visualization. */
    gateway?: Gateway;
    newGatewaySim?(config: GatewaySimConfig): GatewaySim | Failure;
  }
}
