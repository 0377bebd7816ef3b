import type { Source } from './sources.ts';

// In CI the embedded reference target is checked only when asked for: a job whose secrets are missing must
// never go green on it. Most CI services set CI; these are also the variables by which the services that
// do not, or not always, make themselves known (Jenkins, Azure Pipelines, TeamCity, AWS CodeBuild, Google
// Cloud Build, Bamboo among them).
export const CI_MARKERS = [
  'CI',
  'CONTINUOUS_INTEGRATION',
  'BUILD_ID',
  'BUILD_NUMBER',
  'JENKINS_URL',
  'HUDSON_URL',
  'TF_BUILD',
  'TEAMCITY_VERSION',
  'CODEBUILD_BUILD_ID',
  'bamboo_buildKey',
  'GITHUB_ACTIONS',
  'GITLAB_CI',
  'BITBUCKET_BUILD_NUMBER',
  'BUILDKITE',
  'CIRCLECI',
  'TRAVIS',
  'DRONE',
  'APPVEYOR',
  'SEMAPHORE',
  'CIRRUS_CI',
  'CI_NAME',
] as const;

const saysNo = (value: string) => ['false', '0'].includes(value.trim().toLowerCase());

/**
 * The variable that says this run is in CI, or undefined. CI=false (or 0) says it is not, whatever else is
 * set, as a developer reproducing a job locally may need.
 */
export function ciMarker(env: Source): string | undefined {
  if (env.CI !== undefined && saysNo(env.CI)) return undefined;
  return CI_MARKERS.find((name) => {
    const value = env[name];
    return value !== undefined && value.trim() !== '' && !saysNo(value);
  });
}

/**
 * The page of this CI run, where its log is, when the service names it: GitHub Actions (the run, and its
 * attempt), GitLab CI (the job), Buildkite (the build). Only an absolute http(s) URL is taken.
 */
export function ciRunUrl(env: Source): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: run, GITHUB_RUN_ATTEMPT: attempt } = env;
  const github = server && repository && run ? `${server}/${repository}/actions/runs/${run}${attempt ? `/attempts/${attempt}` : ''}` : undefined;
  const url = github ?? env.CI_JOB_URL ?? env.BUILDKITE_BUILD_URL;
  return url !== undefined && /^https?:\/\/[^\s@]+$/i.test(url) ? url : undefined;
}
