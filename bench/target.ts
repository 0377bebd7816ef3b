// The external target of the whole-run benchmark: the reference server on loopback, with the benchmark's
// variants under /variants/<name>. Prints "port=<n>" once listening.
//   target.ts <projects>        the many-projects variant lists that many projects
//   target.ts --mib <size>      ... as many as make a list of about that many MiB
import { startReferenceServer } from '../reference-server/server.ts';
import { projectsForBytes, projectsListText } from './data.ts';
import { MANY_FAILURES, manyProjects } from './variants.ts';

function projectsAsked([first, second]: string[]): number {
  const byMiB = first === '--mib';
  const n = Number(byMiB ? second : first);
  if (!(n >= 0)) {
    process.stderr.write('usage: target.ts <projects> | --mib <size>\n');
    process.exit(2);
  }
  return byMiB ? projectsForBytes(n * 2 ** 20) : Math.floor(n);
}

const projects = projectsAsked(process.argv.slice(2));
const listText = projectsListText(projects);
void startReferenceServer(0, [MANY_FAILURES, manyProjects(listText, projects)]).then(({ url }) =>
  process.stdout.write(`bench target on ${url} port=${new URL(url).port} projects=${projects} list-bytes=${Buffer.byteLength(listText)}\n`),
);
