// The global object `ratelab` that lab.wasm defines (wasm/main_js.go and
// wasm/adaptive_js.go; described in wasm/doc.go), as the visualizations use
// it. For tsc only; the browser never loads this file.

declare namespace lab {
  /**
   * A run as a visualization holds it: a run of the reference answers at
   * once, one of Yours (in a Web Worker, viz/remote.js) with promises.
   */
  type Run<S> = {
    [K in keyof S]: S[K] extends (...args: infer A) => infer R ? (...args: A) => R | Promise<R> : S[K];
  };

  /** What a constructor returns when the settings do not make a run. */
  interface Failure {
    error: string;
  }

  /** A lane of the limiters simulation: sim.Lane's id and name. */
  interface Lane {
    id: string;
    name: string;
  }

  /** Offsets, in float64s, of sim.State.Encode. */
  interface SimLayout {
    now: number; messages: number; lostWhole: number; lostUnits: number;
    bound: number; stopped: number; buckets: number;
    header: number; laneFields: number;
    accepted: number; refused: number; max: number; maxAt: number; tokens: number; count: number;
  }

  interface SimConfig {
    traffic: string; limit: number; windowMs: number; buckets: number; burst: number;
    refill: string; impl: string; seed: number;
  }

  interface SimInfo {
    impl: string; limit: number; windowNs: number; buckets: number;
    burst: number; rate: number; bound: number; refill: string; traffic: string;
    lanes: { id: string; name: string; stopped: boolean; status: string }[];
  }

  /** A limiters simulation (sim.Sim). */
  interface Sim {
    step(maxMessages: number, untilNs: number, bytes: Uint8Array): number;
    state(bytes: Uint8Array): number;
    info(): SimInfo;
    free(): void;
  }

  interface Target {
    id: string;
    title: string;
  }

  /** Offsets, in float64s, of governor's EncodeStep. */
  interface GovernorLayout {
    count: number; stopped: number; offer: number; lastBad: number; capacity: number; windows: number;
    header: number; fields: number;
    index: number; windowOffer: number; slots: number; windowCapacity: number;
    attempts: number; failures: number; retries: number; ok: number; failed: number;
    action: number; next: number; windowLastBad: number; reasonBytes: number;
  }

  interface Governor {
    targets: Target[];
    /** adaptive.Action's words, by the action's number. */
    actions: string[];
    windowNs: number;
    maxSteps: number;
    maxBytes: number;
    layout: GovernorLayout;
  }

  interface GovernorConfig {
    target: string; impl: string; fixed: boolean; tries: number; seed: number;
  }

  interface GovernorInfo {
    impl: string; implStatus: string; stopped: boolean; status: string;
    target: string; targetTitle: string; startCapacity: number;
    changes: { atNs: number; rampNs: number; capacity: number }[];
    collapse: number; noise: number;
    floor: number; ceiling: number; start: number; low: number; high: number;
    tries: number; fixed: boolean; seed: number; windowNs: number; rounds: number;
    offer: number; lastBad: number; capacity: number; windows: number;
  }

  /** A governor run (governor.Run). */
  interface GovernorSim {
    step(maxWindows: number, bytes: Uint8Array): number;
    info(): GovernorInfo;
    free(): void;
  }

  /** Offsets, in float64s, of gradient2's EncodeStep. */
  interface Gradient2Layout {
    count: number; stopped: number; now: number; limit: number; short: number; long: number;
    inflight: number; header: number; fields: number;
    start: number; load: number; binLimit: number; binShort: number; binLong: number; binInflight: number;
    arrived: number; admitted: number; rejected: number; samples: number; appLimited: number;
  }

  interface Gradient2 {
    binNs: number;
    maxBins: number;
    maxBytes: number;
    layout: Gradient2Layout;
  }

  interface Gradient2Config {
    impl: string; seed: number;
  }

  interface Gradient2Info {
    impl: string; implStatus: string; stopped: boolean; status: string;
    workers: number; serviceNs: number; throughput: number; binNs: number; seed: number;
    steps: { durationNs: number; load: number }[];
    limit: { initial: number; min: number; max: number; smoothing: number; tolerance: number; longWindow: number };
  }

  /** A Gradient2 run (gradient2.Run). */
  interface Gradient2Sim {
    step(untilNs: number, maxBins: number, bytes: Uint8Array): number;
    info(): Gradient2Info;
    free(): void;
  }

  /**
   * The object lab.wasm sets as globalThis.ratelab. As common.js's loadWasm
   * hands it to the visualizations, a constructor given impl "yours"
   * returns a promise (the run is made in a Web Worker).
   */
  interface API {
    lanes: Lane[];
    /** The traffic scenarios' names (traffic.Names), in the lab's order. */
    traffics: string[];
    layout: SimLayout;
    maxBatch: number;
    newSim(config: SimConfig): Sim | Failure | Promise<Run<Sim> | Failure>;
    /** Absent from a lab.wasm built before week 4. */
    governor?: Governor;
    newGovernorSim?(config: GovernorConfig): GovernorSim | Failure | Promise<Run<GovernorSim> | Failure>;
    gradient2?: Gradient2;
    newGradient2Sim?(config: Gradient2Config): Gradient2Sim | Failure | Promise<Run<Gradient2Sim> | Failure>;
  }
}

declare var ratelab: lab.API | undefined;

/**
 * The page's build, fetched and compiled from the page's head as soon as it
 * is parsed (web/page/layout.templ's earlyWasm): common.js's startWasm
 * instantiates it when it is the build it asks for.
 */
declare var ratelabEarlyWasm: { url: string; module: Promise<WebAssembly.Module> } | undefined;
