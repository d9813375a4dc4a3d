/**
 * V8 flags every app process runs with, locally and in tests (the Dockerfile sets the same through
 * NODE_OPTIONS; docker-compose.spec checks it does).
 * - `--max-semi-space-size=2` (MiB; Node's default grows it to 16 or more): the young generation
 *   was most of what an app's memory grew by under load. Measured on a 2,000-order backlog:
 *   inventory's peak RSS 307 -> 229 MB, with no more CPU per message (more, but cheaper, scavenges).
 * - `--max-old-space-size=128` (MiB): with a small young generation, most garbage is promoted, and
 *   V8 let the old generation fill far past the live objects (about three times) before
 *   collecting it; the pages it filled stay resident, so RSS kept that peak. Capped, it collects
 *   more often, each time marking the same live objects, at no CPU cost beyond the runs' spread
 *   (docs/decisions/0003-old-generation-capped.md). A
 *   process whose live objects outgrow it fails with "heap out of memory" and is restarted by what
 *   runs it (the Deployment, compose's restart policy), which the outbox and inbox make safe; the
 *   live sets measured are about half of it.
 */
export const APP_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2', '--max-old-space-size=128'];
