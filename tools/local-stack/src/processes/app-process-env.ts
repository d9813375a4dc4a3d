/**
 * Environment variables every app process runs with, beside `APP_NODE_FLAGS` (the Dockerfile sets
 * the same; docker-compose.spec checks it does).
 * - `MALLOC_ARENA_MAX=1`: glibc's malloc gives threads that allocate at the same time arenas of
 *   their own (up to eight per core) and keeps what is freed in each for its later allocations. Under
 *   load, the orders app's native memory beside its V8 heap grew from 18 to 46 MB, 21 MB of it in
 *   the arenas of the threads beside the main one (V8's workers, libuv's pool). With one arena
 *   for every thread its peak RSS fell by about 16 MB (loyalty's by 9, inventory's by 7), at no CPU
 *   cost the runs could tell from noise (docs/performance.md, "What load adds to an app's
 *   memory"). Ignored where the C library is not glibc.
 */
export const APP_PROCESS_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '1' };
