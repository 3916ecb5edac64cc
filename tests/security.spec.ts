import { expect, test } from '@playwright/test';

test('the built app serves no source maps and points to none', async ({ request }) => {
  const html = await (await request.get('/')).text();
  const scripts = [...html.matchAll(/src="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  expect(scripts.length).toBeGreaterThan(0);
  for (const path of [...scripts, '/sw.js']) {
    const code = await request.get(path);
    expect(code.status(), path).toBe(200);
    expect(await code.text(), path).not.toContain('sourceMappingURL');
    const map = await request.get(`${path}.map`);
    expect(map.status(), `${path}.map`).toBe(404);
    expect(await map.text()).not.toContain('"sources"');
  }
});
