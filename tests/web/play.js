/*
 * play.js - the browser test of the web client: headless Chromium
 * (Debian's, through puppeteer-core) opens room.html for seat 1 of a room
 * whose other five seats are bots, and plays the whole game by clicking
 * the prompt's forms. After every decision it checks that the page holds
 * no fact hidden from seat 1: another seat's card it has not seen, a
 * traitor it does not know, the Bene Gesserit prediction; and that what it
 * shows of its own seat is there. Screenshots of the board at the start,
 * in the middle and at the end go to OUTDIR.
 *
 * With ROOM "new" (and SEAT_TOKEN "-") the page creates the room itself
 * (room.html?create=1), binding seat 1 to its own WebCrypto key: the test
 * checks the room says seat 1 is bound and the page says it signs, and
 * writes the room's name to OUTDIR/room.txt for `mentat verify`.
 *
 * Usage: node play.js BASE ROOM SEAT_TOKEN REFEREE_TOKEN OUTDIR
 * Exit 0 when the game ended and every check held; 1 with a message else.
 */
'use strict';
const puppeteer = require('puppeteer-core');
const fs = require('fs');

const [base, roomArg, tokenArg, referee, outdir] = process.argv.slice(2);
let room = roomArg, token = tokenArg;
const creating = roomArg === 'new';
const LIMIT_MS = 240000;

function fail(msg) { console.error('play.js: ' + msg); process.exit(1); }

async function view(tok, version, seat) {
  const q = new URLSearchParams({ at: String(version) });
  if (seat) q.set('seat', String(seat));
  const r = await fetch(`${base}/api/rooms/${room}/view?${q}`, { headers: { Authorization: 'Bearer ' + tok } });
  if (r.status !== 200) fail(`view at ${version}: ${r.status}`);
  return r.json();
}

/* The page at `version` holds nothing seat 1 may not know. */
async function checkPrivacy(page, version) {
  const html = await page.content();
  const shown = await page.evaluate(() => document.body.innerText);
  const all = html + '\n' + shown;
  const full = await view(referee, version);
  const mine = await view(token, version);
  if (mine.viewer !== 1) fail('the seat token is not seat 1\'s');
  let hidden = 0;
  for (let s = 1; s < full.seats.length; s++) {
    const seen = mine.seats[s];
    for (const c of full.seats[s].hand_cards) {
      const known = seen.hand_cards.find(k => k.card === c.card);
      if (known && known.kind !== null) continue;
      hidden++;
      if (all.includes(`#${c.card} ${c.kind}`)) fail(`version ${version}: the page shows seat ${s + 1}'s hidden card #${c.card} ${c.kind}`);
    }
    if (seen.traitors === null)
      for (const t of full.seats[s].traitors) {
        hidden++;
        if (all.includes(`traitor ${t}`)) fail(`version ${version}: the page shows seat ${s + 1}'s traitor ${t}`);
      }
  }
  if (mine.prediction === null && full.prediction !== null) {
    hidden++;
    const p = `prediction: ${full.prediction.faction} turn ${full.prediction.turn}`;
    if (all.includes(p)) fail(`version ${version}: the page shows the hidden ${p}`);
  }
  /* What seat 1 does know is on the page, in the same words. */
  for (const c of mine.seats[0].hand_cards)
    if (!shown.includes(`#${c.card} ${c.kind}`)) fail(`version ${version}: own card #${c.card} ${c.kind} not shown`);
  for (const t of mine.seats[0].traitors || [])
    if (!shown.includes(`traitor ${t}`)) fail(`version ${version}: own traitor ${t} not shown`);
  return hidden;
}

/* The view the page built from the push stream's changes is the view
 * the API answers at its version, member for member (but "head", which
 * the API gives as of now). */
async function checkApplied(page) {
  const held = await page.evaluate(() => JSON.stringify(window.mentatHead));
  const mine = JSON.parse(held);
  const api = await view(token, mine.version);
  for (const k of new Set(Object.keys(api).concat(Object.keys(mine)))) {
    if (k === 'head') continue;
    if (JSON.stringify(api[k]) !== JSON.stringify(mine[k]))
      fail(`version ${mine.version}: the page's "${k}" is not the API's after the stream's changes`);
  }
  return 1;
}

async function shot(page, name) {
  const board = await page.$('#board');
  await board.screenshot({ path: `${outdir}/${name}.png` });
}

(async () => {
  fs.mkdirSync(outdir, { recursive: true });
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const timer = setTimeout(() => fail(`the game did not end in ${LIMIT_MS / 1000} s`), LIMIT_MS);
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  page.on('pageerror', e => fail('page error: ' + e.message));
  if (creating) {
    await page.goto(`${base}/room.html?create=1&faction=atreides&turns=1&level=medium`);
    await page.waitForFunction(() => new URLSearchParams(location.search).has('token'), { timeout: 30000 });
    const q = new URL(page.url()).searchParams;
    room = q.get('room');
    token = q.get('token');
    const info = await (await fetch(`${base}/api/rooms/${room}`)).json();
    if (!info.seats[0].bound) fail(`room ${room}: the page did not bind seat 1 to its key`);
    if (info.seats.slice(1).some(s => s.bound)) fail(`room ${room}: a bot's seat is bound`);
    const note = await page.$eval('#sign-note', p => p.textContent);
    if (!note.includes('signed')) fail(`the page does not say it signs: "${note}"`);
    fs.writeFileSync(`${outdir}/room.txt`, room + '\n');
  } else {
    await page.goto(`${base}/room.html?room=${room}&token=${token}`);
  }
  let decisions = 0, hiddenChecked = 0, applied = 0, midShot = false;
  await page.waitForSelector('#board svg');
  await shot(page, 'start');
  for (;;) {
    await page.waitForFunction(() => {
      const f = document.getElementById('prompt');
      return f.dataset.ready === 'asked' || f.dataset.ready === 'over';
    }, { timeout: 60000 });
    const ready = await page.$eval('#prompt', f => f.dataset.ready);
    const version = Number(await page.$eval('#prompt', f => f.dataset.version));
    hiddenChecked += await checkPrivacy(page, version);
    applied += await checkApplied(page);
    if (ready === 'over') break;
    /* Pick an action kind and a choice by clicking through the form. */
    const kinds = await page.$$eval('#kind option', os => os.map(o => o.value));
    await page.select('#kind', kinds[decisions % kinds.length]);
    const fams = await page.$$eval('#family option', os => os.map(o => o.value));
    await page.select('#family', fams[(decisions * 7) % fams.length]);
    await page.click('#submit');
    await page.waitForFunction(v => document.body.dataset.version !== String(v) ||
      document.getElementById('prompt').dataset.ready === 'asked' &&
      document.getElementById('status').textContent !== '', { timeout: 60000 }, version);
    decisions++;
    if (!midShot && decisions >= 8) {
      await page.waitForSelector('#board svg');
      await shot(page, 'middle');
      midShot = true;
    }
  }
  if (!midShot) await shot(page, 'middle');
  /* Each log line reads "V. text" once: the list adds no number of its own. */
  const logText = await page.$eval('#log', ol => ol.innerText);
  if (!/^\d+\. /m.test(logText)) fail('the log shows no version numbers');
  if (/^\d+\.\s+\d+\. /m.test(logText)) fail('the log numbers its lines twice');
  const marker = await page.$eval('#log li', li => getComputedStyle(li).listStyleType);
  if (marker !== 'none') fail(`the log's lines carry list numbers (${marker})`);
  await shot(page, 'end');
  /* The replay slider shows an early version as seat 1 saw it. */
  await page.$eval('#slider', s => { s.value = '3'; s.dispatchEvent(new Event('input')); });
  await page.waitForFunction(() => document.body.dataset.version === '3', { timeout: 20000 });
  await checkPrivacy(page, 3);
  /* The spectator's page and the referee's (seat 2's view) open too. */
  const end = Number(await page.$eval('#prompt', f => f.dataset.version));
  const watch = await browser.newPage();
  watch.on('pageerror', e => fail('spectator page error: ' + e.message));
  await watch.goto(`${base}/room.html?room=${room}`);
  await watch.waitForSelector('#board svg');
  if (!(await watch.$eval('#me-section', e => e.hidden))) fail('the spectator page shows a seat');
  const full = await view(referee, end);
  const spectator = await watch.evaluate(() => document.body.innerText);
  for (const c of full.seats[0].hand_cards)
    if (spectator.includes(`#${c.card} ${c.kind}`)) {
      const pub = await (await fetch(`${base}/api/rooms/${room}/view?at=${end}`)).json();
      if (!pub.seats[0].hand_cards.some(k => k.card === c.card && k.kind !== null))
        fail(`the spectator page shows seat 1's card #${c.card} ${c.kind}`);
    }
  const ref = await browser.newPage();
  ref.on('pageerror', e => fail('referee page error: ' + e.message));
  await ref.goto(`${base}/room.html?room=${room}&token=${referee}&mode=referee&seat=2`);
  await ref.waitForSelector('#board svg');
  const refText = await ref.evaluate(() => document.body.innerText);
  for (const c of full.seats[1].hand_cards)
    if (!refText.includes(`#${c.card} ${c.kind}`)) fail(`the referee page does not show seat 2's #${c.card} ${c.kind}`);
  clearTimeout(timer);
  await browser.close();
  if (decisions < 3) fail(`only ${decisions} decisions were made`);
  if (hiddenChecked === 0) fail('no hidden fact was ever checked');
  if (applied < decisions) fail('the pushed views were not checked at every decision');
  console.log(`play.js: game over after ${decisions} decisions; ${hiddenChecked} hidden facts checked; ${applied} pushed views checked`);
})().catch(e => fail(e.stack || String(e)));
