// On a phone the page never scrolls sideways: at 390 and at 320 CSS px, on every tab, no
// element reaches past the viewport (what scrolls inside its own box, a table, is that box's).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPlayground, startServer, visitFilledTabs } from './harness.mjs';


/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/**
 * The page's width against the viewport's, and the elements that stick out past it, unless an
 * ancestor clips or scrolls them.
 * @param {import('playwright-core').Page} page
 */
function overflow(page) {
  return page.evaluate(() => {
    const width = innerWidth;
    const clipped = (/** @type {Element} */ element) => {
      for (let up = element.parentElement; up !== null && up !== document.body; up = up.parentElement) {
        if (getComputedStyle(up).overflowX !== 'visible') return true;
      }
      return false;
    };
    const wide = [...document.querySelectorAll('body *')].filter((element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.right > width + 0.5 && !clipped(element);
    }).map((element) => `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${[...element.classList].join('.')} right ${Math.round(element.getBoundingClientRect().right)}`);
    return { scrollWidth: document.scrollingElement?.scrollWidth ?? 0, width, wide: wide.slice(0, 8) };
  });
}

for (const [width, height] of [[390, 844], [320, 700]]) {
  test(`${width}×${height}: no tab is wider than the screen`, async () => {
    const { page, problems } = await openPlayground(browser.context, server.url);
    await page.setViewportSize({ width, height });
    await visitFilledTabs(page, async (tab) => {
      if (tab === 'files') {
        // The file editor keeps a usable height.
        const editor = await page.$eval('#files-editor', (area) => area.getBoundingClientRect().height);
        assert.ok(editor >= 200, `the file editor is ${editor} px tall`);
      }
      const seen = await overflow(page);
      assert.ok(seen.scrollWidth <= seen.width, `${tab}: the page is ${seen.scrollWidth} px wide on a ${seen.width} px screen`);
      assert.deepEqual(seen.wide, [], `${tab}: elements past the right edge`);
      // Table headers keep their words whole: none is narrower than its longest word.
      const squeezed = await page.$$eval('table.grid th', (cells) => cells.filter((cell) => {
        const box = cell.getBoundingClientRect();
        return box.width > 0 && cell.scrollWidth > cell.clientWidth + 1;
      }).map((cell) => cell.textContent));
      assert.deepEqual(squeezed, [], `${tab}: headers squeezed`);
    });
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('1280×800: the step controls, the meter, the request and the decisions are all on screen, no page scroll', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { viewport: { width: 1280, height: 800 } });
  await page.click('#scenario-step-2');
  const boxes = await page.evaluate(() => {
    const ids = ['scenario-pick', 'scenario-profile', 'scenario-run', 'scenario-back', 'scenario-forward', 'scenario-position',
      'scenario-steps', 'scenario-meter', 'scenario-meter-legend', 'request-diff-strip', 'scenario-request', 'scenario-turn'];
    const seen = Object.fromEntries(ids.map((id) => {
      const box = document.getElementById(id)?.getBoundingClientRect();
      return [id, box === undefined ? null : { top: Math.round(box.top), bottom: Math.round(box.bottom), right: Math.round(box.right) }];
    }));
    const decisions = document.querySelector('#scenario-turn table.decisions')?.getBoundingClientRect();
    return { seen, decisionsTop: decisions?.top ?? Infinity, scrollHeight: document.scrollingElement?.scrollHeight ?? 0 };
  });
  assert.ok(boxes.scrollHeight <= 800, `the page is ${boxes.scrollHeight} px tall`);
  for (const [id, box] of Object.entries(boxes.seen)) {
    assert.ok(box !== null, `#${id} is on the page`);
    assert.ok(box.top >= 0 && box.top < 800 && box.right <= 1280, `#${id} is on screen: ${JSON.stringify(box)}`);
  }
  // The request pane starts high enough to show some of it, and the decisions are in view.
  assert.ok((boxes.seen['scenario-request']?.top ?? 800) < 500, JSON.stringify(boxes.seen['scenario-request']));
  assert.ok(boxes.decisionsTop < 800, `the decisions start at ${boxes.decisionsTop}`);
  assert.deepEqual(problems, []);
  await page.close();
});
