/**
 * Gathers the calls made within one turn of the event loop into one call of `run`, which answers
 * each item in order. Why: kafkajs hands the partitions of one fetch over in the same turn, and
 * the fetch-in-one-transaction layer gathers what arrives in one turn; one statement for all their
 * work marks costs one round trip and hands them on together, still in one turn.
 */
export class OncePerTurn<In, Out> {
  private pending: { item: In; resolve: (out: Out) => void; reject: (error: unknown) => void }[] = [];

  constructor(private readonly run: (items: readonly In[]) => Promise<Out[]>) {}

  call(item: In): Promise<Out> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const taken = this.pending;
    this.pending = [];
    this.run(taken.map(({ item }) => item)).then(
      (outs) => taken.forEach(({ resolve }, index) => resolve(outs[index])),
      (error: unknown) => taken.forEach(({ reject }) => reject(error)),
    );
  }
}
