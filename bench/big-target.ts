// The reference target, except that the projects list holds as many projects as asked: the whole-run
// benchmark's large target. Prints "port=<n>" once listening, like reference-server/main.ts.
//   big-target.ts <projects>
import type { ReferenceResponse } from '../reference-server/respond.ts';
import { startReferenceServer, type Variant } from '../reference-server/server.ts';
import { projectsList } from './data.ts';

const BIG_VARIANT = 'many-projects';

const size = Number(process.argv[2]);
if (!Number.isInteger(size) || size < 0) {
  process.stderr.write('usage: big-target.ts <projects>\n');
  process.exit(2);
}

// Serialised once: the benchmark times the suite, not this server's JSON.stringify.
const listText = JSON.stringify(projectsList(size).body);

const manyProjects: Variant = {
  name: BIG_VARIANT,
  description: `serves ${size} active projects`,
  transform: (request, faithful): ReferenceResponse => {
    const response = faithful();
    const active = request.path === '/api/admin/projects' && request.query.get('archived') !== 'true';
    return response.status === 200 && active ? { ...response, body: listText, raw: true } : response;
  },
};

const { server, url } = await startReferenceServer(0, [manyProjects]);
process.stdout.write(`large target listening on ${url}/variants/${BIG_VARIANT} port=${new URL(url).port} bytes=${Buffer.byteLength(listText)}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.close(() => process.exit(0)));
