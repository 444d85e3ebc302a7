// The part of the global object `ratelab` that wasm/fairqueue_js.go adds
// (week 3's contention at the engine), merged into lab.d.ts's namespace.
// For tsc only; the browser never loads this file.

declare namespace lab {
  /** Offsets, in float64s, of fairqueue's EncodeStep. */
  interface FairqueueLayout {
    count: number; now: number; bound: number; stopped: number; header: number;
    laneStopped: number; laneServed: number; laneWaiting: number; outOfOrder: number;
    worstGap: number; worstA: number; worstB: number; jointNs: number; laneHead: number; laneFields: number;
    arrived: number; served: number; waiting: number; p50: number; p99: number; share: number; peak: number;
    sessionFields: number;
    binStart: number; binBusy: number; binFields: number;
  }

  interface FairqueueSettings {
    quantum: number; burstRate: number; burstSize: number; firstBurstNs: number; periodNs: number;
    heavyCost: number; heavyLoad: number; lightRate: number; capacity: number; seed: number;
  }

  interface FairqueueConfig {
    impl: string; quantum: number; burstRate: number; heavyCost: number; seed: number;
  }

  interface FairqueueInfo extends FairqueueSettings {
    impl: string; implStatus: string; stopped: boolean; status: string; bound: number;
  }

  /** A contention run (fairqueue.Run). */
  interface FairqueueSim {
    step(untilNs: number, maxBins: number, bytes: Uint8Array): number;
    info(): FairqueueInfo;
    free(): void;
  }

  interface Fairqueue {
    sessions: { id: string; cost: number }[];
    lanes: { id: string; name: string }[];
    binNs: number;
    windowBins: number;
    maxBins: number;
    maxBytes: number;
    layout: FairqueueLayout;
    defaults: FairqueueSettings;
    newSim(config: FairqueueConfig): FairqueueSim | Failure;
  }

  interface API {
    /** Absent from a lab.wasm built before week 3's contention lab. */
    fairqueue?: Fairqueue;
  }
}
