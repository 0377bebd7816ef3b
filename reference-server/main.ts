import { startReferenceServer } from './server.ts';

// Serves the reference implementation; Playwright's webServer reads the port from the line printed here.
const port = Number(process.argv[2] ?? 0);
void startReferenceServer(port).then(({ server, url }) => {
  process.stdout.write(`reference server listening on ${url} port=${new URL(url).port}\n`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.close(() => process.exit(0)));
});
