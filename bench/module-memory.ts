// What each module costs a process before any of it runs: imports, one after another in
// the order an app loads them, in a fresh Node process with the apps' flags, and the growth of RSS
// and of the V8 heap each one adds. Shared dependencies count where they are first loaded, so the
// order matters: this is the apps' order. Run after a build:
// `node --max-semi-space-size=2 dist/bench/module-memory.js`.
import { readFileSync } from 'node:fs';
import { moduleLoadOrder } from './module-load-order.js';

const MODULES = moduleLoadOrder(
  Object.keys((JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> }).dependencies),
);

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

await settle();
let previous = process.memoryUsage();
console.log(`| module (cumulative) | RSS, MB | + RSS | heap used, MB | + heap |\n|---|---:|---:|---:|---:|`);
console.log(`| node ${process.version}, nothing imported | ${mb(previous.rss)} | | ${mb(previous.heapUsed)} | |`);
for (const name of MODULES) {
  await import(name);
  await settle();
  const now = process.memoryUsage();
  console.log(
    `| ${name} | ${mb(now.rss)} | ${mb(now.rss - previous.rss)} | ${mb(now.heapUsed)} | ${mb(now.heapUsed - previous.heapUsed)} |`,
  );
  previous = now;
}
