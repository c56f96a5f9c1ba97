// Debian's Chromium, headless, in a profile of its own (a fresh folder each run, removed
// by close), as every web test launches it.
import { chromium } from "playwright-core";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export async function launchChromium(executablePath) {
  const profile = mkdtempSync(join(tmpdir(), "earshot-chromium-"));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  return { browser, profile, close: async () => {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  } };
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
