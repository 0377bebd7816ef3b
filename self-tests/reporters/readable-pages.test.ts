import { expect, test, type Browser, type Page } from '@playwright/test';
import { leaveChromium, sharedChromium } from '../support/browser.ts';
import { samplePages } from '../support/sample-pages.ts';

// Every page a run leaves, read as a customer's browser shows it: each piece of text meets WCAG AA contrast against
// what is behind it, and no page scrolls sideways on a phone, whatever the URLs, digests and reasons it quotes.

const pages = samplePages();
let browser: Browser;
test.beforeAll(async () => (browser = await sharedChromium()));
test.afterAll(async () => leaveChromium(browser));

/** Each text on the page whose contrast with what is behind it falls below AA: 4.5:1, or 3:1 for large text. */
function lowContrast(): string[] {
  type Rgba = [number, number, number, number];
  const parse = (css: string): Rgba => {
    const n = css.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0];
    return [n[0], n[1], n[2], n[3] ?? 1];
  };
  const over = (top: Rgba, below: Rgba): Rgba => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + below[i] * (1 - a)).concat(1) as Rgba;
  };
  // The backgrounds from the element up to the first opaque one, laid over one another; white below everything.
  const background = (element: Element): Rgba => {
    const layers: Rgba[] = [];
    for (let e: Element | null = element; e; e = e.parentElement) {
      const colour = parse(getComputedStyle(e).backgroundColor);
      if (colour[3] > 0) layers.push(colour);
      if (colour[3] >= 1) break;
    }
    return layers.reduceRight<Rgba>((below, top) => over(top, below), [255, 255, 255, 1]);
  };
  const opacity = (element: Element) => {
    let product = 1;
    for (let e: Element | null = element; e; e = e.parentElement) product *= Number(getComputedStyle(e).opacity);
    return product;
  };
  const luminance = ([r, g, b]: Rgba) => {
    const linear = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  };
  const low: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!element || !node.textContent?.trim() || element.getClientRects().length === 0 || element.closest('script, option')) continue;
    const style = getComputedStyle(element);
    const behind = background(element);
    const text = parse(style.color);
    // Text drawn at an opacity below 1 is blended with what is behind it.
    const shown = over([text[0], text[1], text[2], text[3] * opacity(element)], behind);
    const [l1, l2] = [luminance(shown), luminance(behind)].sort((a, b) => b - a);
    const ratio = (l1 + 0.05) / (l2 + 0.05);
    const size = Number.parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5))
      low.push(`${ratio.toFixed(2)}:1 "${node.textContent.trim().slice(0, 40)}" (${style.color} on rgb(${behind.slice(0, 3).join(', ')}))`);
  }
  return low;
}

/** The page with every <details> open, so that the evidence it folds is measured too. */
async function opened(html: string, width: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  await page.setContent(html);
  await page.evaluate(() => {
    for (const d of document.querySelectorAll('details')) d.open = true;
  });
  return page;
}

/** How wide the page scrolls, and the first few elements that reach past `width` outside a scrolling box of their own. */
async function widthAt(page: Page, width: number) {
  await page.setViewportSize({ width, height: 900 });
  return page.evaluate((width) => {
    const wide = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > width + 1 && !e.closest('.scroll'))
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className} reaches ${Math.round(e.getBoundingClientRect().right)} px`);
    return { scrollWidth: document.scrollingElement!.scrollWidth, wide };
  }, width);
}

for (const { name, html } of pages)
  test(`every text of the ${name} page meets WCAG AA contrast, and the page does not scroll sideways at 420 px`, async () => {
    const page = await opened(html, 1100);
    expect(await page.evaluate(lowContrast)).toEqual([]);
    const narrow = await widthAt(page, 420);
    expect(narrow.wide).toEqual([]);
    expect(narrow.scrollWidth).toBeLessThanOrEqual(420);
    await page.close();
  });

test('the contrast measure fails white text on a near-white box, and the width measure a page as wide as a URL', async () => {
  const page = await opened(
    `<body style="background:#f6f7f9"><div style="color:#fff">the reason</div><p style="white-space:nowrap">${'x'.repeat(200)}</p></body>`,
    420,
  );
  expect(await page.evaluate(lowContrast)).toEqual([expect.stringMatching(/^1\.0\d:1 "the reason"/)]);
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeGreaterThan(420);
  await page.close();
});
