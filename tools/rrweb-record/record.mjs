// Records real rrweb sessions: small local pages in Debian's headless Chromium, driven by
// playwright-core with scripted mouse, keyboard, scroll and resize. Output: one NDJSON file per
// session (one rrweb event per line, exactly as the recorder emitted it) for test fixtures.
//   cd tools/rrweb-record && npm install && node record.mjs ../../test/fixtures/rrweb
import { createServer } from 'node:http';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const outDir = process.argv[2] ?? '../../test/fixtures/rrweb';
const rrwebSource = readFileSync(new URL('./node_modules/rrweb/dist/rrweb.umd.min.cjs', import.meta.url), 'utf8');

const PAGES = {
  '/form': `<!doctype html><html><head><title>Sign up</title><style>body{font:16px sans-serif;margin:40px} input{display:block;margin:8px 0}</style></head>
<body><h1>Create account</h1><form id="f" onsubmit="event.preventDefault();document.getElementById('done').textContent='Thanks, '+document.getElementById('name').value">
<label>Name <input id="name" name="name"></label><label>Email <input id="email" type="email"></label>
<label>Password <input id="pw" type="password"></label><label><input id="tos" type="checkbox"> I agree</label>
<select id="plan"><option>free</option><option>pro</option></select><button id="submit">Sign up</button></form><p id="done"></p></body></html>`,
  '/list': `<!doctype html><html><head><title>Todo</title><style>body{font:16px sans-serif;margin:40px} li{height:40px}</style></head>
<body><h1>Todo list</h1><input id="todo" placeholder="What needs doing?"><button id="add" onclick="const li=document.createElement('li');li.textContent=document.getElementById('todo').value;li.onclick=()=>li.classList.toggle('done');document.getElementById('items').appendChild(li);document.getElementById('todo').value=''">Add</button>
<ul id="items">${Array.from({ length: 30 }, (_, i) => `<li>item ${i + 1}</li>`).join('')}</ul></body></html>`,
  '/shop': `<!doctype html><html><head><title>Shop</title><style>body{font:16px sans-serif;margin:0} .card{display:inline-block;width:200px;height:260px;margin:10px;border:1px solid #ccc}</style></head>
<body><nav><a href="#a">Home</a> <a href="#b">Deals</a> <input id="q" placeholder="Search"></nav><main>${Array.from({ length: 24 }, (_, i) => `<div class="card" id="c${i}"><h3>Product ${i}</h3><p>$${(i * 7) % 50 + 5}</p><button onclick="document.getElementById('cart').textContent=String(Number(document.getElementById('cart').textContent)+1)">Add to cart</button></div>`).join('')}</main><footer>Cart: <span id="cart">0</span></footer></body></html>`,
};

const server = createServer((req, res) => {
  const html = PAGES[req.url ?? ''];
  res.writeHead(html ? 200 : 404, { 'content-type': 'text/html' });
  res.end(html ?? 'not found');
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

async function record(name, path, script) {
  const page = await browser.newPage({ viewport: { width: 1024, height: 700 } });
  await page.goto(base + path);
  await page.addScriptTag({ content: rrwebSource });
  await page.evaluate(() => {
    window.__events = [];
    window.rrweb.record({ emit: (e) => window.__events.push(e), sampling: { mousemove: true, scroll: 50, input: 'last' } });
  });
  await script(page);
  await page.waitForTimeout(300);
  const events = await page.evaluate(() => window.__events);
  await page.close();
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, `${name}.ndjson`), events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  console.log(`${name}: ${events.length} events, types ${[...new Set(events.map((e) => e.type))].join(',')}`);
}

async function moveTo(page, selector) {
  const box = await page.locator(selector).boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 8 });
}

await record('signup-form', '/form', async (page) => {
  await moveTo(page, '#name');
  await page.click('#name');
  await page.keyboard.type('Ada Lovelace', { delay: 30 });
  await moveTo(page, '#email');
  await page.click('#email');
  await page.keyboard.type('ada@example.com', { delay: 20 });
  await page.keyboard.press('Tab');
  await page.keyboard.type('correct horse', { delay: 20 });
  await moveTo(page, '#tos');
  await page.click('#tos');
  await page.selectOption('#plan', 'pro');
  await moveTo(page, '#submit');
  await page.click('#submit');
});

await record('todo-list', '/list', async (page) => {
  for (const text of ['buy milk', 'write tests', 'ship it']) {
    await moveTo(page, '#todo');
    await page.click('#todo');
    await page.keyboard.type(text, { delay: 25 });
    await moveTo(page, '#add');
    await page.click('#add');
  }
  await page.mouse.wheel(0, 600);
  await page.waitForTimeout(200);
  await page.mouse.wheel(0, 600);
  await page.waitForTimeout(200);
  await page.mouse.click(200, 300);
  await page.setViewportSize({ width: 800, height: 600 });
  await page.waitForTimeout(200);
});

await record('shop-browse', '/shop', async (page) => {
  await moveTo(page, '#q');
  await page.click('#q');
  await page.keyboard.type('shoes', { delay: 30 });
  await page.keyboard.press('Enter');
  for (const i of [1, 5, 9]) {
    await page.locator(`#c${i} button`).scrollIntoViewIfNeeded();
    await moveTo(page, `#c${i} button`);
    await page.click(`#c${i} button`);
    await page.waitForTimeout(100);
  }
  await page.mouse.wheel(0, 1500);
  await page.waitForTimeout(200);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForTimeout(200);
  await page.mouse.dblclick(400, 300);
});

await browser.close();
server.close();
