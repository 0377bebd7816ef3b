// The conformant loopback origins of bench/fleet-engine.ts, in a process of their own: it sends their URLs once.
import { startReferenceServer } from '../reference-server/server.ts';

const count = Number(process.argv[2]);
void Promise.all(Array.from({ length: count }, () => startReferenceServer(0))).then((servers) => process.send?.(servers.map((s) => s.url)));
