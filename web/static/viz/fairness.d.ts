// The part of the global object `ratelab` that wasm/fairness_js.go adds
// (week 3's contention at the engine), merged into lab.d.ts's namespace.
// For tsc only; the browser never loads this file.

declare namespace lab {
  /** Offsets, in float64s, of fairness's EncodeStep. */
  interface FairnessLayout {
    count: number; now: number; bound: number; stopped: number; header: number;
    laneStopped: number; laneServed: number; laneWaiting: number; outOfOrder: number;
    worstGap: number; worstA: number; worstB: number; jointNs: number; laneHead: number; laneFields: number;
    arrived: number; served: number; waiting: number; p50: number; p99: number; share: number; peak: number;
    sessionFields: number;
    binStart: number; binBusy: number; binFields: number;
  }

  interface FairnessSettings {
    quantum: number; burstRate: number; burstSize: number; firstBurstNs: number; periodNs: number;
    heavyCost: number; heavyLoad: number; lightRate: number; capacity: number; seed: number;
  }

  interface FairnessConfig {
    impl: string; quantum: number; burstRate: number; heavyCost: number; seed: number;
  }

  interface FairnessInfo extends FairnessSettings {
    impl: string; implStatus: string; stopped: boolean; status: string; bound: number;
  }

  /** A contention run (fairness.Run). */
  interface FairnessSim {
    step(untilNs: number, maxBins: number, bytes: Uint8Array): number;
    info(): FairnessInfo;
    free(): void;
  }

  interface Fairness {
    sessions: { id: string; cost: number }[];
    lanes: { id: string; name: string }[];
    binNs: number;
    windowBins: number;
    maxBins: number;
    maxBytes: number;
    layout: FairnessLayout;
    defaults: FairnessSettings;
    newSim(config: FairnessConfig): FairnessSim | Failure;
  }

  interface API {
    /** Absent from a lab.wasm built before week 3's contention lab. */
    fairness?: Fairness;
  }
}
