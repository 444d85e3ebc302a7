// The part of the global `ratelab` that the hierarchy-leak visualization
// (hierarchy.js) uses: wasm/hierarchy_js.go, lab/hierarchy. Merged into lab.d.ts's
// namespace. For tsc only; the browser never loads this file.

declare namespace lab {
  /** Offsets, in float64s, of hierarchy's Encode. */
  interface HierarchyLayout {
    now: number; duration: number; done: number; header: number; sideFields: number;
    stopped: number; lost: number; available: number; sessions: number; sessionFields: number;
    orders: number; attempts: number; accepted: number; refused: number; gaveUp: number; sessionLost: number;
    nodeFirm: number; nodeAccount: number; nodeSession: number;
  }

  interface HierarchyBudget {
    capacity: number; rate: number;
  }

  interface Hierarchy {
    /** The length in bytes of one step's output. */
    bytes: number;
    sessions: { name: string; capacity: number; rate: number; ordersPerSec: number }[];
    firm: HierarchyBudget;
    account: HierarchyBudget;
    retryNs: number; maxAttempts: number; durationNs: number;
    layout: HierarchyLayout;
  }

  interface HierarchyConfig {
    impl: string; seed: number;
  }

  interface HierarchyInfo {
    impl: string; implStatus: string; stopped: boolean; status: string; leakyStatus: string;
    now: number; done: boolean; seed: number;
  }

  /** A hierarchy-leak run (hierarchy.Run). */
  interface HierarchySim {
    step(untilNs: number, bytes: Uint8Array): number;
    info(): HierarchyInfo;
    free(): void;
  }

  interface API {
    /** Absent from a lab.wasm built before week 3's visualizations. */
    hierarchy?: Hierarchy;
    newHierarchySim?(config: HierarchyConfig): HierarchySim | Failure;
  }
}
