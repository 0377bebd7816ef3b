// `npx playwright test` from a clone finds the suite's configuration here; it is tests/playwright.config.ts.
export { default } from './tests/playwright.config.ts';
