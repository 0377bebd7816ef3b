import { existsSync } from 'node:fs';
import { chromium, type Browser } from '@playwright/test';

/** Debian's Chromium; Playwright's own browser download is not available on these machines. */
export const CHROMIUM = process.env.ADMIN_API_CONFORMANCE_CHROMIUM ?? '/usr/bin/chromium';

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
