/**
 * Environment variables every app process runs with, beside `APP_NODE_FLAGS` (the Dockerfile sets
 * the same; docker-compose.spec checks it does).
 * - `MALLOC_ARENA_MAX=1`: glibc's malloc gives threads that allocate at the same time arenas of
 *   their own (up to eight per core) and keeps what is freed in each for its later allocations, so
 *   under load the native memory beside the V8 heap spreads over the arenas of the threads beside the
 *   main one (V8's workers, libuv's pool). One arena for every thread keeps less of it, at no CPU
 *   cost the runs could tell from noise (docs/decisions/0002-one-malloc-arena.md). Ignored where
 *   the C library is not glibc.
 */
export const APP_PROCESS_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '1' };
