import { scrapeMetric } from './scrape-metric.js';
import { waitFor } from './wait-for.js';

/**
 * A counter of a running service read before the test acts, so the test can assert on what its
 * own actions added (`increase()`), not on what the process counted before.
 *
 * @example
 * const duplicates = await MetricBaseline.take(inventory.baseUrl, 'inbox_duplicates_total', { consumer });
 * await publishRecords(brokers, topic, [record, record]);
 * await duplicates.waitForIncrease({ description: 'the second copy to be skipped' });
 * expect(await duplicates.increase()).toBe(1);
 */
export class MetricBaseline {
  private constructor(
    private readonly baseUrl: string,
    private readonly name: string,
    private readonly labels: Record<string, string>,
    /** The value when the baseline was taken. */
    readonly before: number,
  ) {}

  /** Reads `name` at `GET <baseUrl>/metrics`, summed over the series matching `labels` (see {@link scrapeMetric}). */
  static async take(baseUrl: string, name: string, labels: Record<string, string> = {}): Promise<MetricBaseline> {
    return new MetricBaseline(baseUrl, name, labels, await scrapeMetric(baseUrl, name, labels));
  }

  /** The current value minus the value at {@link take}. */
  async increase(): Promise<number> {
    return (await scrapeMetric(this.baseUrl, this.name, this.labels)) - this.before;
  }

  /** Waits until the counter rose above its baseline; default deadline 30 s. */
  async waitForIncrease(options: { timeoutMs?: number; description?: string } = {}): Promise<void> {
    await waitFor(async () => (await this.increase()) > 0, {
      timeoutMs: options.timeoutMs ?? 30_000,
      description: options.description ?? `${this.name} to rise above ${this.before}`,
    });
  }
}
