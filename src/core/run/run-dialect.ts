// What a run's decisions need to know of the CLI it runs, as a value handed in with the run's
// settings (src/claude-code/run-dialect.ts builds it): the core knows no release, no prefix, no formula
// of the CLI's own. A new release's quirk changes the value, never the core.

export interface RunDialect {
  /**
   * The context at which the CLI refuses a prompt by itself (with its own compaction off), for this
   * window. `lifted`: the run launched it with that line moved (as it does while it blocks compaction).
   */
  refusalLine(window: number, lifted: boolean): number;
  /** a prompt the CLI writes by itself (a continuation after a usage limit resets): never a person's */
  isOwnPrompt(text: string): boolean;
}
