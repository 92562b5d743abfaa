// Types of scripts/test-needs.mjs for the TypeScript test that imports it.
export interface NeedsProbes {
  hasCommand(name: string): boolean;
  exists(path: string): boolean;
  compiles(cc: string): boolean;
  env: Record<string, string | undefined>;
}
export declare function missingNeeds(probes: NeedsProbes): string[];
