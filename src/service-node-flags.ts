// The Node flags every service process starts with: `npm start` (package.json), infra/Dockerfile,
// infra/storefront-theme.service, and the bench servers (bench/api.ts, bench/mcp-vs-rest.ts,
// bench/render-storefront.ts). test/service-node-flags.unit.test.ts holds the three launchers to
// SERVICE_ARGV, the whole start command. Flags and not code: V8 sizes its heap when the process
// starts, and v8.setFlagsFromString at run time does not change it (tried: the young generation
// stays as sized).
//
// --max-semi-space-size=8: young-generation semi-spaces of 8 MB instead of V8's default, which
// grows to 32 MB under load. Each scavenge pauses the event loop for as long as it copies what is
// still alive, and under 8 concurrent agent batches about 3.4 MB was alive at every one: pauses of
// 3.5 ms on average and up to 12 ms, every ~140 ms, and 65 % of the batches slower than p99
// overlapped one (`--trace-gc` against the server's own timings,
// bench/results/2026-11-25-1959-gc-and-node-flags.md).
// With 8 MB the scavenges come four times as often and copy less each: 1.05 ms on average, 5.8 ms
// at most, and the batch's p99 was 1.0-1.8 ms lower in each of three blocks of alternated runs, at
// the same CPU per request. Smaller (4 MB) was no better.
//
// --no-allocation-site-pretenuring: V8 allocates objects from a site straight in the old
// generation once most of them have survived a scavenge. Zod's parse payloads got there (why was
// not traced), and then each short-lived payload sits in the old generation pointing at young
// objects (the check's closure, the parsed output), which every scavenge must keep and copy until
// a full collection finds the payload dead. Commands alone in one process (decide only, no
// append): 2.2 MB promoted per scavenge and 5.4 ms pauses with pretenuring, 53 KB and 0.63 ms
// without, and 21 % more commands per second. With both flags the batch's p99 was 12.3 and
// 12.4 ms against 16.1 and 14.2 with the first alone (alternated, 2026-11-25 21:56).
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8', '--no-allocation-site-pretenuring']

// node's arguments for the service, from the project root.
export const SERVICE_ARGV: readonly string[] = [...SERVICE_NODE_FLAGS, 'src/main.ts']
