// The web build in headless Chromium (Debian's /usr/bin/chromium) driven by
// playwright-core, against the pages served on 127.0.0.1:
//   node web_test.mjs BUILD_WEB_DIR NATIVE_STAGE_SCENE
// Fails (exit 1) with the reason on the first check that does not hold; a missing
// Chromium or build is a failure, never a skip.
import { execFileSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { serve } from "./serve.mjs";
import { launchChromium, sleep } from "./browser.mjs";

import { resolve as resolvePath } from "node:path";
const [dir, nativeScene] = process.argv.slice(2).map((p) => resolvePath(p));
const CHROMIUM = "/usr/bin/chromium";
let failures = 0;
function check(ok, what, detail = "") {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}${detail ? ": " + detail : ""}`);
  if (!ok) failures++;
}
function fatal(why) {
  console.error(`web_test: ${why}`);
  process.exit(1);
}
if (!dir || !nativeScene) fatal("usage: node web_test.mjs BUILD_WEB_DIR NATIVE_STAGE_SCENE");
if (!existsSync(CHROMIUM)) fatal(`${CHROMIUM} is missing: scripts/install-deps installs Debian's chromium`);
for (const f of ["beacon.html", "beacon.js", "beacon.wasm", "stage_scene.js", "bench.html", "save_probe.html", "key_probe.html"])
  if (!existsSync(join(dir, f))) fatal(`${join(dir, f)} is missing: the web build did not run (make web)`);

// 1. The fixed scene's hash: native scalar kernel, the wasm in node, the wasm in the page.
function run(file, args, opts = {}) {
  try {
    return execFileSync(file, args, { encoding: "utf8", ...opts }).trim();
  } catch (e) {
    fatal(`${file} ${args.join(" ")} failed: ${String(e.stderr || e.message).slice(0, 600)}`);
  }
}
const nativeOut = run(nativeScene, ["hash"]);
// Node.js 18+ has fetch, which emscripten 3.1.6's loader would use for a file path.
const nodeOut = run(process.execPath, ["--no-experimental-fetch", join(dir, "stage_scene.js"), "hash"], { cwd: dir });
const nativeHash = (/^hash ([0-9a-f]{16}) /.exec(nativeOut) || [])[1];
check(!!nativeHash, "native stage_scene prints a hash", nativeOut);
check(nodeOut === nativeOut, "wasm stage (node) = native scalar kernel", `${nodeOut} vs ${nativeOut}`);
// ...and the portable math's users on their own: 4.8 M synth samples and the physics
// world's direction vectors, bit for bit (src/math; no libm in either).
const nativePortable = run(nativeScene, ["portable"]);
const nodePortable = run(process.execPath, ["--no-experimental-fetch", join(dir, "stage_scene.js"), "portable"], { cwd: dir });
const portablePeak = Number((/^portable [0-9a-f]{16} samples 4622400 synth-peak ([0-9.]+)$/.exec(nativePortable) || [])[1]);
check(portablePeak > 0.85 && portablePeak <= 0.9, "native stage_scene prints the portable hash (the parts peak at 0.9)", nativePortable);
check(nodePortable === nativePortable, "wasm synth and physics directions (node) = native", `${nodePortable} vs ${nativePortable}`);
// 1b. The room reverb in the web build (the demo game's rooms): the cave's tail after a burst,
// bit for bit as natively, and a tail there is (200..300 ms after the burst within 20 dB of
// its first 50 ms; natively -12.0 dB).
const nativeRoom = run(nativeScene, ["room"]);
const nodeRoom = run(process.execPath, ["--no-experimental-fetch", join(dir, "stage_scene.js"), "room"], { cwd: dir });
const roomTail = Number((/ tail_db (-?[0-9.]+)$/.exec(nativeRoom) || [])[1]);
check(/^room [0-9a-f]{16} tail_db /.test(nativeRoom), "native stage_scene prints the room's hash", nativeRoom);
check(nodeRoom === nativeRoom, "wasm room reverb (node) = native scalar kernel", `${nodeRoom} vs ${nativeRoom}`);
check(roomTail > -20, "the cave rings on (tail within 20 dB of the burst)", nativeRoom);

const server = await serve(dir, 0);
const base = `http://127.0.0.1:${server.address().port}/`;
const { browser, profile } = await launchChromium(CHROMIUM);
try {
  const errors = [];
  const page = await browser.newPage();
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", (e) => errors.push(String(e)));

  // 2. The speed page's hash is the same.
  await page.goto(base + "bench.html");
  await page.waitForFunction(() => window.earshotBench, null, { timeout: 15000 });
  const pageHash = await page.evaluate(() => earshotBench.hash());
  check(pageHash === nativeHash, "wasm stage (Chromium) = native scalar kernel", `${pageHash} vs ${nativeHash}`);

  // 3. Beacon: loads, its accessibility tree, start, keys, speech, sound, focus, quit.
  await page.goto(base + "beacon.html");
  await page.waitForFunction(() => window.earshotWeb && earshotWeb.ready, null, { timeout: 15000 });
  const tree = await page.locator("body").ariaSnapshot();
  check(/application "Beacon game area"/.test(tree), "accessibility tree: the application region", tree.replace(/\n/g, " | "));
  check(/alert "Game messages"/.test(tree), "accessibility tree: the assertive live region (alert)");
  check(/log "Game news"/.test(tree), "accessibility tree: the polite live region (log)");
  check(/heading "Beacon" \[level=1\]/.test(tree), "accessibility tree: the heading");
  check(/button "Start"/.test(tree), "accessibility tree: the Start button");
  const ready = await page.evaluate(() => earshotWeb.announcements.map((a) => a.text));
  check(ready[0] === "Ready. Press the Start button to begin; sound starts only when you press it.",
        "the page says sound starts only after Start", JSON.stringify(ready));

  // Keyboard only: Tab reaches Start, Enter presses it.
  await page.keyboard.press("Tab");
  check(await page.evaluate(() => document.activeElement.id) === "earshot-start", "Tab reaches the Start button");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => earshotWeb.steps >= 10, null, { timeout: 10000 });
  check(await page.evaluate(() => document.activeElement.id) === "earshot-game", "the game area has the focus after Start");
  const welcome = "Beacon. Space pings, F1 repeats, Escape quits.";
  await page.waitForFunction((t) => document.getElementById("earshot-assertive").textContent === t, welcome,
                             { timeout: 5000 }).catch(() => {});
  let said = await page.evaluate(() => earshotWeb.announcements.slice(1));
  check(JSON.stringify(said) === JSON.stringify([{ text: welcome, assertive: true }]),
        "start: the game's welcome, assertive, word for word", JSON.stringify(said));
  check(await page.evaluate(() => document.getElementById("earshot-assertive").textContent) === welcome,
        "the assertive region holds the welcome");

  // The audio callback runs; a ping is heard (Space), then F1 repeats the welcome.
  await page.waitForFunction(() => earshotWeb.audio.callbacks >= 5, null, { timeout: 10000 })
    .catch(() => {});
  const quiet = await page.evaluate(() => ({ ...earshotWeb.audio }));
  check(quiet.callbacks >= 5, "the ScriptProcessorNode's callback runs", JSON.stringify(quiet));
  check(quiet.sampleRate === 48000, "the audio context runs at the stage's rate", String(quiet.sampleRate));
  await page.keyboard.press("Space");
  await page.waitForFunction(() => earshotWeb.audio.maxPeak > 0.05, null, { timeout: 5000 }).catch(() => {});
  const loud = await page.evaluate(() => ({ ...earshotWeb.audio }));
  // synth:square:300:0.15 at amplitude 0.5, 2 m to the right: well above 0.05 in the right channel.
  check(loud.maxPeak > 0.05 && loud.maxRms > 0.01, "the ping is heard in the callback's output (not silent)",
        JSON.stringify(loud));
  await page.keyboard.press("F1");
  await sleep(300);
  said = await page.evaluate(() => earshotWeb.announcements.slice(1));
  check(said.length === 2 && said[1].text === welcome && said[1].assertive,
        "F1: the welcome said again (assertive)", JSON.stringify(said));
  check(await page.evaluate(() => document.getElementById("earshot-assertive").textContent) === welcome,
        "the repeat was cleared and set again");

  // Focus loss pauses the game's clock (no fixed steps), the focus back resumes it.
  await page.evaluate(() => document.getElementById("earshot-game").blur());
  await sleep(100);
  const pausedAt = await page.evaluate(() => earshotWeb.steps);
  await sleep(500);
  const pausedLater = await page.evaluate(() => ({ steps: earshotWeb.steps, paused: earshotWeb.paused }));
  check(pausedLater.paused && pausedLater.steps === pausedAt, "focus loss pauses (no steps)",
        `${pausedAt} -> ${JSON.stringify(pausedLater)}`);
  await page.evaluate(() => document.getElementById("earshot-game").focus());
  await sleep(500);
  const resumed = await page.evaluate(() => ({ steps: earshotWeb.steps, paused: earshotWeb.paused }));
  // 0.5 s at 60 steps a second whatever the display rate: about 30 steps (loaded machine: at least 10).
  check(!resumed.paused && resumed.steps >= pausedAt + 10, "the focus back resumes the steps",
        `${pausedAt} -> ${JSON.stringify(resumed)}`);

  // Escape quits: the runner ends, the page says so.
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => earshotWeb.ended, null, { timeout: 5000 }).catch(() => {});
  said = await page.evaluate(() => earshotWeb.announcements.slice(3).map((a) => a.text));
  check(JSON.stringify(said) === JSON.stringify(["The game has ended. Reload the page to play again."]),
        "Escape ends the game, and the page says so", JSON.stringify(said));

  // Keys: the layout's letters and digits, the physical key otherwise, a release mapped
  // to its press's key, text. Events as a German (Z on the Y key), a French (1 is Shift
  // on the & key), a Russian (ф on the A key) keyboard would send them.
  await page.goto(base + "key_probe.html");
  await page.waitForFunction(() => window.earshotWeb && earshotWeb.ready, null, { timeout: 15000 });
  await page.click("#earshot-start");
  await page.waitForFunction(() => earshotWeb.steps >= 2, null, { timeout: 10000 });
  const keyEvents = [
    ["keydown", "z", "KeyY"], ["keyup", "z", "KeyY"],          // German: Z
    ["keydown", "&", "Digit1"], ["keyup", "&", "Digit1"],      // French unshifted: the physical 1
    ["keydown", "ф", "KeyA"], ["keyup", "ф", "KeyA"],          // Russian: the physical A
    ["keydown", "a", "KeyQ"], ["keyup", "A", "KeyQ"],          // release as its press (A), not Q
    ["keydown", "ArrowLeft", "ArrowLeft"], ["keyup", "ArrowLeft", "ArrowLeft"],
    ["keydown", "é", "Digit2"], ["keyup", "é", "Digit2"],      // French: é typed, the physical 2
  ];
  const expectedKeys = ["pressed Z", "typed z", "released Z", "pressed 1", "typed &", "released 1",
                        "pressed A", "typed ф", "released A", "pressed A", "typed a", "released A",
                        "pressed LEFT", "released LEFT", "pressed 2", "typed é", "released 2"];
  for (const [type, key, code] of keyEvents) {
    await page.evaluate(([t, k, c]) => {
      const area = document.getElementById("earshot-game");
      area.dispatchEvent(new KeyboardEvent(t, { key: k, code: c, bubbles: true, cancelable: true }));
    }, [type, key, code]);
    // One frame between events, so each edge is seen on its own frame.
    const at = await page.evaluate(() => earshotWeb.frames);
    await page.waitForFunction((n) => earshotWeb.frames >= n + 2, at, { timeout: 5000 });
  }
  const heard = await page.evaluate(() => earshotWeb.announcements.filter((a) => !a.assertive).slice(1).map((a) => a.text));
  check(JSON.stringify(heard) === JSON.stringify(expectedKeys), "keys: layout letters, physical keys, releases, text",
        JSON.stringify(heard));
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => earshotWeb.ended, null, { timeout: 5000 }).catch(() => {});

  // Saves outlive the page: browser storage (IndexedDB) through the same storage module.
  for (const expected of ["Count 1.", "Count 2."]) {
    await page.goto(base + "save_probe.html");
    await page.waitForFunction(() => window.earshotWeb && earshotWeb.ready, null, { timeout: 15000 });
    await page.click("#earshot-start");
    await page.waitForFunction(() => earshotWeb.savedAtEnd, null, { timeout: 10000 }).catch(() => {});
    const probe = await page.evaluate(() => earshotWeb.announcements.filter((a) => a.assertive).map((a) => a.text));
    check(JSON.stringify(probe) === JSON.stringify([expected]), `save probe: ${expected} (the save outlived the page)`,
          JSON.stringify(probe));
  }
  check(errors.length === 0, "no console errors", JSON.stringify(errors));
} finally {
  await browser.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
}
if (failures) fatal(`${failures} check(s) failed`);
console.log("web_test: all checks passed");
