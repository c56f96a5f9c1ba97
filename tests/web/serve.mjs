// Serves a folder on 127.0.0.1 with the MIME types a web build needs (application/wasm
// for WebAssembly's streaming compile). `node serve.mjs DIR [PORT]`; PORT 0 picks a free
// one. Prints "serving http://127.0.0.1:PORT/" when it listens. Only files inside DIR.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { resolve, extname, sep } from "node:path";

const types = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm", ".json": "application/json", ".wav": "audio/wav",
  ".ogg": "audio/ogg", ".txt": "text/plain; charset=utf-8",
};

export function serve(dir, port = 0) {
  const root = resolve(dir);
  const server = createServer(async (req, res) => {
    // A request whose path does not decode ("/%", "/%zz") is the client's error: it is
    // answered 400 and the server stays up (decodeURIComponent throws, and a throw in this
    // async handler used to end the process).
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, "http://127.0.0.1").pathname);
    } catch {
      res.writeHead(400, { "content-type": "text/plain" }).end("bad request: the path does not decode\n");
      return;
    }
    if (path.endsWith("/")) path += "index.html";
    const file = resolve(root, "." + path);
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403).end("outside the served folder\n");
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": types[extname(file)] || "application/octet-stream",
                           "cache-control": "no-store" });
      res.end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    }
  });
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => ok(server));
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2];
  if (!dir) {
    console.error("usage: node serve.mjs DIR [PORT]");
    process.exit(2);
  }
  serve(dir, Number(process.argv[3] || 8000)).then(
    (s) => console.log(`serving http://127.0.0.1:${s.address().port}/ (Ctrl+C stops)`),
    (e) => { console.error(`serve.mjs: ${e.message}`); process.exit(1); });
}
