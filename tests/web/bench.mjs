// Speed of the stage's scalar kernel: native against wasm in headless Chromium, in the
// same run, alternating (best of 3 rounds each; the machine may be loaded). Not a test.
//   node bench.mjs BUILD_WEB_DIR NATIVE_STAGE_SCENE [VOICES] [SECONDS]
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { serve } from "./serve.mjs";

const [dir, native] = process.argv.slice(2, 4).map((p) => resolve(p));
const voices = Number(process.argv[4] || 32), seconds = Number(process.argv[5] || 2);
const server = await serve(dir, 0);
const profile = mkdtempSync(join(tmpdir(), "earshot-bench-"));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: "/usr/bin/chromium", headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${server.address().port}/bench.html`);
  await page.waitForFunction(() => window.earshotBench);
  let bestNative = Infinity, bestWasm = Infinity;
  for (let round = 0; round < 3; round++) {
    const out = execFileSync(native, ["bench", String(voices), String(seconds)], { encoding: "utf8" });
    bestNative = Math.min(bestNative, Number(/ns_per_voice_frame ([0-9.]+)/.exec(out)[1]));
    bestWasm = Math.min(bestWasm, await page.evaluate(([v, s]) => earshotBench.nsPerVoiceFrame(v, s), [voices, seconds]));
  }
  console.log(`${voices} voices, ${seconds} s per run, best of 3x3: native scalar ${bestNative.toFixed(2)} ns ` +
              `per voice-frame, wasm (Chromium) ${bestWasm.toFixed(2)} ns (${(bestWasm / bestNative).toFixed(2)}x)`);
} finally {
  await browser.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
}
