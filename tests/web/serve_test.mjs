// serve.mjs under requests a browser would never send: a path that does not decode ("/%",
// "/%zz", "/a%e0%a4") is answered 400 and the server goes on serving (it used to die on
// "/%"); a missing file is 404, a file is served. Needs node only.
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "node:http";
import { serve } from "./serve.mjs";

function get(port, path) {
  return new Promise((ok, fail) => {
    // The raw path, unencoded: what a hostile client sends.
    const req = request({ host: "127.0.0.1", port, path, method: "GET" }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => ok({ status: res.statusCode, body }));
    });
    req.on("error", fail);
    req.end();
  });
}

const dir = mkdtempSync(join(tmpdir(), "earshot-serve-"));
writeFileSync(join(dir, "index.html"), "<p>hello</p>\n");
const server = await serve(dir, 0);
const port = server.address().port;
let failed = 0;
function expect(what, got, want) {
  const ok = got === want;
  console.log(`${ok ? "ok  " : "FAIL"} ${what}: ${got}${ok ? "" : ` (expected ${want})`}`);
  if (!ok) failed++;
}
for (const bad of ["/%", "/%zz", "/a%e0%a4"]) expect(`GET ${bad}`, (await get(port, bad)).status, 400);
expect("GET / after them (still serving)", (await get(port, "/")).status, 200);
expect("GET /missing.js", (await get(port, "/missing.js")).status, 404);
server.close();
rmSync(dir, { recursive: true });
process.exit(failed ? 1 : 0);
