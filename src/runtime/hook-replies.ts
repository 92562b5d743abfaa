// The hook calls waiting for their answers: each gets an id its `hook` input carries, and a `reply` effect
// with that id answers it. At the run's end every call still waiting is answered with nothing, so no
// claude is left stuck in a hook.

export interface HookReplies {
  /** a hook call waiting for its answer: the id its `hook` input carries */
  await(resolve: (output: string) => void): number;
  /** the call with this id answered (gone already: nothing) */
  answer(id: number, output: string): void;
  /** every call still waiting answered with nothing */
  releaseAll(): void;
}

export function holdHookReplies(): HookReplies {
  let nextHookId = 1;
  const pendingHooks = new Map<number, (output: string) => void>();
  return {
    await(resolve) {
      const id = nextHookId++;
      pendingHooks.set(id, resolve);
      return id;
    },
    answer(id, output) {
      const resolve = pendingHooks.get(id);
      pendingHooks.delete(id);
      resolve?.(output);
    },
    releaseAll() {
      for (const resolve of pendingHooks.values()) resolve('');
      pendingHooks.clear();
    },
  };
}
