import { existsSync } from 'node:fs';
import { chromium, type Browser } from '@playwright/test';

/** Debian's Chromium; Playwright's own browser download is not available on these machines. */
export const CHROMIUM = process.env.ADMIN_API_CONFORMANCE_CHROMIUM ?? '/usr/bin/chromium';

let shared: Promise<Browser> | undefined;

/**
 * Chromium for this worker, launched once and shared by its tests, one after another (a launch costs more than most
 * tests that use it): each opens pages of its own and leaves with leaveChromium, which closes them, not the browser.
 * Playwright ends the browser with the worker.
 */
export function sharedChromium(): Promise<Browser> {
  shared ??= launchChromium().catch((error: Error) => {
    shared = undefined;
    throw error;
  });
  return shared;
}

/** Closes every page a test opened in the shared Chromium. */
export async function leaveChromium(browser: Browser): Promise<void> {
  await Promise.all(browser.contexts().map((context) => context.close()));
}

/** A Chromium of its own, which the caller closes. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: install Debian's chromium package (apt-get install chromium) or set ADMIN_API_CONFORMANCE_CHROMIUM`);
  // Without the background-networking switches Chromium keeps trying hosts a closed network refuses.
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
