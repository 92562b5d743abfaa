// Types of scripts/ssh-fleet.mjs for the TypeScript tests that import it.
/** what a host runs as `flower-pty` */
export type HostKind = 'real' | 'older' | 'other-wire' | 'garbage' | 'none' | { script: string };
export interface FleetHost {
  name: string;
  /** its HOME; its socket folder is runtime/flower-pty */
  home: string;
  runtime: string;
}
export interface Fleet {
  /** the ssh config file: pass as FLOWER_PTY_SSH_CONFIG */
  config: string;
  hosts: Record<string, FleetHost>;
  /** the environment a local flower-pty needs to reach the fleet */
  env: NodeJS.ProcessEnv;
  port: number;
}
export declare function startFleet(
  t: { teardown(fn: () => unknown): void },
  root: string,
  kinds: Record<string, HostKind>,
): Promise<Fleet>;
