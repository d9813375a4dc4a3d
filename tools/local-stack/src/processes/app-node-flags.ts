/**
 * V8 flags every app process runs with, locally and in tests (the Dockerfile sets the same through
 * NODE_OPTIONS; docker-compose.spec checks it does).
 * - `--max-semi-space-size=2` (MiB; Node's default grows it to 16 or more): the young generation
 *   was most of what an app's memory grew by under load. Measured on a 2,000-order backlog:
 *   inventory's peak RSS 307 -> 229 MB, with no more CPU per message (more, but cheaper, scavenges).
 * - `--max-old-space-size=128` (MiB): with a small young generation, most garbage is promoted, and
 *   V8 let the old generation fill to about 200 MB (orders at 210/s: 66 MB live after each full
 *   collection) before collecting it. The pages it filled stay resident afterwards, so RSS kept
 *   that peak. At 128 MB it collects about twice as often, each collection marking the same live
 *   objects: peak RSS at 150-300/s, orders 286 and 281 -> 190 and 186 MB, inventory 221 and 183 ->
 *   166 MB, with no CPU per order or latency difference beyond the runs' spread
 *   (docs/performance.md, "Memory that fits a pod"). A process whose live objects outgrow it
 *   fails with "heap out of memory" and is restarted by what runs it (the Deployment, compose's
 *   restart policy), which the outbox and inbox make safe; the live sets measured are half of it.
 */
export const APP_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2', '--max-old-space-size=128'];
