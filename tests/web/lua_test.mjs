// Lua games in the web build (docs/web.md, "Lua games"), in headless Chromium (Debian's
// /usr/bin/chromium) driven by playwright-core, against the web build served on 127.0.0.1:
//   node lua_test.mjs BUILD_WEB_DIR EXAMPLES_LUA_DIR
// Beacon Hunt (examples/lua/beacon_hunt) and the BGT-style side-scroller are played by their
// own key scripts (beacon_hunt.keys, side_scroller.keys: the native lua_example_* tests'),
// each key dispatched to the game area in step with the game's fixed steps; each must
// finish with the native run's summary and the lines it says must reach the page's live
// regions. Beacon Hunt's best score must come back from browser storage on a second start. Then scripts with errors, written into
// the program's file system before Start: a runtime error in the game's loop and a syntax
// error, each reported to the player (the live region) and the console with the file and
// line. Fails (exit 1) with the reason on each check that does not hold; a missing
// Chromium or build is a failure, never a skip.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { serve } from "./serve.mjs";
import { launchChromium } from "./browser.mjs";

const [dir, examples] = process.argv.slice(2).map((p) => resolve(p));
const CHROMIUM = "/usr/bin/chromium";
let failures = 0;
function check(ok, what, detail = "") {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}${detail ? ": " + detail : ""}`);
  if (!ok) failures++;
}
function fatal(why) {
  console.error(`lua_test: ${why}`);
  process.exit(1);
}
if (!dir || !examples) fatal("usage: node lua_test.mjs BUILD_WEB_DIR EXAMPLES_LUA_DIR");
if (!existsSync(CHROMIUM)) fatal(`${CHROMIUM} is missing: scripts/install-deps installs Debian's chromium`);
for (const f of ["earshot-lua.html", "earshot-lua.js", "earshot-lua.wasm", "earshot-lua.data",
                 "lua-beacon-hunt.html", "lua-side-scroller.html", "index.html"])
  if (!existsSync(join(dir, f))) fatal(`${join(dir, f)} is missing: the web build did not run (make web)`);
check(readFileSync(join(dir, "index.html"), "utf8").includes('<a href="lua-beacon-hunt.html">Beacon Hunt (Lua)</a>'),
      "index.html links Beacon Hunt's page");

// A key script: "<frame> press|down|up KEY" lines (frames are the game's fixed steps); each
// key as the browser reports it, [KeyboardEvent.key, KeyboardEvent.code].
const NAMES = { UP: ["ArrowUp", "ArrowUp"], DOWN: ["ArrowDown", "ArrowDown"], LEFT: ["ArrowLeft", "ArrowLeft"],
                RIGHT: ["ArrowRight", "ArrowRight"], ENTER: ["Enter", "Enter"], ESCAPE: ["Escape", "Escape"],
                SPACE: [" ", "Space"], F1: ["F1", "F1"], LCTRL: ["Control", "ControlLeft"] };
function readKeys(file) {
  const keys = [];
  readFileSync(file, "utf8").split("\n").forEach((line, i) => {
    line = line.trim();
    if (!line || line.startsWith("#")) return;
    const m = /^([0-9]+) (press|down|up) ([A-Z0-9]+)$/.exec(line);
    if (!m || !NAMES[m[3]]) fatal(`${file}:${i + 1}: not a key line this test plays: ${line}`);
    keys.push([Number(m[1]), m[2], m[3]]);
  });
  return keys;
}

const json = (x) => JSON.stringify(x);
const server = await serve(dir, 0);
const base = `http://127.0.0.1:${server.address().port}/`;
const { browser, close } = await launchChromium(CHROMIUM);
try {
  const page = await browser.newPage();
  const errors = [];
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", (e) => errors.push(String(e)));

  // Every text either live region showed, in order (installed on each load, before Start).
  const recordRegions = () => page.evaluate(() => {
    window.regionLog = [];
    const alert = document.getElementById("earshot-assertive");
    new MutationObserver(() => { if (alert.textContent) regionLog.push({ region: "assertive", text: alert.textContent }); })
      .observe(alert, { childList: true, subtree: true, characterData: true });
    new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) regionLog.push({ region: "polite", text: n.textContent });
    }).observe(document.getElementById("earshot-polite"), { childList: true });
  });
  const regionTexts = () => page.evaluate(() => regionLog.map((e) => e.text));
  // Waits until a live region has shown a text that re matches.
  const spoken = (re, ms = 10000) => page.waitForFunction((src) => regionLog.some((e) => new RegExp(src).test(e.text)),
    re.source, { timeout: ms }).then(() => true).catch(() => false);
  const open = async (url) => {
    await page.goto(base + url);
    await page.waitForFunction(() => window.earshotWeb && earshotWeb.ready, null, { timeout: 30000 });
    await recordRegions();
  };
  // Plays the key script in step with the game: each key goes to the game area at the end
  // of the frame before its step (the page's earFrame hook), as the native script queues
  // it before that step. Resolves when the last key is sent.
  const playKeys = (keys) => page.evaluate(([keys, names]) => new Promise((done) => {
    const area = document.getElementById("earshot-game");
    const frameOf = Module.earFrame;
    let next = 0;
    Module.earFrame = (steps) => {
      frameOf(steps);
      while (next < keys.length && steps >= keys[next][0] - 1) {
        const [, how, key] = keys[next++];
        const send = (type) => area.dispatchEvent(new KeyboardEvent(type,
          { key: names[key][0], code: names[key][1], bubbles: true, cancelable: true }));
        if (how !== "up") send("keydown");
        if (how !== "down") send("keyup");
      }
      if (next === keys.length) { Module.earFrame = frameOf; done(steps); }
    };
  }), [keys, NAMES]);
  const ended = (ms) => page.waitForFunction(() => earshotWeb.ended && earshotWeb.savedAtEnd, null, { timeout: ms })
    .then(() => true).catch(() => false);
  const summaryOf = () => page.evaluate(() => earshotWeb.printed.find((l) => l.startsWith("summary: ")) || "");

  // 1. Beacon Hunt by its key script, from its own page.
  await open("lua-beacon-hunt.html");
  await page.click("#earshot-start");
  const playing = playKeys(readKeys(join(examples, "beacon_hunt/beacon_hunt.keys")));
  check(await ended(60000), "Beacon Hunt: the key script finishes the game (it quits from its menu)");
  await playing;
  let summary = await summaryOf();
  check(/ errors=0 /.test(summary) && / game=found=1 best=10 bumps=2$/.test(summary),
        "Beacon Hunt: the summary line is the native run's (found=1 best=10 bumps=2, no errors)", summary);
  let texts = await regionTexts();
  for (const line of ["Beacon Hunt. Play", "Find the beacon. Follow its hum.", "Wall", "The beacon is 6 metres away",
                      "You found the beacon in 10 steps", "A new best", "Quit", "Goodbye"])
    check(texts.includes(line), `Beacon Hunt: "${line}" reached a live region`);
  check(texts.includes("The game has ended. Reload the page to play again."), "Beacon Hunt: the page says the game ended");

  // 2. The best score came from browser storage: a second start's menu says it.
  await open("lua-beacon-hunt.html");
  await page.click("#earshot-start");
  await page.waitForFunction(() => regionLog.some((e) => e.text.startsWith("Beacon Hunt")), null, { timeout: 15000 })
    .catch(() => {});
  texts = await regionTexts();
  check(texts.includes("Beacon Hunt. Best: 10 steps. Play"), "the save: the second start's menu says the best", json(texts));
  // (one key a frame: the menu's loop takes Down before Enter in the same step)
  await page.keyboard.press("ArrowDown");
  check(await spoken(/^Quit$/), "the second start: Down says Quit");
  await page.keyboard.press("Enter");
  check(await ended(15000), "the second start: Enter on Quit ends the game");

  // 3. The side-scroller through earshot.compat (sound_pool, timers, key_down, wait).
  await open("lua-side-scroller.html");
  await page.click("#earshot-start");
  const scrolling = playKeys(readKeys(join(examples, "side_scroller/side_scroller.keys")));
  check(await ended(60000), "the side-scroller: the key script reaches the exit");
  await scrolling;
  summary = await summaryOf();
  check(/ errors=0 /.test(summary) && / game=x=30 deaths=0 kills=1$/.test(summary),
        "the side-scroller: the summary line is the native run's (x=30 deaths=0 kills=1, no errors)", summary);
  texts = await regionTexts();
  for (const line of ["Walk right to the chime. Space jumps, Control strikes.", "Zombie killed", "You reached the exit"])
    check(texts.includes(line), `the side-scroller: "${line}" reached a live region`);

  // A script written into the program's file system at /games/<name>/game.lua before Start,
  // then run by earshot-lua.html?game=<name>.
  const runScript = async (name, text) => {
    await open(`earshot-lua.html?game=${name}`);
    await page.evaluate(([name, text]) => {
      Module.FS.mkdir(`/games/${name}`);
      Module.FS.writeFile(`/games/${name}/game.lua`, text);
    }, [name, text]);
    await page.click("#earshot-start");
  };

  // 4. A runtime error in a callback (update, on Space), line 5: said and logged with the
  // file and line, each time; the game plays on (it has no menu() to go back to) and
  // Escape still quits.
  await runScript("bad_runtime", [
    "earshot.say('Bad game')",                              // 1
    "function update(dt)",                                  // 2
    "    if earshot.key_pressed('SPACE') then",             // 3
    "        local t = nil",                                // 4
    "        t.x = 1",                                      // 5
    "    end",
    "    if earshot.key_pressed('ESCAPE') then earshot.quit() end",
    "end", ""].join("\n"));
  check(await spoken(/^Bad game$/), "the runtime error's game: it speaks");
  await page.keyboard.press("Space");
  const where = "^Script error: /games/bad_runtime/game\\.lua:5: attempt to index a nil value \\(local 't'\\)$";
  check(await spoken(new RegExp(where)), "a runtime error reaches the live region with its file and line",
        json((await regionTexts()).slice(-3)));
  const warned = await page.evaluate(() => earshotWeb.warned.join("\n"));
  check(/\/games\/bad_runtime\/game\.lua:5: attempt to index a nil value/.test(warned) &&
        /stack traceback:\s+\/games\/bad_runtime\/game\.lua:5: in function 'update'/.test(warned),
        "the runtime error is in the console with its file, line and traceback", warned.slice(-400));
  await page.evaluate(() => { regionLog.length = 0; });
  await page.keyboard.press("Space");
  check(await spoken(new RegExp(where)), "the game plays on: a second error is said again");
  await page.keyboard.press("Escape");
  check(await ended(15000), "the runtime error's game: Escape still ends it");
  summary = await summaryOf();
  check(/ errors=2 /.test(summary), "the runtime error's game: the summary counts two script errors", summary);

  // 5. A syntax error, line 2: the game cannot start, and the page says why (file and line)
  // through the live region until Escape.
  await runScript("bad_syntax", "local fine = 1\nlocal x = = 2\n");
  check(await spoken(/^The game could not start: \/games\/bad_syntax\/game\.lua:2: unexpected symbol near '='$/),
        "a syntax error reaches the live region with its file and line", json(await regionTexts()));
  check(/earshot-lua: The game could not start: \/games\/bad_syntax\/game\.lua:2:/.test(
          await page.evaluate(() => earshotWeb.warned.join("\n"))), "the syntax error is in the console");
  await page.keyboard.press("Escape");
  check(await ended(15000), "the syntax error's page: Escape ends it");

  // 6. No such game.
  await open("earshot-lua.html?game=no_such_game");
  await page.click("#earshot-start");
  check(await spoken(/^The game could not start: there is no game no_such_game /), "a missing game is said",
        json(await regionTexts()));

  check(errors.length === 0, "no console errors", json(errors));
} finally {
  await close();
  server.close();
}
if (failures) fatal(`${failures} check(s) failed`);
console.log("lua_test: all checks passed");
